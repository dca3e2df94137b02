import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, type webcrypto } from 'node:crypto'
import { lowerName, type WireName } from '../name.ts'
import { DnssecError } from './errors.ts'

/**
 * DNSSEC zone keys with node:crypto: generation, the DNSKEY public key field (RFC 6605 §4
 * ECDSA P-256, RFC 8080 §3 Ed25519, RFC 3110 §2 RSA), the DNSKEY rdata (RFC 4034 §2.1), key
 * tags (RFC 4034 Appendix B), DS digests (RFC 4034 §5.1.4, RFC 4509, RFC 6605 §2) and the
 * PKCS#8 form the store keeps private keys in.
 */

/** The signing algorithms the service offers (RFC 8624 §3.1: the ones to implement and use). */
export type AlgorithmName = 'ECDSAP256SHA256' | 'ED25519' | 'RSASHA256'

/** DNSSEC algorithm numbers (IANA registry; RFC 6605, RFC 8080, RFC 5702). */
export const ALGORITHM_NUMBERS: Record<AlgorithmName, number> = { ECDSAP256SHA256: 13, ED25519: 15, RSASHA256: 8 }

/** RSA modulus sizes accepted (RFC 5702 §2 allows 512–4096; below 1024 is unsafe, RFC 8624 §3.1). */
export const RSA_BITS = { min: 1024, max: 4096, default: 2048 } as const

/** The DNSKEY flags of each role: Zone Key (256), plus SEP (1) for a KSK (RFC 4034 §2.1.1). */
export const KEY_FLAGS = { KSK: 257, ZSK: 256 } as const

/** A zone's signing key: the DNSKEY fields and the private key that signs with it. */
export interface ZoneKey {
  role: 'KSK' | 'ZSK'
  /** DNSSEC algorithm number. */
  algorithm: number
  /** 257 for a KSK (SEP bit), 256 for a ZSK. */
  flags: number
  /** 256 for P-256 and Ed25519, the modulus size for RSA. */
  bits: number
  /** The DNSKEY public key field (RFC 6605 / RFC 8080 / RFC 3110). */
  publicKey: Uint8Array
  privateKey: KeyObject
  /** RFC 4034 Appendix B. */
  keyTag: number
}

/** The algorithm name of a number this module signs with; undefined for any other. */
export function algorithmName (algorithm: number): AlgorithmName | undefined {
  for (const [name, n] of Object.entries(ALGORITHM_NUMBERS)) if (n === algorithm) return name as AlgorithmName
  return undefined
}

function fromBase64Url (text: string | undefined): Uint8Array {
  return new Uint8Array(Buffer.from(text ?? '', 'base64url'))
}

function toBase64Url (bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url')
}

/** Leading zero octets removed (JWK integers are minimal already; RFC 3110 wants none). */
function stripZeros (b: Uint8Array): Uint8Array {
  let i = 0
  while (i < b.length - 1 && b[i] === 0) i++
  return b.subarray(i)
}

/**
 * The DNSKEY public key field of a key (public or private): RFC 6605 §4 the 64 octets x | y of
 * a P-256 point; RFC 8080 §3 the 32-octet Ed25519 key; RFC 3110 §2 the exponent length (one
 * octet, or zero and two octets when over 255), the exponent, then the modulus.
 *
 * @throws DnssecError DNSSEC_BAD_KEY when the key does not fit the algorithm
 */
export function publicKeyField (algorithm: number, key: KeyObject): Uint8Array {
  const jwk = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'jwk' })
  switch (algorithm) {
    case ALGORITHM_NUMBERS.ECDSAP256SHA256: {
      if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') throw new DnssecError('DNSSEC_BAD_KEY', 'algorithm 13 needs a P-256 key')
      const x = fromBase64Url(jwk.x)
      const y = fromBase64Url(jwk.y)
      const out = new Uint8Array(64)
      out.set(x, 32 - x.length)
      out.set(y, 64 - y.length)
      return out
    }
    case ALGORITHM_NUMBERS.ED25519:
      if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') throw new DnssecError('DNSSEC_BAD_KEY', 'algorithm 15 needs an Ed25519 key')
      return fromBase64Url(jwk.x)
    case ALGORITHM_NUMBERS.RSASHA256: {
      if (jwk.kty !== 'RSA') throw new DnssecError('DNSSEC_BAD_KEY', 'algorithm 8 needs an RSA key')
      const e = stripZeros(fromBase64Url(jwk.e))
      const n = stripZeros(fromBase64Url(jwk.n))
      const head = e.length <= 255 ? [e.length] : [0, e.length >> 8, e.length & 0xff]
      const out = new Uint8Array(head.length + e.length + n.length)
      out.set(head, 0)
      out.set(e, head.length)
      out.set(n, head.length + e.length)
      return out
    }
    default:
      throw new DnssecError('DNSSEC_UNSUPPORTED_ALGORITHM', `algorithm ${algorithm} is not one of 8, 13, 15`)
  }
}

