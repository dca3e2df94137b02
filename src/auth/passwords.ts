import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

const KEY_LENGTH = 64
const PARAMS = { N: 16384, r: 8, p: 1 }
const MIN_LENGTH = 8
const MAX_LENGTH = 1024

function scryptAsync (password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) => err === null ? resolve(key) : reject(err))
  })
}

/** Hash a password with scrypt and a fresh 16-byte salt: `scrypt$N$r$p$salt$key` (base64). */
export async function hashPassword (password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(password, salt, KEY_LENGTH, PARAMS)
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$')
}

/** Check a password against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword (password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string]
  const expected = Buffer.from(key, 'base64')
  if (expected.length === 0) return false
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) })
  return timingSafeEqual(actual, expected)
}

/** A hash that no password matches, used to spend the same time on unknown users. */
export const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + Buffer.alloc(KEY_LENGTH).toString('base64')

/** A strong random password: 24 characters of base64url (144 bits). */
export function generatePassword (): string {
  return randomBytes(18).toString('base64url')
}

/** Returns why a new password is not acceptable, or undefined when it is. */
export function passwordProblem (password: string): string | undefined {
  if (password.length < MIN_LENGTH) return `password must be at least ${MIN_LENGTH} characters long`
  if (password.length > MAX_LENGTH) return `password must be at most ${MAX_LENGTH} characters long`
  return undefined
}
