import { nsec3Hash as hashName, nsec3OwnerName } from '../../zone/dnssec/denial.ts'
import type { WireName } from '../../zone/name.ts'

/** The NSEC3 hash parameters of a zone (RFC 5155 §4.1: NSEC3PARAM; the same first fields in NSEC3, §3.1). */
export interface Nsec3Params {
  /** Hash algorithm: 1 is SHA-1, the only one defined (RFC 5155 §11). */
  algorithm: number
  iterations: number
  salt: Uint8Array
}

/** The hash parameters at the start of an NSEC3PARAM or NSEC3 rdata (RFC 5155 §3.2, §4.2). */
export function readNsec3Params (rdata: Uint8Array): Nsec3Params {
  const saltLength = rdata[4]!
  return { algorithm: rdata[0]!, iterations: (rdata[2]! << 8) | rdata[3]!, salt: rdata.subarray(5, 5 + saltLength) }
}

/**
 * The NSEC3 hash of a name (RFC 5155 §5), the signer's own (`zone/dnssec/denial.ts`).
 * @throws Error for a hash algorithm other than SHA-1 (the caller answers without the proof)
 */
export function nsec3Hash (name: WireName, p: Nsec3Params): Uint8Array {
  if (p.algorithm !== 1) throw new Error(`NSEC3 hash algorithm ${p.algorithm} is not SHA-1`)
  return hashName(name, p.salt, p.iterations)
}

/** The owner name of the NSEC3 record for `name` in the zone `origin` (RFC 5155 §3). */
export function hashedOwner (name: WireName, origin: WireName, p: Nsec3Params): WireName {
  return nsec3OwnerName(nsec3Hash(name, p), origin)
}