/**
 * The public key a DNSKEY rdata holds, for verifying signatures.
 *
 * @param dnskey - DNSKEY rdata (flags, protocol, algorithm, public key)
 * @throws DnssecError DNSSEC_UNSUPPORTED_ALGORITHM, DNSSEC_BAD_KEY when the key field is malformed
 */
export function publicKeyOf (dnskey: Uint8Array): KeyObject {
  if (dnskey.length < 5) throw new DnssecError('DNSSEC_BAD_KEY', 'DNSKEY rdata too short')
  const algorithm = dnskey[3]!
  const field = dnskey.subarray(4)
  let jwk: webcrypto.JsonWebKey
  switch (algorithm) {
    case ALGORITHM_NUMBERS.ECDSAP256SHA256:
      if (field.length !== 64) throw new DnssecError('DNSSEC_BAD_KEY', `a P-256 key is 64 octets, not ${field.length}`)
      jwk = { kty: 'EC', crv: 'P-256', x: toBase64Url(field.subarray(0, 32)), y: toBase64Url(field.subarray(32)) }
      break
    case ALGORITHM_NUMBERS.ED25519:
      if (field.length !== 32) throw new DnssecError('DNSSEC_BAD_KEY', `an Ed25519 key is 32 octets, not ${field.length}`)
      jwk = { kty: 'OKP', crv: 'Ed25519', x: toBase64Url(field) }
      break
    case ALGORITHM_NUMBERS.RSASHA256: {
      // RFC 3110 §2: exponent length in one octet, or a zero octet and two octets.
      let at = 1
      let eLen = field[0] ?? 0
      if (eLen === 0) {
        eLen = ((field[1] ?? 0) << 8) | (field[2] ?? 0)
        at = 3
      }
      if (eLen === 0 || at + eLen >= field.length) throw new DnssecError('DNSSEC_BAD_KEY', 'RSA key field too short for its exponent')
      jwk = { kty: 'RSA', e: toBase64Url(field.subarray(at, at + eLen)), n: toBase64Url(field.subarray(at + eLen)) }
      break
    }
    default:
      throw new DnssecError('DNSSEC_UNSUPPORTED_ALGORITHM', `algorithm ${algorithm} is not one of 8, 13, 15`)
  }
  try {
    return createPublicKey({ key: jwk, format: 'jwk' })
  } catch (err) {
    throw new DnssecError('DNSSEC_BAD_KEY', `DNSKEY public key not usable: ${(err as Error).message}`)
  }
}

/** Bits of a key as ZoneKey counts them: 256 for P-256 and Ed25519, the modulus size for RSA. */
function keyBits (algorithm: number, key: KeyObject): number {
  if (algorithm !== ALGORITHM_NUMBERS.RSASHA256) return 256
  return key.asymmetricKeyDetails?.modulusLength ?? 0
}

/**
 * A new key pair for a zone. ECDSA keys are on P-256 (RFC 6605), Ed25519 keys per RFC 8080,
 * RSA keys have the exponent 65537 and `bits` of modulus (default 2048).
 *
 * @param role - KSK (flags 257) or ZSK (flags 256)
 * @param algorithm - the algorithm to sign with
 * @param bits - RSA only: 1024 to 4096; ignored for the others
 * @throws DnssecError DNSSEC_BAD_KEY_SIZE for an RSA size out of range
 */
export function generateKey (role: 'KSK' | 'ZSK', algorithm: AlgorithmName, bits?: number): ZoneKey {
  const number = ALGORITHM_NUMBERS[algorithm]
  let privateKey: KeyObject
  switch (algorithm) {
    case 'ECDSAP256SHA256':
      privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
      break
    case 'ED25519':
      privateKey = generateKeyPairSync('ed25519').privateKey
      break
    case 'RSASHA256': {
      const modulusLength = bits ?? RSA_BITS.default
      if (!Number.isInteger(modulusLength) || modulusLength < RSA_BITS.min || modulusLength > RSA_BITS.max) {
        throw new DnssecError('DNSSEC_BAD_KEY_SIZE', `RSA keys are ${RSA_BITS.min} to ${RSA_BITS.max} bits, not ${modulusLength}`)
      }
      privateKey = generateKeyPairSync('rsa', { modulusLength, publicExponent: 65537 }).privateKey
      break
    }
  }
  return zoneKey(role, number, privateKey)
}

