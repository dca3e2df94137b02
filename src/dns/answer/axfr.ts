import { nameEquals } from '../../zone/name.ts'
import { readSoa } from '../../zone/rdata/soa.ts'
import { serialGreater } from '../../zone/serial.ts'
import type { ZoneData } from '../index/zone-data.ts'
import type { ZoneIndex } from '../index/zone-index.ts'
import type { ZoneRecord } from '../../zone/record.ts'
import { CLASS_IN, Rcode } from '../wire/constants.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { Message, WireRecord } from '../wire/message.ts'
import { signMessage, tsigErrorResponse, verifyRequest, type TsigKey } from '../wire/tsig.ts'
import { MessageWriter, Section } from '../wire/writer.ts'

/** Size of each message of a transfer (many records per message, RFC 5936 §2.2). */
const MESSAGE_SIZE = 16384

function compareAddress (a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return 0
}

/** Whether the client address lies in one of the zone's ranges. */
function allowedAddress (zone: ZoneData, client: Uint8Array): boolean {
  return (zone.transfer?.ranges ?? []).some(r => r.start.length === client.length && compareAddress(client, r.start) >= 0 && compareAddress(client, r.end) <= 0)
}

/** Every record of the zone: SOA first, then the rest (RFC 5936 §2.2). */
function zoneRecords (zone: ZoneData): { soa: WireRecord, rest: WireRecord[] } | undefined {
  const soaSet = zone.apex?.rrsets.get(RRType.SOA)
  if (soaSet === undefined) return undefined
  const soa: WireRecord = { name: zone.origin, type: RRType.SOA, class: 1, ttl: soaSet.ttl, rdata: soaSet.rdata[0]! }
  const rest: WireRecord[] = []
  for (const node of zone.eachNode()) {
    for (const [type, rrset] of node.rrsets) {
      if (type === RRType.SOA && nameEquals(node.owner, zone.origin)) continue
      for (const rdata of rrset.rdata) rest.push({ name: node.owner, type, class: 1, ttl: rrset.ttl, rdata })
    }
  }
  return { soa, rest }
}

/**
 * The answer to IXFR from `clientSerial` (RFC 1995 §4): the SOA alone when the client is up to
 * date; the serial steps from the journal when it holds every step from the client's serial on
 * (current SOA, then per step the old SOA, the records removed, the new SOA, the records added,
 * then the current SOA again); else the whole zone as AXFR sends it.
 */
function ixfrRecords (zone: ZoneData, all: { soa: WireRecord, rest: WireRecord[] }, clientSerial: number): WireRecord[] {
  const serial = readSoa(all.soa.rdata).serial
  if (!serialGreater(serial, clientSerial)) return [all.soa]
  const first = zone.journal.findIndex(s => s.serialFrom === clientSerial)
  const steps = first < 0 ? [] : zone.journal.slice(first)
  const complete = steps.length > 0 && steps[steps.length - 1]!.serialTo === serial && steps.every(s => s.removed.some(isSoa) && s.added.some(isSoa))
  if (!complete) return [all.soa, ...all.rest, all.soa]
  const out: WireRecord[] = [all.soa]
  const wire = (r: ZoneRecord): WireRecord => ({ name: r.owner, type: r.type, class: CLASS_IN, ttl: r.ttl, rdata: r.rdata })
  for (const s of steps) {
    out.push(wire(s.removed.find(isSoa)!))
    for (const r of s.removed) if (!isSoa(r)) out.push(wire(r))
    out.push(wire(s.added.find(isSoa)!))
    for (const r of s.added) if (!isSoa(r)) out.push(wire(r))
  }
  out.push(all.soa)
  return out
}

const isSoa = (r: ZoneRecord): boolean => r.type === RRType.SOA

export interface TransferRequest {
  bytes: Uint8Array
  message: Message
  /** The client's address octets (4 or 16). */
  client: Uint8Array
  now: number
}

function header (query: Message, rcode: number, aa: boolean): Parameters<MessageWriter['header']>[0] {
  return { id: query.id, qr: true, opcode: 0, aa, tc: false, rd: false, ra: false, ad: false, cd: false, rcode }
}

/**
 * AXFR out (RFC 5936) and IXFR out (RFC 1995, from the zone's journal of serial steps, or with
 * the whole zone when the journal cannot serve the client's serial): only to
 * the zone's allowed addresses and, when the zone has a key, only with a valid TSIG (RFC 8945),
 * every message signed. Anything else is REFUSED (or NOTAUTH for a zone we do not serve).
 *
 * @returns the response messages, in order.
 */
export function answerTransfer (index: ZoneIndex, req: TransferRequest): Uint8Array[] {
  const query = req.message
  const q = query.questions[0]!
  const refuse = (rcode: number): Uint8Array[] => {
    const w = new MessageWriter(512)
    w.header(header(query, rcode, false))
    w.question(q)
    return [w.finish()]
  }
  const zone = index.get(q.name)
  if (zone === undefined || !nameEquals(zone.origin, q.name)) return refuse(Rcode.NOTAUTH)
  const key = zone.transfer?.key
  let mac: Uint8Array | undefined
  if (query.tsig !== undefined) {
    const verdict = verifyRequest(req.bytes, query, n => key !== undefined && nameEquals(n, key.name) ? key : undefined, req.now)
    if (!verdict.ok) return [tsigErrorResponse(refuse(verdict.tsig === undefined ? Rcode.FORMERR : Rcode.NOTAUTH)[0]!, verdict, req.now)]
    mac = verdict.tsig.mac
  }
  const rangesConfigured = (zone.transfer?.ranges.length ?? 0) > 0
  const addressOk = rangesConfigured ? allowedAddress(zone, req.client) : key !== undefined
  if (!addressOk || (key !== undefined && mac === undefined)) {
    // RFC 8945 §5.3: an answer to a correctly signed request is signed, a refusal too.
    return mac !== undefined && key !== undefined ? signAll(refuse(Rcode.REFUSED), key, mac, req.now) : refuse(Rcode.REFUSED)
  }

  const all = zoneRecords(zone)
  if (all === undefined) return refuse(Rcode.SERVFAIL)
  const ixfrSoa = q.type === RRType.IXFR ? query.authority.find(r => r.type === RRType.SOA) : undefined
  const records = ixfrSoa === undefined ? [all.soa, ...all.rest, all.soa] : ixfrRecords(zone, all, readSoa(ixfrSoa.rdata).serial)
  const messages: Uint8Array[] = []
  let w = new MessageWriter(MESSAGE_SIZE)
  w.header(header(query, Rcode.NOERROR, true))
  w.question(q)
  for (const r of records) {
    if (w.record(Section.Answer, r)) continue
    messages.push(w.finish())
    w = new MessageWriter(MESSAGE_SIZE)
    w.header(header(query, Rcode.NOERROR, true))
    if (!w.record(Section.Answer, r)) return refuse(Rcode.SERVFAIL)
  }
  messages.push(w.finish())
  if (mac === undefined || key === undefined) return messages
  return signAll(messages, key, mac, req.now)
}

function signAll (messages: Uint8Array[], key: TsigKey, requestMac: Uint8Array, now: number): Uint8Array[] {
  let prior = requestMac
  return messages.map((m, i) => {
    const signed = signMessage(m, { key, priorMac: prior, timersOnly: i > 0, now })
    prior = signed.mac
    return signed.message
  })
}
