import type { DnssecPolicy, StoredRrset } from '../../store/store.ts'
import type { DenialPolicy } from '../../zone/dnssec/denial.ts'
import type { SigningKeys, SigningPolicy } from '../../zone/dnssec/zone-signer.ts'
import { canonicalSortKey, nameToString } from '../../zone/name.ts'
import { readSoa } from '../../zone/rdata/soa.ts'
import { rdataToRecordText } from '../../zone/record-text.ts'
import type { ZoneRecord } from '../../zone/record.ts'
import type { OpenKey } from './keyring.ts'

const DAY = 86400

/** Signatures begin an hour before the signing time, for validators whose clocks run behind. */
export const INCEPTION_OFFSET_SECONDS = 3600

/** The denial of existence a policy asks for (NSEC3: SHA-1, its iterations and salt, opt-out by type). */
export function denialOf (p: DnssecPolicy): DenialPolicy {
  if (p.securityType === 'NSEC') return { kind: 'NSEC' }
  return { kind: 'NSEC3', iterations: p.nsec3Iterations, salt: Uint8Array.from(Buffer.from(p.nsec3Salt, 'hex')), optOut: p.securityType === 'NSEC3_OPT_OUT' }
}

/**
 * What the zone signer is given for a policy: the validity in seconds and a jitter of a tenth of
 * it, so the signatures of a zone do not all expire (and get refreshed) at the same moment.
 */
export function signingPolicyOf (p: DnssecPolicy): SigningPolicy {
  const validitySeconds = p.rrsigValidityDays * DAY
  return { denial: denialOf(p), dnskeyTtl: p.dnskeyTtl, validitySeconds, jitterSeconds: Math.floor(validitySeconds / 10), inceptionOffsetSeconds: INCEPTION_OFFSET_SECONDS }
}

/**
 * The keys a zone signs with, by state: ACTIVE keys sign (KSKs the DNSKEY rrset, ZSKs the rest),
 * PUBLISHED and RETIRED ones are only in the DNSKEY rrset (a ZSK pre-published, or kept until
 * the signatures made with it have expired from caches).
 */
export function signingKeysOf (keys: readonly OpenKey[]): SigningKeys {
  const active = (role: 'KSK' | 'ZSK'): OpenKey['key'][] => keys.filter(k => k.row.role === role && k.row.state === 'ACTIVE').map(k => k.key)
  return { ksk: active('KSK'), zsk: active('ZSK'), publishedOnly: keys.filter(k => k.row.state === 'PUBLISHED' || k.row.state === 'RETIRED').map(k => k.key) }
}

/** The type an RRSIG rdata covers (RFC 4034 §3.1.1: its first two octets). */
export function coveredType (rrsig: Uint8Array): number {
  return (rrsig[0]! << 8) | rrsig[1]!
}

/** The original TTL of an RRSIG rdata: the TTL of the rrset it covers (RFC 4034 §3.1.4). */
export function rrsigOriginalTtl (rrsig: Uint8Array): number {
  return new DataView(rrsig.buffer, rrsig.byteOffset, rrsig.byteLength).getUint32(4)
}

/** The signature expiration of an RRSIG rdata, seconds since the epoch (RFC 4034 §3.1.5; read as the next time after `now`'s era, serial arithmetic aside). */
export function rrsigExpiration (rrsig: Uint8Array): number {
  return new DataView(rrsig.buffer, rrsig.byteOffset, rrsig.byteLength).getUint32(8)
}

/** The TTL of a zone's denial records (RFC 9077 §3.2): the lesser of the SOA's TTL and its MINIMUM. */
export function denialTtl (soa: Pick<StoredRrset, 'ttl' | 'rdata'>): number {
  const first = soa.rdata[0]
  return first === undefined ? soa.ttl : Math.min(soa.ttl, readSoa(first).minimum)
}

/** The key of an rrset in maps of changes: owner key and type. */
export function rrsetKey (ownerKey: string, type: number): string {
  return `${ownerKey}/${type}`
}

/**
 * Records grouped into stored rrsets, one per owner and type (any order in). The RRSIG rrset of
 * an owner holds every signature there; its TTL is the lowest of theirs (RFC 4034 §3 wants each
 * signature's TTL to be its rrset's; one rrset has one TTL, and the lowest is never cached too long).
 */
export function groupRrsets (records: readonly ZoneRecord[]): Map<string, StoredRrset> {
  const out = new Map<string, StoredRrset>()
  const keys = new Map<Uint8Array, { ownerKey: string, ownerName: string }>()
  for (const r of records) {
    let names = keys.get(r.owner)
    if (names === undefined) {
      names = { ownerKey: canonicalSortKey(r.owner), ownerName: nameToString(r.owner) }
      keys.set(r.owner, names)
    }
    const key = rrsetKey(names.ownerKey, r.type)
    let set = out.get(key)
    if (set === undefined) {
      set = { ownerKey: names.ownerKey, ownerName: names.ownerName, type: r.type, ttl: r.ttl, rdata: [], rdataText: [], profile: null }
      out.set(key, set)
    }
    if (r.ttl < set.ttl) set.ttl = r.ttl
    set.rdata.push(r.rdata)
    set.rdataText.push(rdataToRecordText(r.type, r.rdata))
  }
  return out
}

/** An rrset made of rdata (text derived), at a stored owner. */
export function rrsetOf (owner: Pick<StoredRrset, 'ownerKey' | 'ownerName'>, type: number, ttl: number, rdata: Uint8Array[]): StoredRrset {
  return { ownerKey: owner.ownerKey, ownerName: owner.ownerName, type, ttl, rdata, rdataText: rdata.map(d => rdataToRecordText(type, d)), profile: null }
}

/** Whether two rrsets hold the same TTL and the same rdata (as sets). */
export function sameRrset (a: StoredRrset | undefined, b: StoredRrset | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  if (a.ttl !== b.ttl || a.rdata.length !== b.rdata.length) return false
  const key = (d: Uint8Array): string => Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('latin1')
  const had = new Set(a.rdata.map(key))
  return b.rdata.every(d => had.has(key(d)))
}