function zoneKey (role: 'KSK' | 'ZSK', algorithm: number, privateKey: KeyObject, flags: number = KEY_FLAGS[role]): ZoneKey {
  const publicKey = publicKeyField(algorithm, privateKey)
  return { role, algorithm, flags, bits: keyBits(algorithm, privateKey), publicKey, privateKey, keyTag: keyTagOf(dnskeyRdata({ flags, algorithm, publicKey })) }
}

/**
 * The DNSKEY rdata of a key (RFC 4034 §2.1): flags, protocol 3, algorithm, public key.
 */
export function dnskeyRdata (key: Pick<ZoneKey, 'flags' | 'algorithm' | 'publicKey'>): Uint8Array {
  const out = new Uint8Array(4 + key.publicKey.length)
  out[0] = key.flags >> 8
  out[1] = key.flags & 0xff
  out[2] = 3
  out[3] = key.algorithm
  out.set(key.publicKey, 4)
  return out
}

/**
 * The key tag of a DNSKEY rdata (RFC 4034 Appendix B): the one's-complement-like sum of its
 * 16-bit words; for algorithm 1 (RSA/MD5, Appendix B.1) the modulus' low 16 bits of its last 24.
 */
export function keyTagOf (dnskeyRdata: Uint8Array): number {
  if (dnskeyRdata[3] === 1 && dnskeyRdata.length >= 7) {
    const n = dnskeyRdata.length
    return (dnskeyRdata[n - 3]! << 8) | dnskeyRdata[n - 2]!
  }
  let ac = 0
  for (let i = 0; i < dnskeyRdata.length; i++) ac += (i & 1) !== 0 ? dnskeyRdata[i]! : dnskeyRdata[i]! << 8
  ac += (ac >> 16) & 0xffff
  return ac & 0xffff
}

const DIGESTS: Record<1 | 2 | 4, string> = { 1: 'sha1', 2: 'sha256', 4: 'sha384' }

/**
 * The DS rdata for a DNSKEY (RFC 4034 §5.1): key tag, algorithm, digest type and the digest of
 * the owner's canonical (lower-case) wire form followed by the DNSKEY rdata (§5.1.4). Digest
 * types: 1 SHA-1 (RFC 4034), 2 SHA-256 (RFC 4509), 4 SHA-384 (RFC 6605 §2).
 *
 * @param owner - the DNSKEY's owner, the zone apex
 */
export function dsRdata (owner: WireName, dnskeyRdata: Uint8Array, digestType: 1 | 2 | 4): Uint8Array {
  const algorithm = DIGESTS[digestType]
  if (algorithm === undefined) throw new DnssecError('DNSSEC_UNSUPPORTED_DIGEST', `digest type ${String(digestType)} is not 1, 2 or 4`)
  const digest = createHash(algorithm).update(lowerName(owner)).update(dnskeyRdata).digest()
  const tag = keyTagOf(dnskeyRdata)
  const out = new Uint8Array(4 + digest.length)
  out[0] = tag >> 8
  out[1] = tag & 0xff
  out[2] = dnskeyRdata[3]!
  out[3] = digestType
  out.set(digest, 4)
  return out
}

/** The private key as PKCS#8 DER (what the store keeps, sealed). */
export function exportPrivateKey (key: ZoneKey): Uint8Array {
  return new Uint8Array(key.privateKey.export({ format: 'der', type: 'pkcs8' }))
}

/**
 * A key from its stored parts. The public key derived from the private key must equal the
 * stored DNSKEY public key field, so a key and its DNSKEY cannot drift apart.
 *
 * @throws DnssecError DNSSEC_BAD_KEY when the PKCS#8 data is not a key of the algorithm or does
 * not match `publicKey`; DNSSEC_UNSUPPORTED_ALGORITHM for another algorithm
 */
export function importZoneKey (k: { role: 'KSK' | 'ZSK', algorithm: number, flags: number, bits: number, publicKey: Uint8Array, privateKeyPkcs8: Uint8Array }): ZoneKey {
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey({ key: Buffer.from(k.privateKeyPkcs8), format: 'der', type: 'pkcs8' })
  } catch (err) {
    throw new DnssecError('DNSSEC_BAD_KEY', `private key is not PKCS#8 DER: ${(err as Error).message}`)
  }
  const key = zoneKey(k.role, k.algorithm, privateKey, k.flags)
  if (Buffer.compare(key.publicKey, k.publicKey) !== 0) throw new DnssecError('DNSSEC_BAD_KEY', 'the private key does not match the public key')
  if (key.bits !== k.bits) throw new DnssecError('DNSSEC_BAD_KEY', `the key has ${key.bits} bits, not ${k.bits}`)
  return key
}
