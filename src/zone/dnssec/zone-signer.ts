import { nameEquals, wireKey, type WireName } from '../name.ts'
import type { ZoneRecord } from '../record.ts'
import { RRType } from '../rrtype.ts'
import { denialChainOf, type DenialPolicy } from './denial.ts'
import { DnssecError } from './errors.ts'
import { dnskeyRdata, type ZoneKey } from './keys.ts'
import { signRrset, type SignatureWindow } from './sign.ts'
import { DNSSEC_TYPES, zoneNames } from './zone-cuts.ts'

/**
 * Signing a whole zone (RFC 4035 §2): the DNSKEY rrset, the denial chain and an RRSIG by each
 * zone-signing key over every authoritative rrset, computed from the zone's records alone so the
 * result can be stored beside them and served, transferred and journalled like any rrset.
 */

/** The keys of a zone: KSKs sign the DNSKEY rrset, ZSKs everything else. */
export interface SigningKeys {
  ksk: ZoneKey[]
  zsk: ZoneKey[]
  /** In the DNSKEY rrset, signing nothing (pre-publish before a rollover, RFC 7583 §3.2). */
  publishedOnly?: ZoneKey[]
}

/** How a zone is signed. Times are in seconds. */
export interface SigningPolicy {
  denial: DenialPolicy
  dnskeyTtl: number
  /** From inception offset aside: how long after `now` signatures expire, before jitter. */
  validitySeconds: number
  /** Expirations are brought forward by up to this much, per owner and type, so re-signing spreads out. */
  jitterSeconds: number
  /** Inception is this long before `now`, for validators whose clocks run behind. */
  inceptionOffsetSeconds: number
}

/** The rdata of a zone's DNSKEY rrset: every key once (signing or only published), in the order given. */
export function dnskeyRdatas (keys: SigningKeys): Uint8Array[] {
  const dnskeys = new Map<string, Uint8Array>()
  for (const k of [...keys.ksk, ...keys.zsk, ...(keys.publishedOnly ?? [])]) {
    const rdata = dnskeyRdata(k)
    dnskeys.set(Buffer.from(rdata).toString('latin1'), rdata)
  }
  return [...dnskeys.values()]
}

/** FNV-1a over the owner's lower-case wire form and the type: a stable spread of jitter. */
function spread (owner: WireName, type: number): number {
  let h = 0x811c9dc5
  const key = wireKey(owner)
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  h = Math.imul(h ^ (type >> 8), 0x01000193)
  h = Math.imul(h ^ (type & 0xff), 0x01000193)
  return h >>> 0
}

/**
 * The signature window for `now` under `policy`, jittered per owner and type (stable for the same
 * inputs): inception `now - inceptionOffsetSeconds`, expiration `now + validitySeconds` less a
 * jitter from 0 to `jitterSeconds` that depends on the owner (case ignored) and the type only.
 */
export function signatureWindow (policy: SigningPolicy, now: number, owner: WireName, type: number): SignatureWindow {
  const jitter = policy.jitterSeconds > 0 ? spread(owner, type) % (policy.jitterSeconds + 1) : 0
  return { inception: now - policy.inceptionOffsetSeconds, expiration: now + policy.validitySeconds - jitter }
}

function checkPolicy (policy: SigningPolicy, keys: SigningKeys): void {
  const { validitySeconds, jitterSeconds, inceptionOffsetSeconds, dnskeyTtl } = policy
  const counts = [validitySeconds, jitterSeconds, inceptionOffsetSeconds, dnskeyTtl]
  if (counts.some(v => !Number.isInteger(v) || v < 0)) throw new DnssecError('DNSSEC_BAD_POLICY', 'policy times must be whole numbers of seconds, 0 or more')
  if (jitterSeconds >= validitySeconds) throw new DnssecError('DNSSEC_BAD_POLICY', `jitter (${jitterSeconds} s) must be less than the validity (${validitySeconds} s)`)
  if (keys.ksk.length === 0 || keys.zsk.length === 0) throw new DnssecError('DNSSEC_BAD_POLICY', 'a signed zone needs at least one KSK and one ZSK (the same key may be both)')
}

interface Rrset { owner: WireName, type: number, ttl: number, rdatas: Uint8Array[] }

