import { isSubdomain, parentName, wireKey, type WireName } from '../../zone/name.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { WireRecord } from '../wire/message.ts'
import { nextStart } from './rotation.ts'
import { poolRecords, type Asker } from './pools.ts'
import type { ZoneData, ZoneNode, ServedRrset } from '../index/zone-data.ts'
import type { ZoneIndex } from '../index/zone-index.ts'

/**
 * The outcome of looking a question up (STYLE.md §4.1: answers are states, not exceptions).
 * `answer` carries what was collected on the way (CNAME and DNAME steps) in every state.
 */
export type LookupState =
  | { kind: 'refused' }
  | { kind: 'hit', zone: ZoneData, answer: WireRecord[], varies?: boolean } & Trace
  /** `varies`: a pool's answer for this client only (a directional pool's no-response group). */
  | { kind: 'nodata', zone: ZoneData, answer: WireRecord[], varies?: boolean } & Trace
  | { kind: 'nxdomain', zone: ZoneData, answer: WireRecord[], varies?: boolean } & Trace
  /** RFC 6672 §2.2: the DNAME substitution would make a name longer than 255 octets. */
  | { kind: 'yxdomain', zone: ZoneData, answer: WireRecord[], varies?: boolean } & Trace
  | { kind: 'delegation', zone: ZoneData, cut: ZoneNode, answer: WireRecord[], varies?: boolean } & Trace
  | { kind: 'servfail', reason: string }

/**
 * A wildcard used on the way (RFC 4592 §3.3.1): the name asked at that step, which owns the
 * synthesized records, and the wildcard node they came from (its RRSIGs sign them, RFC 4035
 * §3.1.3.3).
 */
export interface WildcardUse {
  name: WireName
  source: ZoneNode
}

/** What the DNSSEC part of a response needs to know of the walk (`dnssec-answer.ts`). */
export interface Trace {
  /** The name the walk ended at (after CNAME and DNAME steps): what a denial is about. */
  qname?: WireName
  /** Wildcards that answered (or matched without the type: a wildcard NODATA), in order. */
  wildcards?: WildcardUse[]
}

/** Longest CNAME/DNAME chain followed (RFC 1034 §3.6.2 leaves it to the server; BIND uses 16). */
const MAX_CHAIN = 16

export function rrsetRecords (owner: WireName, type: number, rrset: ServedRrset): WireRecord[] {
  return orderedRdata(owner, type, rrset).map(r => ({ name: owner, type, class: 1, ttl: rrset.ttl, rdata: r }))
}

/**
 * The RRSIGs at a node asked for by type (RRSIG questions get what is there, as BIND answers
 * them), each with the TTL of the rrset it covers (RFC 4034 §3: an RRSIG's TTL is its rrset's;
 * the zone keeps one TTL for all the signatures at an owner).
 */
function signatureRecords (owner: WireName, node: ZoneNode, rrset: ServedRrset): WireRecord[] {
  return rrset.rdata.map(rdata => ({ name: owner, type: RRType.RRSIG, class: 1, ttl: node.rrsets.get((rdata[0]! << 8) | rdata[1]!)?.ttl ?? rrset.ttl, rdata }))
}

/** Whether a node holds an NSEC3 rrset and nothing else but its RRSIGs (an NSEC3 owner name, RFC 5155 §3). */
function nsec3Only (node: ZoneNode): boolean {
  if (!node.rrsets.has(RRType.NSEC3)) return false
  for (const type of node.rrsets.keys()) if (type !== RRType.NSEC3 && type !== RRType.RRSIG) return false
  return true
}

/** Whether the records of an rrset come out in a different order from answer to answer. */
export function varies (rrset: ServedRrset): boolean {
  return rrset.rdata.length > 1 && (rrset.order === 'RANDOM' || rrset.order === 'ROUND_ROBIN')
}

/**
 * The rdata in the order its pool asks for (RD pools): FIXED as stored, RANDOM shuffled for
 * every answer, ROUND_ROBIN rotated by one for every answer (by every thread that answers:
 * `rotation.ts`); plain rrsets as stored.
 */
function orderedRdata (owner: WireName, type: number, rrset: ServedRrset): Uint8Array[] {
  if (!varies(rrset)) return rrset.rdata
  const n = rrset.rdata.length
  if (rrset.order === 'ROUND_ROBIN') {
    const start = nextStart(owner, type, rrset)
    return [...rrset.rdata.slice(start), ...rrset.rdata.slice(0, start)]
  }
  const out = [...rrset.rdata]
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    const t = out[i]!
    out[i] = out[j]!
    out[j] = t
  }
  return out
}

/**
 * Where each name from `name` up to but not including `origin` starts in `name`, top-most
 * first (the key of each is the same suffix of the name's key: no key is built per label).
 */
