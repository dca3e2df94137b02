import { hash } from 'node:crypto'
import { lowerName, nameEquals, parentName, wireKey, type WireName } from '../name.ts'
import { encodeBase32Hex } from '../rdata/fields.ts'
import { encodeTypeBitmap } from '../rdata/type-bitmap.ts'
import type { ZoneRecord } from '../record.ts'
import { RRType } from '../rrtype.ts'
import { slabCopy } from '../slab.ts'
import { DnssecError } from './errors.ts'
import { zoneNames, type ZoneName } from './zone-cuts.ts'

/**
 * Authenticated denial of existence: the NSEC chain (RFC 4034 §4, RFC 4035 §2.3) and the
 * NSEC3 chain with its NSEC3PARAM (RFC 5155 §7.1; SHA-1, RFC 9276 parameters by default).
 */

/** How a zone denies existence: NSEC, or NSEC3 with its parameters (RFC 9276: 0 iterations, no salt, no opt-out). */
export type DenialPolicy = { kind: 'NSEC' } | { kind: 'NSEC3', iterations: number, salt: Uint8Array, optOut: boolean }

/** The one NSEC3 hash algorithm, SHA-1 (RFC 5155 §11). */
const NSEC3_SHA1 = 1
/** Iterations RFC 5155 §10.3 allowed at most (for 4096-bit keys); RFC 9276 §3.1 asks for 0. */
export const NSEC3_MAX_ITERATIONS = 2500

/**
 * The NSEC3 hash of a name (RFC 5155 §5): SHA-1 over the canonical (lower-case) wire name and
 * the salt, then `iterations` more times over the previous digest and the salt.
 *
 * @returns 20 octets
 */
export function nsec3Hash (name: WireName, salt: Uint8Array, iterations: number): Uint8Array {
  const input = new Uint8Array(Math.max(name.length, 20) + salt.length)
  input.set(lowerName(name), 0)
  input.set(salt, name.length)
  let digest = hash('sha1', input.subarray(0, name.length + salt.length), 'buffer')
  if (iterations > 0) {
    input.set(salt, 20)
    for (let i = 0; i < iterations; i++) {
      input.set(digest, 0)
      digest = hash('sha1', input.subarray(0, 20 + salt.length), 'buffer')
    }
  }
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength)
}

/** The owner of an NSEC3 record (RFC 5155 §3): the hash in base32hex (lower case) as one label, then the origin. */
export function nsec3OwnerName (hash: Uint8Array, origin: WireName): WireName {
  return ownerFromLabel(encodeBase32Hex(hash).toLowerCase(), origin)
}

function ownerFromLabel (label: string, origin: WireName): WireName {
  const out = new Uint8Array(1 + label.length + origin.length)
  out[0] = label.length
  for (let i = 0; i < label.length; i++) out[1 + i] = label.charCodeAt(i)
  out.set(origin, 1 + label.length)
  return out
}

/**
 * The types an NSEC's bitmap lists at a name (RFC 4035 §2.3): its own, plus RRSIG and NSEC; at
 * the apex DNSKEY too; at a delegation only NS and DS (RFC 4035 §2.3, the parent side of a cut).
 */
export function nsecTypes (n: ZoneName): number[] {
  if (n.role === 'delegation') return [...n.types.filter(t => t === RRType.NS || t === RRType.DS), RRType.RRSIG, RRType.NSEC]
  const types = n.types.concat(RRType.RRSIG, RRType.NSEC)
  if (n.role === 'apex') types.push(RRType.DNSKEY)
  return types
}

/**
 * The types an NSEC3's bitmap lists at its original name (RFC 5155 §3.2.1, §7.1): the name's
 * own plus RRSIG when anything there is signed; DNSKEY and NSEC3PARAM at the apex; only NS, and
 * DS with RRSIG when there is a DS, at a delegation; none for an empty non-terminal.
 */
export function nsec3Types (n: ZoneName | undefined): number[] {
  if (n === undefined) return []
  if (n.role === 'delegation') {
    return n.types.includes(RRType.DS) ? [RRType.NS, RRType.DS, RRType.RRSIG] : [RRType.NS]
  }
  const types = n.types.concat(RRType.RRSIG)
  if (n.role === 'apex') types.push(RRType.DNSKEY, RRType.NSEC3PARAM)
  return types
}

/** NSEC rdata (RFC 4034 §4.1): the next owner name, then the type bitmap. */
export function nsecRdata (next: WireName, bitmap: Uint8Array): Uint8Array {
  const rdata = new Uint8Array(next.length + bitmap.length)
  rdata.set(next, 0)
  rdata.set(bitmap, next.length)
  return rdata
}

function nsecChain (names: readonly ZoneName[], ttl: number, bitmapOf: (types: number[]) => Uint8Array): ZoneRecord[] {
  const chain = names.filter(n => n.role !== 'occluded')
  return chain.map((n, i) => {
    const next = chain[(i + 1) % chain.length]!.owner
    return { owner: n.owner, type: RRType.NSEC, ttl, rdata: slabCopy(nsecRdata(next, bitmapOf(nsecTypes(n)))) }
  })
}

/**
 * NSEC3 rdata (RFC 5155 §3.2): the parameter fields ({@link nsec3Parameters} with the record's
 * flags), the next hashed owner (its length, then its octets) and the type bitmap.
 */
export function nsec3Rdata (params: Uint8Array, next: Uint8Array, bitmap: Uint8Array): Uint8Array {
  const rdata = new Uint8Array(params.length + 1 + next.length + bitmap.length)
  rdata.set(params, 0)
  rdata[params.length] = next.length
  rdata.set(next, params.length + 1)
  rdata.set(bitmap, params.length + 1 + next.length)
  return rdata
}

