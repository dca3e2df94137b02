import { isSubdomain, nameEquals, nameToString, type WireName } from '../../zone/name.ts'
import { readSoa } from '../../zone/rdata/soa.ts'
import type { ZoneRecord } from '../../zone/record.ts'
import { serialGreater } from '../../zone/serial.ts'
import type { JournalStep } from '../index/zone-data.ts'
import { CLASS_IN, Rcode } from '../wire/constants.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { Message, WireRecord } from '../wire/message.ts'

/** Why a transfer failed, for `transferStatusDetails` (one word a caller can switch on). */
export type TransferFailure = 'connection refused' | 'timeout' | 'tsig' | 'refused' | 'notauth' | 'rcode' | 'bad data' | 'too large' | 'network'

/** A failed zone transfer: `reason` to switch on, `message` a sentence for the zone's status. */
export class TransferError extends Error {
  readonly reason: TransferFailure

  constructor (reason: TransferFailure, message: string) {
    super(message)
    this.reason = reason
    this.name = 'TransferError'
  }
}

export type TransferResult =
  /** AXFR, or IXFR answered AXFR-style: the whole zone, its SOA once and first. */
  | { kind: 'full', serial: number, records: ZoneRecord[] }
  /** IXFR differences (RFC 1995 §4); each step's removed and added include its SOAs. */
  | { kind: 'incremental', serial: number, steps: JournalStep[] }
  /** IXFR answered with the SOA alone: the copy we have is up to date. */
  | { kind: 'current', serial: number }

const RCODE_NAMES: Record<number, string> = { 1: 'FORMERR', 2: 'SERVFAIL', 3: 'NXDOMAIN', 4: 'NOTIMP', 5: 'REFUSED', 6: 'YXDOMAIN', 7: 'YXRRSET', 8: 'NXRRSET', 9: 'NOTAUTH', 10: 'NOTZONE' }

