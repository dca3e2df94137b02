import { isSubdomain } from '../../zone/name.ts'
import { readSoa } from '../../zone/rdata/soa.ts'
import { Rcode } from '../wire/constants.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { Message, WireRecord } from '../wire/message.ts'
import { MessageWriter, Section, type CaseCheck } from '../wire/writer.ts'
import type { ZoneData } from '../index/zone-data.ts'
import { rrsetRecords, type LookupState } from './lookup.ts'
import type { Asker } from './pools.ts'
import { authorityProofs, denialOf, signaturesOf, signedAnswer, type Denial } from './dnssec-answer.ts'

/** Our EDNS UDP payload size (RFC 6891 §6.2.5; 1232 avoids fragmentation, DNS flag day 2020). */
export const OUR_UDP_SIZE = 1232

/** Address records of a target name inside the zone, for the additional section. */
function addresses (zone: ZoneData, target: Uint8Array): WireRecord[] {
  if (!isSubdomain(target, zone.origin)) return []
  const node = zone.node(target)
  if (node === undefined) return []
  const out: WireRecord[] = []
  for (const type of [RRType.A, RRType.AAAA]) {
    const rrset = node.rrsets.get(type)
    // A traffic pool's addresses depend on health and client: the resolver asks for them itself.
    if (rrset === undefined || zone.poolOf(node.owner, type) !== undefined) continue
    // Under the owner as the zone spells it, not as the pointing record does (BIND alike).
    out.push(...rrsetRecords(node.owner, type, rrset))
  }
  return out
}

/** The name an MX, NS or SRV record points at (RFC 1035 §3.3.9, §3.3.11; RFC 2782). */
function targetOf (r: WireRecord): Uint8Array | undefined {
  if (r.type === RRType.NS) return r.rdata
  if (r.type === RRType.MX) return r.rdata.subarray(2)
  if (r.type === RRType.SRV) return r.rdata.subarray(6)
  return undefined
}

/** RFC 2308 §3: negative answers carry the SOA, its TTL the lesser of its TTL and its minimum. */
function negativeSoa (zone: ZoneData): WireRecord | undefined {
  const apex = zone.apex
  const soa = apex?.rrsets.get(RRType.SOA)
  if (apex === undefined || soa === undefined) return undefined
  const rdata = soa.rdata[0]!
  // The apex as the zone spells its SOA's owner.
  return { name: apex.owner, type: RRType.SOA, class: 1, ttl: Math.min(soa.ttl, readSoa(rdata).minimum), rdata }
}

export interface ResponseOptions {
  /** Largest response: the client's EDNS size (or 512) over UDP, 65535 over TCP. */
  maxSize: number
  /** Given, filled with the ways the response depends on the case of the question name (the reply cache's). */
  caseChecks?: CaseCheck[]
  /** Who asked: a directional answer chosen by its Client Subnet carries the option back. */
  asker?: Asker
}

/** EDNS option code of the Client Subnet option (RFC 7871 §6). */
const EDNS_CLIENT_SUBNET = 8

/**
 * RFC 7871 §7.2.1: an answer tailored to the Client Subnet carries the option back, FAMILY,
 * SOURCE PREFIX-LENGTH and ADDRESS as asked, SCOPE PREFIX-LENGTH set.
 */
function ecsReply (asker: Asker | undefined): { code: number, data: Uint8Array }[] {
  if (asker?.ecsScope === undefined || asker.ecs === undefined) return []
  const data = asker.ecs.slice()
  data[3] = asker.ecsScope
  return [{ code: EDNS_CLIENT_SUBNET, data }]
}

/**
 * Turn a lookup state into a response (STYLE.md §8.2: one exhaustive switch): rcode, AA and the
 * sections. Minimal responses: NS in authority only for referrals, the SOA only in negative
 * answers. A response that does not fit is truncated (TC) when the answer or authority section
 * is cut; additional records are simply left out (RFC 2181 §9).
 */