function ancestorOffsets (name: WireName, origin: WireName): number[] {
  const out: number[] = []
  let at = 0
  while (name.length - at > origin.length) {
    out.push(at)
    at += name[at]! + 1
  }
  return out.reverse()
}

/** `name` with its suffix `from` replaced by `to` (DNAME substitution, RFC 6672 §2.2); undefined when too long. */
function substitute (name: WireName, from: WireName, to: WireName): WireName | undefined {
  const prefixLength = name.length - from.length
  if (prefixLength + to.length > 255) return undefined
  const out = new Uint8Array(prefixLength + to.length)
  out.set(name.subarray(0, prefixLength))
  out.set(to, prefixLength)
  return out
}

/**
 * Look up (qname, qtype) in the zones of `index` (RFC 1034 §4.3.2, with RFC 4592 wildcards,
 * RFC 6672 DNAME and RFC 8482 minimal ANY): zone by longest match, delegations below the apex,
 * exact matches, CNAME chains inside the zone, empty non-terminals, wildcard synthesis at the
 * closest encloser. A traffic pool's rrset answers what its health decides, a directional pool's
 * what the `asker`'s place decides (`pools.ts`); such states say whether they `vary`.
 */
export function lookup (index: ZoneIndex, qname: WireName, qtype: number, asker?: Asker): LookupState {
  const trail: Trail = { varies: false, name: qname, wildcards: undefined }
  const state = walk(index, qname, qtype, asker, trail)
  if (state.kind === 'refused' || state.kind === 'servfail') return state
  // A chain through a directional CNAME pool is this client's: every state after it varies.
  if (trail.varies) state.varies = true
  state.qname = trail.name
  if (trail.wildcards !== undefined) state.wildcards = trail.wildcards
  return state
}

/** What the walk notes on its way besides the answer. */
interface Trail {
  /** A link of the chain was a pool's choice for this client. */
  varies: boolean
  /** The name being looked up now. */
  name: WireName
  wildcards: WildcardUse[] | undefined
}

/**
 * {@link lookup}'s walk; `trail.varies` is set when a link of the chain was a pool's choice.
 * `asker`: who asks (directional pools answer by the client's place).
 */