/**
 * The DNSSEC records to serve beside `records` (which hold no DNSKEY/RRSIG/NSEC/NSEC3/NSEC3PARAM):
 * the DNSKEY rrset (signed by every KSK), NSEC3PARAM, the denial chain, and an RRSIG by every ZSK
 * over every authoritative rrset (not over delegation NS or glue; DS at a delegation is signed).
 * Each RRSIG rrset is one ZoneRecord per signature.
 *
 * @remarks Records of the DNSSEC types in `records` are ignored (they are what this makes).
 * RRSIGs have the TTL of the rrset they cover (RFC 4034 §3), the lowest of its records when they
 * differ; the denial records the lesser of the SOA's TTL and MINIMUM (RFC 9077 §3.2). Records
 * outside the zone are neither signed nor chained.
 *
 * @param origin - the zone apex
 * @param now - seconds since the epoch
 * @throws DnssecError DNSSEC_NO_SOA without an SOA at the apex; DNSSEC_BAD_POLICY for a policy
 * that cannot be followed or no KSK or ZSK; DNSSEC_UNSUPPORTED_ALGORITHM for a key of another algorithm
 */
export function signZone (origin: WireName, records: readonly ZoneRecord[], keys: SigningKeys, policy: SigningPolicy, now: number): ZoneRecord[] {
  checkPolicy(policy, keys)
  const rrsets = new Map<string, Rrset>()
  const types = new Map<string, { owner: WireName, types: number[] }>()
  let soa: ZoneRecord | undefined
  for (const r of records) {
    if (DNSSEC_TYPES.has(r.type)) continue
    const ownerKey = wireKey(r.owner)
    const key = ownerKey + '\u0000' + String(r.type)
    const set = rrsets.get(key)
    if (set === undefined) {
      rrsets.set(key, { owner: r.owner, type: r.type, ttl: r.ttl, rdatas: [r.rdata] })
      const t = types.get(ownerKey)
      if (t === undefined) types.set(ownerKey, { owner: r.owner, types: [r.type] })
      else t.types.push(r.type)
    } else {
      set.rdatas.push(r.rdata)
      if (r.ttl < set.ttl) set.ttl = r.ttl
    }
    if (r.type === RRType.SOA && soa === undefined && nameEquals(r.owner, origin)) soa = r
  }
  if (soa === undefined) throw new DnssecError('DNSSEC_NO_SOA', 'the zone has no SOA at its apex')
  // RFC 9077 §3.2 (RFC 4034 §4, RFC 5155 §3 as updated): denial TTL = min(SOA TTL, SOA MINIMUM).
  const soaMinimum = new DataView(soa.rdata.buffer, soa.rdata.byteOffset, soa.rdata.byteLength).getUint32(soa.rdata.byteLength - 4)
  const denialTtl = Math.min(soa.ttl, soaMinimum)

  const out: ZoneRecord[] = []
  const signWith = (set: Rrset, signers: readonly ZoneKey[]): void => {
    const window = signatureWindow(policy, now, set.owner, set.type)
    for (const key of signers) {
      out.push({ owner: set.owner, type: RRType.RRSIG, ttl: set.ttl, rdata: signRrset(origin, set.owner, set.type, set.ttl, set.rdatas, key, window) })
    }
  }

  // The DNSKEY rrset: every key once, signed by the KSKs (RFC 4035 §2.1, RFC 6781 §3.1).
  const dnskeySet: Rrset = { owner: origin, type: RRType.DNSKEY, ttl: policy.dnskeyTtl, rdatas: dnskeyRdatas(keys) }
  for (const rdata of dnskeySet.rdatas) out.push({ owner: origin, type: RRType.DNSKEY, ttl: policy.dnskeyTtl, rdata })
  signWith(dnskeySet, keys.ksk)

  // RFC 4035 §2.2: every authoritative rrset; at a delegation only DS; nothing below a cut.
  const zone = zoneNames(origin, [...types.values()])
  for (const name of zone) {
    if (name.role === 'occluded') continue
    const ownerKey = wireKey(name.owner)
    for (const type of name.types) {
      if (name.role === 'delegation' && type !== RRType.DS) continue
      signWith(rrsets.get(ownerKey + '\u0000' + String(type))!, keys.zsk)
    }
  }

  // The denial chain and NSEC3PARAM, each record its own rrset (owners are distinct).
  for (const r of denialChainOf(origin, zone, policy.denial, denialTtl)) {
    out.push(r)
    signWith({ owner: r.owner, type: r.type, ttl: r.ttl, rdatas: [r.rdata] }, keys.zsk)
  }
  return out
}