export function respond (query: Message, state: LookupState, opts: ResponseOptions): Uint8Array {
  const q = query.questions[0]!
  // RFC 4035 §3.1: DNSSEC records only when the query has DO set, and the zone is signed.
  const denial: Denial | undefined = query.edns?.dnssecOk === true && 'zone' in state ? denialOf(state.zone) : undefined
  const w = new MessageWriter(opts.maxSize, opts.caseChecks)
  let rcode: number = Rcode.NOERROR
  let aa = true
  const answer: WireRecord[] = []
  const authority: WireRecord[] = []
  const additional: WireRecord[] = []
  switch (state.kind) {
    case 'refused':
      rcode = Rcode.REFUSED
      aa = false
      break
    case 'servfail':
      rcode = Rcode.SERVFAIL
      aa = false
      break
    case 'hit':
      answer.push(...(denial === undefined ? state.answer : signedAnswer(state.zone, state.answer, state.wildcards)))
      if (denial !== undefined) authority.push(...authorityProofs(state, denial))
      for (const r of state.answer) {
        const target = targetOf(r)
        if (target !== undefined) additional.push(...addresses(state.zone, target))
      }
      break
    case 'nodata':
    case 'nxdomain': {
      if (state.kind === 'nxdomain') rcode = Rcode.NXDOMAIN
      answer.push(...(denial === undefined ? state.answer : signedAnswer(state.zone, state.answer, state.wildcards)))
      const soa = negativeSoa(state.zone)
      if (soa !== undefined) authority.push(soa)
      // RFC 4035 §3.1.3: the SOA's RRSIG (its TTL bounded as the SOA's) and the denial.
      if (soa !== undefined && denial !== undefined) authority.push(...signaturesOf(state.zone.apex, RRType.SOA, soa.name, soa.ttl))
      if (denial !== undefined) authority.push(...authorityProofs(state, denial))
      break
    }
    case 'yxdomain':
      rcode = Rcode.YXDOMAIN
      answer.push(...(denial === undefined ? state.answer : signedAnswer(state.zone, state.answer, state.wildcards)))
      break
    case 'delegation': {
      // RFC 1034 §4.3.2 step 3b: a referral is not authoritative.
      aa = state.answer.length > 0
      answer.push(...(denial === undefined ? state.answer : signedAnswer(state.zone, state.answer, state.wildcards)))
      const ns = state.cut.rrsets.get(RRType.NS)!
      const nsRecords = rrsetRecords(state.cut.owner, RRType.NS, ns)
      // RFC 4035 §3.1.4: the NS rrset of a referral is not signed; DS and its RRSIGs, or the proof of no DS, follow it. Glue stays unsigned.
      authority.push(...nsRecords)
      if (denial !== undefined) authority.push(...authorityProofs(state, denial))
      for (const r of nsRecords) additional.push(...addresses(state.zone, r.rdata))
      break
    }
    default: {
      const never: never = state
      throw new Error(`unhandled lookup state ${JSON.stringify(never)}`)
    }
  }
  const edns = query.edns
  w.header({ id: query.id, qr: true, opcode: query.opcode, aa, tc: false, rd: query.rd, ra: false, ad: false, cd: query.cd, rcode: rcode & 0xf })
  w.question(q)
  let truncated = false
  for (const r of answer) if (!w.record(Section.Answer, r)) truncated = true
  if (!truncated) for (const r of authority) if (!w.record(Section.Authority, r)) truncated = true
  if (truncated) {
    w.truncated()
  } else {
    // Leave room for the OPT record before adding optional data.
    const reserve = edns !== undefined ? 11 : 0
    // RFC 4035 §3.1.1: a signed rrset in the additional section comes with its RRSIGs, as room
    // allows (no TC for them); glue has none.
    const extra = denial !== undefined && 'zone' in state ? signedAnswer(state.zone, additional, undefined) : additional
    for (const r of extra) {
      if (w.size + reserve >= opts.maxSize) break
      if (!w.record(Section.Additional, r)) break
    }
  }
  if (edns !== undefined) w.opt({ udpSize: OUR_UDP_SIZE, extendedRcode: rcode >> 4, version: 0, dnssecOk: edns.dnssecOk, options: ecsReply(opts.asker) })
  return w.finish()
}
