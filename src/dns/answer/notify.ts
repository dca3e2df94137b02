import { nameEquals } from '../../zone/name.ts'
import { WireError } from '../../zone/rdata/bytes.ts'
import { parseIpv4, parseIpv6 } from '../../zone/rdata/fields.ts'
import { readSoa } from '../../zone/rdata/soa.ts'
import type { ZoneData } from '../index/zone-data.ts'
import type { ZoneIndex } from '../index/zone-index.ts'
import { CLASS_ANY, CLASS_IN, Opcode, Rcode } from '../wire/constants.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { Message } from '../wire/message.ts'
import { MessageWriter } from '../wire/writer.ts'
import { OUR_UDP_SIZE } from './respond.ts'

/**
 * What a NOTIFY request (RFC 1996) comes to. The rcodes follow BIND 9.18 (`ns_notify_start`
 * and `dns_zone_notifyreceive`), checked against `named` itself:
 * - `accepted`: a secondary zone, from one of its primaries' addresses (the port is not
 *   compared, as BIND does not: a primary sends from any port) → NOERROR, AA;
 * - `acknowledged`: a zone we are primary for → NOERROR, AA and nothing else (BIND "just
 *   succeeds" for its primary zones);
 * - `refused`: a secondary zone, from an address that is not one of its primaries → REFUSED
 *   (RFC 1996 §3.10 wants the request ignored; BIND answers REFUSED, so the primary stops
 *   retrying); also a class other than IN (BIND answers REFUSED for a class no view serves);
 * - `notauth`: a name that is not the apex of a zone we serve, names below an apex included →
 *   NOTAUTH;
 * - `formerr`: not exactly one question, a question that is not SOA (RFC 1996 §3.7), or class
 *   ANY → FORMERR.
 */
export type NotifyState =
  | { kind: 'accepted', zone: ZoneData, serial: number | undefined }
  | { kind: 'acknowledged', zone: ZoneData }
  | { kind: 'refused' }
  | { kind: 'notauth' }
  | { kind: 'formerr' }

/** An address as bytes; IPv4-mapped IPv6 addresses (`::ffff:192.0.2.1`) as their IPv4 form. */
function addressBytes (text: string): Uint8Array | undefined {
  const v4 = parseIpv4(text)
  if (v4 !== undefined) return v4
  const v6 = parseIpv6(text)
  if (v6 === undefined) return undefined
  const mapped = v6.subarray(0, 10).every(b => b === 0) && v6[10] === 0xff && v6[11] === 0xff
  return mapped ? v6.slice(12) : v6
}

/** Whether two address strings name the same address (any spelling of IPv6, mapped IPv4). */
export function sameAddress (a: string, b: string): boolean {
  const x = addressBytes(a)
  const y = addressBytes(b)
  return x !== undefined && y !== undefined && x.length === y.length && x.every((v, i) => v === y[i])
}

/** The serial of the SOA in the answer section, when the primary sent one for the zone (RFC 1996 §3.7). */
function answeredSerial (query: Message, zone: ZoneData): number | undefined {
  const soa = query.answers.find(r => r.type === RRType.SOA && nameEquals(r.name, zone.origin))
  if (soa === undefined) return undefined
  try {
    return readSoa(soa.rdata).serial
  } catch (err) {
    if (err instanceof WireError) return undefined
    throw err
  }
}

/**
 * Decide a NOTIFY request (opcode already checked) from `address` against the zones served.
 * A zone is a secondary when its `primaries` are set.
 */
export function notifyState (query: Message, address: string, index: ZoneIndex): NotifyState {
  if (query.questions.length !== 1) return { kind: 'formerr' }
  const q = query.questions[0]!
  // RFC 1996 §3.7: QTYPE SOA, the zone's name in QNAME.
  if (q.type !== RRType.SOA || q.class === CLASS_ANY) return { kind: 'formerr' }
  if (q.class !== CLASS_IN) return { kind: 'refused' }
  // Only the apex: a name below a zone's apex is no zone of ours (BIND: NOTAUTH).
  const zone = index.get(q.name)
  if (zone === undefined) return { kind: 'notauth' }
  if (zone.primaries === undefined) return { kind: 'acknowledged', zone }
  if (!zone.primaries.some(p => sameAddress(p.host, address))) return { kind: 'refused' }
  return { kind: 'accepted', zone, serial: answeredSerial(query, zone) }
}

/** The rcode a NOTIFY state is answered with. */
export function notifyRcode (state: NotifyState): number {
  switch (state.kind) {
    case 'accepted':
    case 'acknowledged':
      return Rcode.NOERROR
    case 'refused':
      return Rcode.REFUSED
    case 'notauth':
      return Rcode.NOTAUTH
    case 'formerr':
      return Rcode.FORMERR
    default: {
      const never: never = state
      throw new Error(`unhandled NOTIFY state ${JSON.stringify(never)}`)
    }
  }
}

/**
 * The response to a NOTIFY (RFC 1996 §4.7): same id, QR, opcode NOTIFY, the question echoed,
 * AA when it is accepted; RD and CD are not copied and no answer is sent (as BIND does). An
 * OPT record answers one in the request (and carries the upper bits of an extended rcode).
 */
export function notifyResponse (query: Message, rcode: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: query.id, qr: true, opcode: Opcode.NOTIFY, aa: rcode === Rcode.NOERROR, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: rcode & 0xf })
  if (query.questions.length === 1) w.question(query.questions[0]!)
  if (query.edns !== undefined) w.opt({ udpSize: OUR_UDP_SIZE, extendedRcode: rcode >> 4, version: 0, dnssecOk: false, options: [] })
  return w.finish()
}
