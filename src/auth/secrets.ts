import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto'
import type { SealedSecret } from '../zone/settings.ts'

const PREFIX = 'enc:v1:'

/**
 * Encryption at rest for credentials kept in the database (TSIG secrets): AES-256-GCM with a key
 * derived from `ZONAL_SECRET_KEY`. Without a key, values are kept as given. Values written
 * before a key was set are read as they are.
 */
export class SecretBox {
  private readonly key: Buffer | undefined

  constructor (secret: string | undefined) {
    this.key = secret === undefined || secret === '' ? undefined : scryptSync(secret, 'zonal-secret-box-v1', 32)
  }

  seal (plain: string): SealedSecret {
    if (this.key === undefined) return plain as SealedSecret
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return (PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')) as SealedSecret
  }

  /** @throws Error when a sealed value cannot be opened (no key, or another key). */
  open (stored: SealedSecret): string {
    if (!stored.startsWith(PREFIX)) return stored
    if (this.key === undefined) throw new Error('a TSIG secret is encrypted but ZONAL_SECRET_KEY is not set')
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64')
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
  }
}
