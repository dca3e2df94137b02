import { isSubdomain, nameEquals, parentName, wireKey, type WireName } from '../../zone/name.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { WireRecord } from '../wire/message.ts'
import type { ZoneData, ZoneNode } from '../index/zone-data.ts'
import { hashedOwner, readNsec3Params, type Nsec3Params } from './nsec3-hash.ts'
import type { LookupState, WildcardUse } from './lookup.ts'

/**
 * The DNSSEC records of an answer to a query with DO set (RFC 4035 §3.1), from a zone signed
 * ahead of time: its RRSIGs, NSEC or NSEC3 records are ordinary rrsets of the zone (one RRSIG
 * rrset per owner holding every signature there). Nothing is signed here; records are chosen.
 */

/** How a signed zone denies names: NSEC (RFC 4034 §4) or NSEC3 (RFC 5155) with its hash parameters. */
export type Denial = { kind: 'nsec' } | { kind: 'nsec3', params: Nsec3Params }

/**
 * Whether `zone` is signed, and how it denies: a DNSKEY rrset and RRSIGs at the apex, and
 * NSEC3PARAM there (NSEC3) or not (NSEC). Undefined for an unsigned zone (answered as without DO).
 */
export function denialOf (zone: ZoneData): Denial | undefined {
  const apex = zone.apex
  if (apex === undefined || !apex.rrsets.has(RRType.DNSKEY) || !apex.rrsets.has(RRType.RRSIG)) return undefined
  const param = apex.rrsets.get(RRType.NSEC3PARAM)
  // RFC 5155 §4: the NSEC3PARAM says which NSEC3 chain answers; the first one given is used.
  if (param !== undefined && param.rdata.length > 0) return { kind: 'nsec3', params: readNsec3Params(param.rdata[0]!) }
  return { kind: 'nsec' }
}

/** The type an RRSIG rdata covers (RFC 4034 §3.1.1). */
const covered = (rdata: Uint8Array): number => (rdata[0]! << 8) | rdata[1]!

/**
 * The RRSIGs at `node` covering `type`, owned by `owner` (a wildcard's: the name asked, the labels
 * field unchanged, RFC 4035 §3.1.3.3) with the TTL of the rrset they sign (RFC 4034 §3: the
 * RRSIG's TTL is its rrset's; the zone's RRSIG rrset holds one TTL for all its signatures).
 */
export function signaturesOf (node: ZoneNode | undefined, type: number, owner: WireName, ttl: number): WireRecord[] {
  const sigs = node?.rrsets.get(RRType.RRSIG)
  if (sigs === undefined) return []
  const out: WireRecord[] = []
  for (const rdata of sigs.rdata) if (covered(rdata) === type) out.push({ name: owner, type: RRType.RRSIG, class: 1, ttl, rdata })
  return out
}

/**
 * The answer section with DO: each rrset followed by its RRSIGs (RFC 4035 §3.1.1), found at the
 * node it came from — a wildcard's for a synthesized rrset. A CNAME synthesized from a DNAME is
 * not signed (RFC 6672 §5.3.1: the DNAME's signature proves it); RRSIGs are not signed.
 */
export function signedAnswer (zone: ZoneData, answer: readonly WireRecord[], wildcards: readonly WildcardUse[] | undefined): WireRecord[] {
  const out: WireRecord[] = []
  let i = 0
  while (i < answer.length) {
    const first = answer[i]!
    let j = i + 1
    while (j < answer.length && answer[j]!.type === first.type && nameEquals(answer[j]!.name, first.name)) j++
    for (let k = i; k < j; k++) out.push(answer[k]!)
    const synthesized = first.type === RRType.CNAME && i > 0 && answer[i - 1]!.type === RRType.DNAME
    if (!synthesized && first.type !== RRType.RRSIG) {
      const wild = wildcards?.find(w => w.name === first.name || nameEquals(w.name, first.name))
      out.push(...signaturesOf(wild?.source ?? zone.node(first.name), first.type, first.name, first.ttl))
    }
    i = j
  }
  return out
}