/** NSEC3 / NSEC3PARAM parameter fields (RFC 5155 §3.2, §4.2): algorithm, flags, iterations, salt. */
export function nsec3Parameters (flags: number, iterations: number, salt: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + salt.length)
  out[0] = NSEC3_SHA1
  out[1] = flags
  out[2] = iterations >> 8
  out[3] = iterations & 0xff
  out[4] = salt.length
  out.set(salt, 5)
  return out
}

function nsec3Chain (origin: WireName, names: readonly ZoneName[], policy: Extract<DenialPolicy, { kind: 'NSEC3' }>, ttl: number, bitmapOf: (types: number[]) => Uint8Array): ZoneRecord[] {
  const { iterations, salt, optOut } = policy
  if (!Number.isInteger(iterations) || iterations < 0 || iterations > NSEC3_MAX_ITERATIONS) {
    throw new DnssecError('DNSSEC_BAD_POLICY', `NSEC3 iterations must be 0 to ${NSEC3_MAX_ITERATIONS}, not ${iterations}`)
  }
  if (salt.length > 255) throw new DnssecError('DNSSEC_BAD_POLICY', `an NSEC3 salt is at most 255 octets, not ${salt.length}`)
  // RFC 5155 §7.1: every authoritative name, delegations (with Opt-Out only the secure ones) and
  // every empty non-terminal between them and the apex, unless it only leads to unsigned
  // delegations that Opt-Out leaves out.
  const hashed = new Map<string, { name: WireName, node: ZoneName | undefined }>()
  for (const n of names) {
    if (n.role === 'occluded') continue
    if (optOut && n.role === 'delegation' && !n.types.includes(RRType.DS)) continue
    hashed.set(wireKey(n.owner), { name: n.owner, node: n })
  }
  for (const { name, node } of [...hashed.values()]) {
    if (node?.role === 'apex') continue
    let up = parentName(name)
    while (!nameEquals(up, origin)) {
      const key = wireKey(up)
      if (hashed.has(key)) break
      hashed.set(key, { name: up, node: undefined })
      up = parentName(up)
    }
  }
  const entries = [...hashed.values()].map(e => {
    const hash = nsec3Hash(e.name, salt, iterations)
    return { hash, label: encodeBase32Hex(hash), node: e.node }
  })
  // Base32hex keeps the order of the octets it encodes (RFC 4648 §7): sort by the label text.
  entries.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
  const params = nsec3Parameters(optOut ? 1 : 0, iterations, salt)
  const records: ZoneRecord[] = entries.map((e, i) => {
    const rdata = nsec3Rdata(params, entries[(i + 1) % entries.length]!.hash, bitmapOf(nsec3Types(e.node)))
    return { owner: slabCopy(ownerFromLabel(e.label.toLowerCase(), origin)), type: RRType.NSEC3, ttl, rdata: slabCopy(rdata) }
  })
  // RFC 5155 §4.1.2: the NSEC3PARAM flags are 0 (Opt-Out is only in the NSEC3 records).
  records.push({ owner: origin, type: RRType.NSEC3PARAM, ttl, rdata: nsec3Parameters(0, iterations, salt) })
  return records
}

/**
 * The denial chain of a zone's names (each owner with the types it holds, DNSSEC types excluded):
 * NSEC or NSEC3 records, plus NSEC3PARAM at the apex for NSEC3. Delegations, glue and empty
 * non-terminals are handled per the RFCs.
 *
 * @remarks NSEC (RFC 4034 §4): one record per authoritative name and delegation point in
 * canonical order, each naming the next and the last the apex; glue and other names below a
 * cut get none. NSEC3 (RFC 5155 §7.1): one record per hashed name in hash order, empty
 * non-terminals included with an empty bitmap. The apex bitmap lists DNSKEY (and NSEC3PARAM),
 * which a signed zone always holds.
 *
 * @param origin - the zone apex; `names` must include it
 * @param ttl - the TTL of every record made: the lesser of the SOA's TTL and MINIMUM (RFC 9077)
 * @throws DnssecError DNSSEC_BAD_POLICY for NSEC3 iterations over 2500 or a salt over 255 octets,
 * DNSSEC_NO_SOA when the apex is not among the names
 */
export function denialChain (origin: WireName, names: ReadonlyArray<{ owner: WireName, types: readonly number[] }>, policy: DenialPolicy, ttl: number): ZoneRecord[] {
  return denialChainOf(origin, zoneNames(origin, names), policy, ttl)
}

/**
 * {@link denialChain} over names already classified by `zoneNames` (the signer classifies once).
 * @throws DnssecError as {@link denialChain}
 */
export function denialChainOf (origin: WireName, zone: readonly ZoneName[], policy: DenialPolicy, ttl: number): ZoneRecord[] {
  if (zone[0]?.role !== 'apex') throw new DnssecError('DNSSEC_NO_SOA', 'the zone has no records at its apex')
  const bitmaps = new Map<string, Uint8Array>()
  // Most names hold the same few type sets: encode each set once.
  const bitmap = (types: number[]): Uint8Array => {
    const key = types.join(',')
    let b = bitmaps.get(key)
    if (b === undefined) {
      b = encodeTypeBitmap(types)
      bitmaps.set(key, b)
    }
    return b
  }
  return policy.kind === 'NSEC' ? nsecChain(zone, ttl, bitmap) : nsec3Chain(origin, zone, policy, ttl, bitmap)
}