function sameOctets (a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

type State =
  | { at: 'start' }
  /** After the first SOA: the second record tells AXFR-style from incremental (RFC 1995 §4). */
  | { at: 'second' }
  | { at: 'full' }
  | { at: 'removed', step: JournalStep }
  | { at: 'added', step: JournalStep }
  | { at: 'done' }

/**
 * The record stream of one AXFR (RFC 5936 §2.2) or IXFR (RFC 1995 §4) response, fed message by
 * message: checks each message's header against the request and each record against the zone,
 * and says when the closing SOA arrived. Pure (no sockets, no TSIG): the client does those.
 */
export class TransferReader {
  private state: State = { at: 'start' }
  private first: WireRecord | undefined
  private serial = 0
  private count = 0
  private readonly records: ZoneRecord[] = []
  private readonly steps: JournalStep[] = []
  private current = false

  private readonly zone: WireName
  private readonly id: number
  private readonly clientSerial: number | undefined
  private readonly maxRecords: number

  /**
   * @param zone the zone asked for
   * @param id the request's message ID
   * @param clientSerial for IXFR, the serial of the copy we hold; undefined for AXFR
   */
  constructor (
    zone: WireName,
    id: number,
    clientSerial: number | undefined,
    maxRecords: number
  ) {
    this.zone = zone
    this.id = id
    this.clientSerial = clientSerial
    this.maxRecords = maxRecords
  }

  get done (): boolean {
    return this.state.at === 'done'
  }

  /** Records received so far (for "ended after N records"). */
  get received (): number {
    return this.count
  }

  /**
   * Take one decoded message (its TSIG already checked by the caller).
   * @throws TransferError 'refused', 'notauth', 'rcode' for an error rcode; 'bad data' for a
   *   header that does not answer our request, a record outside the zone or of another class,
   *   a stream not starting with the zone's SOA, records after the end, too many records.
   */
  feed (m: Message): void {
    if (m.id !== this.id) throw this.bad(`answered with message ID ${m.id}, not ${this.id}`)
    if (!m.qr || m.opcode !== 0) throw this.bad('sent a message that is not a response to a query')
    if (m.rcode === Rcode.REFUSED) throw new TransferError('refused', 'the primary refused the transfer (REFUSED)')
    if (m.rcode === Rcode.NOTAUTH) throw new TransferError('notauth', 'the primary is not authoritative for the zone or did not accept our key (NOTAUTH)')
    if (m.rcode !== Rcode.NOERROR) throw new TransferError('rcode', `the primary answered ${RCODE_NAMES[m.rcode] ?? `rcode ${m.rcode}`}`)
    for (const q of m.questions) if (!nameEquals(q.name, this.zone)) throw this.bad(`answered a question for ${nameToString(q.name)}`)
    for (const r of m.answers) this.record(r)
  }

  /** The outcome, once {@link done}. */
  result (): TransferResult {
    if (this.current) return { kind: 'current', serial: this.serial }
    if (this.steps.length > 0) return { kind: 'incremental', serial: this.serial, steps: this.steps }
    return { kind: 'full', serial: this.serial, records: this.records }
  }

  private bad (what: string): TransferError {
    return new TransferError('bad data', `bad data, the primary ${what}`)
  }

  private record (r: WireRecord): void {
    // Up to date (RFC 1995 §4): whatever else the primary sent is not needed.
    if (this.current) return
    if (this.state.at === 'done') throw this.bad('sent records after the closing SOA')
    if (++this.count > this.maxRecords) throw new TransferError('too large', `the primary sent more than ${this.maxRecords} records, more than the zone may hold`)
    if (r.class !== CLASS_IN) throw this.bad(`sent a record of class ${r.class} at ${nameToString(r.name)}`)
    if (!isSubdomain(r.name, this.zone)) throw this.bad(`sent ${nameToString(r.name)}, which is outside the zone`)
    const isSoa = r.type === RRType.SOA
    if (isSoa && !nameEquals(r.name, this.zone)) throw this.bad(`sent a SOA record at ${nameToString(r.name)}, below the apex`)
    const record: ZoneRecord = { owner: r.name, type: r.type, ttl: r.ttl, rdata: r.rdata }
    const state = this.state
    switch (state.at) {
      case 'start':
        // RFC 5936 §2.2, RFC 1995 §4: the response starts with the zone's current SOA.
        if (!isSoa) throw this.bad('did not start the transfer with the zone\'s SOA record')
        this.first = r
        this.serial = this.soaSerial(r)
        this.records.push(record)
        // RFC 1995 §4: a client as new as the server gets the SOA alone (BIND decides by serial).
        if (this.clientSerial !== undefined && !serialGreater(this.serial, this.clientSerial)) {
          this.current = true
          this.state = { at: 'done' }
        } else {
          this.state = { at: this.clientSerial === undefined ? 'full' : 'second' }
        }
        return
      case 'second':
        if (isSoa && !this.isClosing(r)) {
          const from = this.soaSerial(r)
          if (from !== this.clientSerial) throw this.bad(`sent differences from serial ${from}, not from ours (${this.clientSerial!})`)
          this.state = { at: 'removed', step: { serialFrom: from, serialTo: from, removed: [record], added: [] } }
          return
        }
        this.state = { at: 'full' }
        this.full(r, record)
        return
      case 'full':
        this.full(r, record)
        return
      case 'removed':
        if (!isSoa) {
          state.step.removed.push(record)
          return
        }
        state.step.serialTo = this.soaSerial(r)
        state.step.added.push(record)
        this.state = { at: 'added', step: state.step }
        return
      case 'added': {
        if (!isSoa) {
          state.step.added.push(record)
          return
        }
        this.steps.push(state.step)
        if (this.isClosing(r)) {
          if (state.step.serialTo !== this.serial) throw this.bad(`ended the differences at serial ${state.step.serialTo}, not at ${this.serial}`)
          this.state = { at: 'done' }
          return
        }
        const from = this.soaSerial(r)
        if (from !== state.step.serialTo) throw this.bad(`sent differences from serial ${from} after a step ending at ${state.step.serialTo}`)
        this.state = { at: 'removed', step: { serialFrom: from, serialTo: from, removed: [record], added: [] } }
        return
      }
      default: {
        const never: never = state
        throw new Error(`unexpected transfer state ${String(never)}`)
      }
    }
  }

  /** AXFR (RFC 5936 §2.2): every record once; the zone's single SOA again closes the transfer. */
  private full (r: WireRecord, record: ZoneRecord): void {
    if (r.type !== RRType.SOA) {
      this.records.push(record)
      return
    }
    if (!this.isClosing(r)) throw this.bad('sent a second, different SOA record before the end')
    this.state = { at: 'done' }
  }

  private isClosing (r: WireRecord): boolean {
    return r.type === RRType.SOA && sameOctets(r.rdata, this.first!.rdata)
  }

  private soaSerial (r: WireRecord): number {
    try {
      return readSoa(r.rdata).serial
    } catch {
      throw this.bad('sent an unreadable SOA record')
    }
  }
}