/** The next closer name (RFC 5155 §1.3): the ancestor of `name` (or itself) one label longer than `encloser`. */
function nextCloser (name: WireName, encloser: WireName): WireName {
  let at = 0
  let next = name
  while (name.length - at > encloser.length) {
    next = name.subarray(at)
    at += name[at]! + 1
  }
  return next
}

/** `*.` in front of `name` (RFC 4592 §2.1.1: the wildcard at a closest encloser). */
function wildcardAt (name: WireName): WireName {
  const out = new Uint8Array(2 + name.length)
  out[0] = 1
  out[1] = 0x2a
  out.set(name, 2)
  return out
}

/**
 * The NSEC or NSEC3 records a response needs (RFC 4035 §3.1.3, RFC 5155 §7.2), each with its
 * RRSIGs, gathered once each in the order asked for.
 */
export class DenialProof {
  private readonly zone: ZoneData
  private readonly denial: Denial
  private readonly type: number
  private readonly keys = new Set<string>()
  readonly records: WireRecord[] = []

  constructor (zone: ZoneData, denial: Denial) {
    this.zone = zone
    this.denial = denial
    this.type = denial.kind === 'nsec' ? RRType.NSEC : RRType.NSEC3
  }

  /** Add the NSEC or NSEC3 rrset at the owner `key` (a wire key) and its RRSIGs, once. */
  private add (key: string): void {
    if (this.keys.has(key)) return
    this.keys.add(key)
    const node = this.zone.nodeByKey(key)
    const rrset = node?.rrsets.get(this.type)
    if (node === undefined || rrset === undefined) return
    for (const rdata of rrset.rdata) this.records.push({ name: node.owner, type: this.type, class: 1, ttl: rrset.ttl, rdata })
    this.records.push(...signaturesOf(node, this.type, node.owner, rrset.ttl))
  }

  /** The owner (wire key) of the NSEC that matches or covers `name`, and whether it matches. */
  private nsec (name: WireName): { key: string, exact: boolean } | undefined {
    return this.zone.canonicalOwners(RRType.NSEC).atOrBefore(name)
  }

  /** The NSEC3 whose hash matches or covers `name`'s. */
  private nsec3 (name: WireName): { key: string, exact: boolean } | undefined {
    // Only SHA-1 is defined (RFC 5155 §11); a chain hashed otherwise cannot be searched here.
    if (this.denial.kind !== 'nsec3' || this.denial.params.algorithm !== 1) return undefined
    return this.zone.canonicalOwners(RRType.NSEC3).atOrBefore(hashedOwner(name, this.zone.origin, this.denial.params))
  }

  /** The record proving `name` does not exist: the NSEC covering it, or the NSEC3 covering its next closer name. */
  nameMissing (name: WireName, encloser: WireName): void {
    if (this.denial.kind === 'nsec') {
      const at = this.nsec(name)
      if (at !== undefined) this.add(at.key)
      return
    }
    // RFC 5155 §7.2.6: a wildcard answer proves the next closer name does not exist.
    const at = this.nsec3(nextCloser(name, encloser))
    if (at !== undefined) this.add(at.key)
  }

  /**
   * The record at `name` (NODATA, RFC 4035 §3.1.3.1, RFC 5155 §7.2.3): its NSEC — for an empty
   * non-terminal, which has none, the NSEC covering it — or its NSEC3; without one (an Opt-Out
   * delegation, RFC 5155 §7.2.4), the closest provable encloser proof.
   */
  nameHere (name: WireName): void {
    if (this.denial.kind === 'nsec') {
      const at = this.nsec(name)
      if (at !== undefined) this.add(at.key)
      return
    }
    const at = this.nsec3(name)
    if (at?.exact === true) this.add(at.key)
    else this.closestEncloser(name)
  }

