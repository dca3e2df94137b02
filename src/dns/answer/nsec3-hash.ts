import { createHash } from 'node:crypto'
import { lowerName, type WireName } from '../../zone/name.ts'
import { encodeBase32Hex } from '../../zone/rdata/fields.ts'

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
 * The NSEC3 hash of a name (RFC 5155 §5): SHA-1 of the lower-cased wire name and the salt, then
 * `iterations` times more of the hash and the salt.
 * @throws Error for a hash algorithm other than SHA-1 (the caller answers without the proof)
 */
export function nsec3Hash (name: WireName, p: Nsec3Params): Uint8Array {
  if (p.algorithm !== 1) throw new Error(`NSEC3 hash algorithm ${p.algorithm} is not SHA-1`)
  let h: Uint8Array = createHash('sha1').update(lowerName(name)).update(p.salt).digest()
  for (let i = 0; i < p.iterations; i++) h = createHash('sha1').update(h).update(p.salt).digest()
  return h
}

/**
 * The owner name of the NSEC3 record for `name` in the zone `origin` (RFC 5155 §3): the
 * base32hex hash (RFC 4648 §7, no padding) as one label in front of the zone's name.
 */
export function hashedOwner (name: WireName, origin: WireName, p: Nsec3Params): WireName {
  const label = encodeBase32Hex(nsec3Hash(name, p))
  const out = new Uint8Array(1 + label.length + origin.length)
  out[0] = label.length
  for (let i = 0; i < label.length; i++) out[1 + i] = label.charCodeAt(i)
  out.set(origin, 1 + label.length)
  return out
}