function walk (index: ZoneIndex, qname: WireName, qtype: number, asker: Asker | undefined, trail: Trail): LookupState {
  const answer: WireRecord[] = []
  const seen = new Set<string>()
  let name = qname
  let zone = index.find(name)
  if (zone === undefined) return { kind: 'refused' }
  // RFC 4035 §3.1.4.1: DS at a zone's apex is its parent's data, answered from the parent zone
  // when this server holds it too (as BIND does).
  if (qtype === RRType.DS && zone.origin.length === name.length && name.length > 1) zone = index.find(parentName(name)) ?? zone
  // A zone without its SOA has no data yet (a secondary never transferred): SERVFAIL, as BIND.
  if (zone.apex?.rrsets.has(RRType.SOA) !== true) return { kind: 'servfail', reason: 'zone not loaded' }
  if (zone.expired) return { kind: 'servfail', reason: 'zone expired' }
  for (let step = 0; step <= MAX_CHAIN; step++) {
    trail.name = name
    const key = wireKey(name)
    if (seen.has(key)) return { kind: 'servfail', reason: 'CNAME loop' }
    seen.add(key)

    // Delegations and DNAMEs above the name (RFC 1034 §4.3.2 step 3b; RFC 6672 §3.2).
    let redirected = false
    for (const at of ancestorOffsets(name, zone.origin)) {
      const node = zone.nodeByKey(at === 0 ? key : key.slice(at))
      if (node === undefined) continue
      const exact = at === 0
      // DS belongs to the parent side of a cut (RFC 4035 §3.1.4.1), and so does the parent's
      // NSEC there (RFC 4035 §2.3; asked for, BIND answers it).
      if (node.rrsets.has(RRType.NS) && !(exact && (qtype === RRType.DS || (qtype === RRType.NSEC && node.rrsets.has(RRType.NSEC))))) return { kind: 'delegation', zone, cut: node, answer }
      const dname = node.rrsets.get(RRType.DNAME)
      if (dname !== undefined && !exact) {
        const target = dname.rdata[0]!
        answer.push(...rrsetRecords(node.owner, RRType.DNAME, dname))
        const next = substitute(name, name.subarray(at), target)
        // RFC 6672 §2.2: YXDOMAIN, with the DNAME in the answer as its proof.
        if (next === undefined) return { kind: 'yxdomain', zone, answer }
        answer.push({ name, type: RRType.CNAME, class: 1, ttl: dname.ttl, rdata: next })
        // The synthesized CNAME is itself the answer to a CNAME or ANY question (RFC 1034 §4.3.2 step 3a).
        if (qtype === RRType.CNAME || qtype === RRType.ANY) return { kind: 'hit', zone, answer }
        const nextZone = index.find(next)
        if (nextZone !== zone || nextZone === undefined) return { kind: 'hit', zone, answer }
        name = next
        redirected = true
        break
      }
    }
    if (redirected) continue

    let node = zone.nodeByKey(key)
    // RFC 5155 §7.2.8: an NSEC3 owner name (nothing else there) is not a name of the zone.
    const hashed = node !== undefined && nsec3Only(node)
    if (hashed) node = undefined
    // An exact match is answered under the owner as the zone spells it, as BIND does (RFC 4343
    // §4.1: the data's case is preserved); a wildcard's synthesized owner under the name asked.
    let owner = node === undefined ? name : node.owner
    if (node === undefined) {
      if (!hashed && zone.existsByKey(key)) return { kind: 'nodata', zone, answer }
      // RFC 4592 §3.3.1: the source of synthesis is `*` at the closest encloser.
      let at = name[0]! + 1
      while (name.length - at > zone.origin.length && !zone.existsByKey(key.slice(at))) at += name[at]! + 1
      const source = '\x01*' + key.slice(at)
      const wild = zone.nodeByKey(source)
      // RFC 4592 §2.2.2, §3.3.1: a wildcard that is an empty non-terminal still matches, with no data.
      if (wild === undefined) return zone.existsByKey(source) ? { kind: 'nodata', zone, answer } : { kind: 'nxdomain', zone, answer }
      node = wild
      owner = name
      if (trail.wildcards === undefined) trail.wildcards = []
      trail.wildcards.push({ name, source: wild })
    }

    const wanted = node.rrsets.get(qtype)
    if (wanted !== undefined) {
      // A traffic pool answers as its health and the client decide (none in most zones).
      const pool = zone.poolOf(node.owner, qtype)
      if (pool !== undefined) {
        const got = poolRecords(pool, owner, qtype, wanted.ttl, asker)
        answer.push(...got.records)
        return got.records.length === 0 ? { kind: 'nodata', zone, answer, varies: got.varies } : { kind: 'hit', zone, answer, varies: got.varies }
      }
      answer.push(...(qtype === RRType.RRSIG ? signatureRecords(owner, node, wanted) : rrsetRecords(owner, qtype, wanted)))
      return { kind: 'hit', zone, answer, varies: varies(wanted) }
    }
    // RFC 1034 §4.3.2 step 3a: follow a CNAME unless the question's type matches it (CNAME, ANY).
    // NSEC (RFC 4035 §2.5) and KEY (RFC 2535 §2.3.5) live beside a CNAME and are not subject to it, as in BIND.
    const cname = node.rrsets.get(RRType.CNAME)
    if (cname !== undefined && qtype !== RRType.CNAME && qtype !== RRType.ANY && qtype !== RRType.NSEC && qtype !== RRType.KEY) {
      // A directional CNAME pool: the client's record is the link followed.
      const pool = zone.poolOf(node.owner, RRType.CNAME)
      const links = pool === undefined ? rrsetRecords(owner, RRType.CNAME, cname) : poolRecords(pool, owner, RRType.CNAME, cname.ttl, asker).records
      if (links.length === 0) return { kind: 'nodata', zone, answer, varies: true }
      if (pool !== undefined) trail.varies = true
      answer.push(...(pool === undefined ? links : [links[0]!]))
      const target = links[0]!.rdata
      // Follow inside this zone only; an answer ending outside it is complete as it is. A CNAME
      // to itself is a loop like any other (SERVFAIL at the next step).
      if (!isSubdomain(target, zone.origin)) return { kind: 'hit', zone, answer }
      name = target
      continue
    }
    if (qtype === RRType.ANY && node.rrsets.size > 0) {
      // RFC 8482 §4.2: answer ANY with one rrset.
      const [type, rrset] = [...node.rrsets.entries()].sort((a, b) => a[0] - b[0])[0]!
      const pool = zone.poolOf(node.owner, type)
      if (pool !== undefined) {
        const got = poolRecords(pool, owner, type, rrset.ttl, asker)
        answer.push(...got.records)
        return got.records.length === 0 ? { kind: 'nodata', zone, answer, varies: got.varies } : { kind: 'hit', zone, answer, varies: got.varies }
      }
      answer.push(...rrsetRecords(owner, type, rrset))
      return { kind: 'hit', zone, answer, varies: varies(rrset) }
    }
    return { kind: 'nodata', zone, answer }
  }
  return { kind: 'servfail', reason: 'CNAME chain too long' }
}
