import { sign, verify, type KeyObject } from 'node:crypto'
import { isSubdomain, labelOffsets, lowerName, parentName, wireNameLength, type WireName } from '../name.ts'
import { CLASS_IN } from '../record.ts'
import { slabCopy } from '../slab.ts'
import { canonicalRdatas } from './canonical.ts'
import { ALGORITHM_NUMBERS, keyTagOf, publicKeyOf, type ZoneKey } from './keys.ts'
import { DnssecError } from './errors.ts'

/**
 * RRSIG records (RFC 4034 §3): signing an rrset in canonical form (§3.1.8.1, §6) and checking
 * a signature against a DNSKEY as a validator does (RFC 4035 §5.3).
 */

/** When a signature is valid: seconds since the epoch, written modulo 2^32 (RFC 4034 §3.1.5). */
export interface SignatureWindow { inception: number, expiration: number }

/** The fixed RRSIG fields before the signer's name (RFC 4034 §3.1): 18 octets. */
const HEADER = 18

/** Whether the owner's leftmost label is `*` (a wildcard, RFC 4592 §2.1.1). */
function isWildcard (owner: WireName): boolean {
  return owner[0] === 1 && owner[1] === 0x2a
}

/**
 * The RRSIG labels field (RFC 4034 §3.1.3): the owner's labels, not counting the root nor a
 * leading `*`.
 */
export function rrsigLabels (owner: WireName): number {
  const n = labelOffsets(owner).length
  return isWildcard(owner) ? n - 1 : n
}

/**
 * The data a signature covers (RFC 4034 §3.1.8.1): the RRSIG rdata up to the signature, with
 * the signer's name in lower case, then every RR of the rrset in canonical form and order
 * (owner lower-cased, class IN, the original TTL, rdata canonical, sorted, duplicates removed).
 */
function signedData (rrsigHead: Uint8Array, owner: WireName, type: number, originalTtl: number, rdatas: readonly Uint8Array[]): Uint8Array {
  const canonicalOwner = lowerName(owner)
  const sorted = canonicalRdatas(type, rdatas)
  let size = rrsigHead.length
  for (const r of sorted) size += canonicalOwner.length + 10 + r.length
  const out = new Uint8Array(size)
  out.set(rrsigHead, 0)
  let at = rrsigHead.length
  for (const r of sorted) {
    out.set(canonicalOwner, at)
    at += canonicalOwner.length
    out[at++] = type >> 8
    out[at++] = type & 0xff
    out[at++] = CLASS_IN >> 8
    out[at++] = CLASS_IN & 0xff
    out[at++] = originalTtl >>> 24
    out[at++] = (originalTtl >>> 16) & 0xff
    out[at++] = (originalTtl >>> 8) & 0xff
    out[at++] = originalTtl & 0xff
    out[at++] = r.length >> 8
    out[at++] = r.length & 0xff
    out.set(r, at)
    at += r.length
  }
  return out
}

/** The RRSIG rdata before the signature (RFC 4034 §3.1), the signer's name lower-cased (§6.2). */
function rrsigHead (type: number, algorithm: number, labels: number, originalTtl: number, window: SignatureWindow, keyTag: number, signer: WireName): Uint8Array {
  const out = new Uint8Array(HEADER + signer.length)
  const v = new DataView(out.buffer)
  v.setUint16(0, type)
  out[2] = algorithm
  out[3] = labels
  v.setUint32(4, originalTtl >>> 0)
  // RFC 4034 §3.1.5: times are seconds since 1970 modulo 2^32.
  v.setUint32(8, window.expiration % 2 ** 32)
  v.setUint32(12, window.inception % 2 ** 32)
  v.setUint16(16, keyTag)
  out.set(lowerName(signer), HEADER)
  return out
}

/**
 * Sign bytes with a key of algorithm 8 (RSA PKCS#1 v1.5 over SHA-256, RFC 5702 §3), 13 (ECDSA
 * P-256 over SHA-256, its r | s in 32 + 32 octets, RFC 6605 §4) or 15 (Ed25519, RFC 8080 §4).
 */
function signBytes (algorithm: number, key: KeyObject, data: Uint8Array): Uint8Array {
  switch (algorithm) {
    case ALGORITHM_NUMBERS.ECDSAP256SHA256: return sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' })
    case ALGORITHM_NUMBERS.ED25519: return sign(null, data, key)
    case ALGORITHM_NUMBERS.RSASHA256: return sign('sha256', data, key)
    default: throw new DnssecError('DNSSEC_UNSUPPORTED_ALGORITHM', `algorithm ${algorithm} is not one of 8, 13, 15`)
  }
}

function verifyBytes (algorithm: number, key: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  switch (algorithm) {
    case ALGORITHM_NUMBERS.ECDSAP256SHA256: return signature.length === 64 && verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature)
    case ALGORITHM_NUMBERS.ED25519: return verify(null, data, key, signature)
    case ALGORITHM_NUMBERS.RSASHA256: return verify('sha256', data, key, signature)
    default: return false
  }
}

