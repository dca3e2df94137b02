import { randomUUID } from 'node:crypto'
import type { SecretBox } from '../../auth/secrets.ts'
import type { DnssecKey, DnssecKeyState, DnssecPolicy } from '../../store/store.ts'
import { dnskeyRdata, exportPrivateKey, generateKey, importZoneKey, type AlgorithmName, type ZoneKey } from '../../zone/dnssec/keys.ts'
import type { SealedSecret } from '../../zone/settings.ts'

/** A stored key and the key it opens to (private part usable for signing). */
export interface OpenKey {
  row: DnssecKey
  key: ZoneKey
}

/**
 * A new key of the zone under `policy` (its algorithm and size), as the store keeps it: the
 * private key PKCS#8 DER in base64, sealed by `secrets` (encrypted when `ZONAL_SECRET_KEY` is
 * set). `times` are its state's times, past or planned.
 */
export function newKey (zoneId: string, role: 'KSK' | 'ZSK', policy: DnssecPolicy, secrets: SecretBox, state: DnssecKeyState, times: Pick<DnssecKey, 'createdAt' | 'publishedAt' | 'activeAt'> & Partial<Pick<DnssecKey, 'retiredAt' | 'removedAt'>>): OpenKey {
  const key = generateKey(role, policy.algorithm as AlgorithmName, role === 'KSK' ? policy.kskBits : policy.zskBits)
  const row: DnssecKey = {
    id: randomUUID(),
    zoneId,
    role,
    algorithm: key.algorithm,
    flags: key.flags,
    bits: key.bits,
    keyTag: key.keyTag,
    publicKey: key.publicKey,
    privateKey: secrets.seal(Buffer.from(exportPrivateKey(key)).toString('base64')),
    state,
    retiredAt: null,
    removedAt: null,
    ...times
  }
  return { row, key }
}

/**
 * The stored key opened for signing.
 * @throws Error when its private key is sealed and `secrets` cannot open it (no or another `ZONAL_SECRET_KEY`).
 */
export function openKey (row: DnssecKey, secrets: SecretBox): OpenKey {
  const pkcs8 = Buffer.from(secrets.open(row.privateKey as SealedSecret), 'base64')
  return { row, key: importZoneKey({ role: row.role, algorithm: row.algorithm, flags: row.flags, bits: row.bits, publicKey: row.publicKey, privateKeyPkcs8: pkcs8 }) }
}

/** The DNSKEY rdata of a stored key. */
export function dnskeyOf (row: Pick<DnssecKey, 'flags' | 'algorithm' | 'publicKey'>): Uint8Array {
  return dnskeyRdata(row)
}