  /**
   * The closest (provable) encloser proof for `name` (RFC 5155 §7.2.1): the NSEC3 matching the
   * nearest ancestor that has one and the NSEC3 covering the next closer name. Returns that
   * encloser (the zone's apex when none matches).
   */
  closestEncloser (name: WireName): WireName {
    let below = name
    while (below.length > this.zone.origin.length) {
      const up = parentName(below)
      const at = this.nsec3(up)
      if (at === undefined) break
      if (at.exact) {
        this.add(at.key)
        const cover = this.nsec3(below)
        if (cover !== undefined) this.add(cover.key)
        return up
      }
      below = up
    }
    return this.zone.origin
  }

  /**
   * NXDOMAIN (RFC 4035 §3.1.3.2, RFC 5155 §7.2.2): the NSEC covering the name and the one
   * covering the wildcard at its closest encloser; with NSEC3 the closest encloser proof and the
   * NSEC3 covering that wildcard.
   */
  nxdomain (name: WireName): void {
    if (this.denial.kind === 'nsec') {
      const encloser = this.encloser(name)
      this.nameMissing(name, encloser)
      const wild = this.nsec(wildcardAt(encloser))
      if (wild !== undefined) this.add(wild.key)
      return
    }
    const encloser = this.closestEncloser(name)
    const wild = this.nsec3(wildcardAt(encloser))
    if (wild !== undefined) this.add(wild.key)
  }

  /**
   * NODATA from a wildcard (RFC 4035 §3.1.3.4, RFC 5155 §7.2.5): the name does not exist, and the
   * wildcard at its closest encloser has no such type: the NSEC covering the name and the
   * wildcard's NSEC; with NSEC3 the closest encloser proof and the NSEC3 matching the wildcard.
   * The same records are found as for {@link nxdomain}: where that wildcard's record covers it
   * there, here it matches it.
   */
  wildcardNodata (name: WireName): void {
    this.nxdomain(name)
  }

  /** The closest encloser of a name that does not exist: its nearest existing ancestor in the zone (RFC 4592 §3.3.1). */
  encloser (name: WireName): WireName {
    let up = parentName(name)
    while (up.length > this.zone.origin.length && !this.zone.existsByKey(wireKey(up))) up = parentName(up)
    return isSubdomain(up, this.zone.origin) ? up : this.zone.origin
  }
}

/** A lookup state that answers from a zone. */
type ZoneState = Extract<LookupState, { zone: ZoneData }>

/**
 * The authority records a DO answer from a signed zone adds (RFC 4035 §3.1.3, §3.1.4; RFC 5155
 * §7.2): for each wildcard that answered, the proof that the name asked does not exist; for
 * NXDOMAIN and NODATA the denial of the last name of the chain (a wildcard NODATA's when that
 * name does not exist); for a referral the DS rrset and its RRSIGs, or the proof that the
 * delegation has none (RFC 4035 §3.1.4.1, RFC 5155 §7.2.7). The SOA's RRSIG is the caller's.
 */
export function authorityProofs (state: ZoneState, denial: Denial): WireRecord[] {
  const zone = state.zone
  const proof = new DenialProof(zone, denial)
  for (const w of state.wildcards ?? []) proof.nameMissing(w.name, parentName(w.source.owner))
  const name = state.qname
  switch (state.kind) {
    case 'nxdomain':
      if (name !== undefined) proof.nxdomain(name)
      return proof.records
    case 'nodata':
      if (name === undefined) return proof.records
      if (zone.exists(name)) proof.nameHere(name)
      else proof.wildcardNodata(name)
      return proof.records
    case 'delegation': {
      const cut = state.cut
      const ds = cut.rrsets.get(RRType.DS)
      if (ds === undefined) {
        proof.nameHere(cut.owner)
        return proof.records
      }
      const out: WireRecord[] = ds.rdata.map(rdata => ({ name: cut.owner, type: RRType.DS, class: 1, ttl: ds.ttl, rdata }))
      out.push(...signaturesOf(cut, RRType.DS, cut.owner, ds.ttl), ...proof.records)
      return out
    }
    case 'hit':
    case 'yxdomain':
      return proof.records
    default: {
      const never: never = state
      throw new Error(`unhandled lookup state ${JSON.stringify(never)}`)
    }
  }
}