/**
 * One RRSIG rdata over an rrset (RFC 4034 §3.1): type covered, algorithm, labels (a leading
 * `*` not counted, §3.1.3), original TTL, expiration, inception, key tag, the signer's name
 * (the zone origin, lower case) and the signature over the canonical rrset (§3.1.8.1, §6).
 *
 * @param origin - the zone apex, the signer's name
 * @param owner - the rrset's owner (at or below the origin)
 * @param ttl - the rrset's TTL, the original TTL
 * @param rdatas - the rrset's rdatas in any order and case; duplicates are signed once
 * @throws DnssecError DNSSEC_UNSUPPORTED_ALGORITHM for a key of another algorithm
 */
export function signRrset (origin: WireName, owner: WireName, type: number, ttl: number, rdatas: readonly Uint8Array[], key: ZoneKey, window: SignatureWindow): Uint8Array {
  const head = rrsigHead(type, key.algorithm, rrsigLabels(owner), ttl, window, key.keyTag, origin)
  const signature = signBytes(key.algorithm, key.privateKey, signedData(head, owner, type, ttl, rdatas))
  const length = head.length + signature.length
  const out = length <= SCRATCH.length ? SCRATCH.subarray(0, length) : new Uint8Array(length)
  out.set(head, 0)
  out.set(signature, head.length)
  // A zone's signatures are many and small: kept in shared slabs, as the zone's own rdata is.
  return slabCopy(out)
}

/** Room for the largest RRSIG (18 octets, a 255-octet signer, a 4096-bit RSA signature). */
const SCRATCH = new Uint8Array(18 + 255 + 512)

/** Whether `a` is at or after `b` in serial number arithmetic over 32 bits (RFC 1982, RFC 4034 §3.1.5). */
function notBefore (a: number, b: number): boolean {
  return (a - b + 2 ** 32) % 2 ** 32 < 2 ** 31
}

/**
 * Whether an RRSIG is a valid signature of an rrset by a DNSKEY at time `now`, as a validator
 * decides (RFC 4035 §5.3.1, §5.3.2): the type covered is `type`; the DNSKEY is a zone key
 * (flag 256, protocol 3) of the RRSIG's algorithm and key tag; the signer's name is the owner
 * or above it; the labels field is at most the owner's (fewer: a wildcard expansion, checked
 * over `*.` and the closest encloser); `now` is within inception and expiration; the served
 * TTL is not above the original TTL; and the signature verifies over the canonical rrset with
 * the original TTL.
 *
 * @param now - seconds since the epoch
 * @returns false for any mismatch or malformed input, never throws
 */
export function verifyRrsig (owner: WireName, type: number, ttl: number, rdatas: readonly Uint8Array[], rrsig: Uint8Array, dnskey: Uint8Array, now: number): boolean {
  try {
    if (rrsig.length < HEADER + 1 || dnskey.length < 5) return false
    const v = new DataView(rrsig.buffer, rrsig.byteOffset, rrsig.byteLength)
    const algorithm = rrsig[2]!
    const labels = rrsig[3]!
    const originalTtl = v.getUint32(4)
    const expiration = v.getUint32(8)
    const inception = v.getUint32(12)
    const keyTag = v.getUint16(16)
    const signerLength = wireNameLength(rrsig, HEADER)
    const signer = rrsig.subarray(HEADER, HEADER + signerLength)
    const signature = rrsig.subarray(HEADER + signerLength)
    const flags = (dnskey[0]! << 8) | dnskey[1]!
    if (v.getUint16(0) !== type) return false
    if ((flags & 0x0100) === 0 || dnskey[2] !== 3 || dnskey[3] !== algorithm || keyTagOf(dnskey) !== keyTag) return false
    if (!isSubdomain(owner, signer)) return false
    const ownerLabels = rrsigLabels(owner)
    if (labels > ownerLabels) return false
    if (!notBefore(now % 2 ** 32, inception) || !notBefore(expiration, now % 2 ** 32)) return false
    if (ttl > originalTtl) return false
    // RFC 4035 §5.3.2: a wildcard expansion is checked as `*.` and the owner's rightmost labels.
    let signedOwner = owner
    if (labels < ownerLabels) {
      const closest = parentName(owner, labelOffsets(owner).length - labels)
      signedOwner = new Uint8Array(2 + closest.length)
      signedOwner.set([1, 0x2a], 0)
      signedOwner.set(closest, 2)
    }
    const head = rrsig.slice(0, HEADER + signerLength)
    head.set(lowerName(signer), HEADER)
    const data = signedData(head, signedOwner, type, originalTtl, rdatas)
    return verifyBytes(algorithm, publicKeyOf(dnskey), data, signature)
  } catch {
    return false
  }
}
