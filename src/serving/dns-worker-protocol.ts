import type { QueryBatch, QueryColumns } from '../analytics/query-batch.ts'
import type { JournalStep, ZoneServedSettings, ZoneSnapshot } from '../dns/index/zone-data.ts'
import type { Client } from '../dns/server/handle-query.ts'
import type { QueryCapture } from '../dns/server/query-capture.ts'
import type { RateLimitOptions } from '../dns/server/rate-limiter.ts'
import type { TcpLimits } from '../dns/server/tcp-pool.ts'
import type { WireName } from '../zone/name.ts'
import type { AppliedStep } from './zone-sync.ts'

/**
 * What the main thread and the DNS worker threads say to each other (structured clone). The
 * main thread keeps the store and the zone sync; each worker holds a copy of the index (sharing
 * what the zone data shares), follows the change feed in order and acknowledges by sequence
 * number, so the main thread knows when every worker serves a change.
 */

/** What a worker is started with (`workerData`). */
export interface DnsWorkerConfig {
  /** Which worker this is (0 … count − 1), for logs. */
  slot: number
  hosts: string[]
  /** The shared port, chosen by the main thread; every worker binds it with SO_REUSEPORT. */
  port: number
  /** This worker's share of the connection limit, and the per-client limit (not shared out). */
  tcp: TcpLimits
  /** The per-client TCP connection counts of every worker; this one counts in region `slot`. */
  tcpClients: SharedArrayBuffer
  /** This worker's share of the response rate limit; none when limiting is off. */
  rateLimit?: RateLimitOptions
  /** Capture answered queries and hand them to the main thread (in batches). */
  capture: boolean
  /** The node name the captured queries carry. */
  node: string
  /** The round-robin positions every worker shares (`dns/answer/rotation.ts`). */
  rotation: SharedArrayBuffer
  /** UDP through the batched socket when its addon loads (else `node:dgram`). */
  udpBatch: boolean
}

/** The string columns of a captured batch. */
type StringColumn = 'address' | 'zone' | 'qname' | 'ecsAddress'

/**
 * One captured batch, as much of it as was filled, copied out of the worker's batch (finished:
 * the Client Subnet addresses written out). The string columns travel as indices into
 * `strings`, each distinct value once: structured clone copies every string of a string array
 * one by one, which cost the worker about 2 µs a query, while a batch holds few distinct
 * clients, zones and names. The typed arrays' buffers are transferred, not copied again.
 */
export type CapturedBatch = Omit<QueryColumns, StringColumn> & Record<StringColumn, Uint16Array> & { strings: string[] }

const STRING_COLUMNS: readonly StringColumn[] = ['address', 'zone', 'qname', 'ecsAddress']

/**
 * The main thread's capture (`analytics/QueryCollector`): the queries it answers itself, and
 * the batches the DNS workers captured, added as they are.
 */
export interface CaptureTarget extends QueryCapture {
  append (batch: QueryColumns): void
}

/**
 * A filled query batch as a message (the worker's batch is reused: this is a copy) and the
 * buffers to transfer with it.
 */
export function capturedBatch (b: QueryBatch): { batch: CapturedBatch, transfer: ArrayBuffer[] } {
  const n = b.length
  const strings: string[] = []
  const indices = new Map<string, number>()
  const column = (values: readonly string[]): Uint16Array => {
    const out = new Uint16Array(n)
    let last: string | undefined
    let lastIndex = 0
    for (let i = 0; i < n; i++) {
      const v = values[i]!
      if (v !== last) {
        let k = indices.get(v)
        if (k === undefined) {
          k = strings.length
          strings.push(v)
          indices.set(v, k)
        }
        last = v
        lastIndex = k
      }
      out[i] = lastIndex
    }
    return out
  }
  const batch: CapturedBatch = {
    length: n,
    time: b.time.slice(0, n),
    qtype: b.qtype.slice(0, n),
    opcode: b.opcode.slice(0, n),
    rcode: b.rcode.slice(0, n),
    port: b.port.slice(0, n),
    requestSize: b.requestSize.slice(0, n),
    responseSize: b.responseSize.slice(0, n),
    flags: b.flags.slice(0, n),
    dnsId: b.dnsId.slice(0, n),
    qdcount: b.qdcount.slice(0, n),
    ancount: b.ancount.slice(0, n),
    nscount: b.nscount.slice(0, n),
    arcount: b.arcount.slice(0, n),
    responseMicros: b.responseMicros.slice(0, n),
    ecsPrefix: b.ecsPrefix.slice(0, n),
    address: column(b.address),
    zone: column(b.zone),
    qname: column(b.qname),
    ecsAddress: column(b.ecsAddress),
    strings
  }
  const transfer: ArrayBuffer[] = []
  for (const v of Object.values(batch)) if (ArrayBuffer.isView(v)) transfer.push(v.buffer as ArrayBuffer)
  return { batch, transfer }
}

/** A captured batch's columns as the collector takes them (the main thread's side of {@link capturedBatch}). */
export function capturedColumns (c: CapturedBatch): QueryColumns {
  const text = (column: Uint16Array): string[] => {
    const out = new Array<string>(c.length)
    for (let i = 0; i < c.length; i++) out[i] = c.strings[column[i]!]!
    return out
  }
  const { strings: _strings, ...rest } = c
  const columns = { ...rest } as unknown as QueryColumns
  for (const name of STRING_COLUMNS) columns[name] = text(c[name])
  return columns
}

/** The change feed and the stop request, main thread to worker. */
export type ToWorker =
  | { type: 'served', seq: number, zone: ZoneSnapshot }
  | { type: 'applied', seq: number, origin: WireName, steps: { step: JournalStep, orders: AppliedStep['orders'] }[], settings: ZoneServedSettings }
  | { type: 'settings', seq: number, origin: WireName, settings: ZoneServedSettings }
  | { type: 'dropped', seq: number, origin: WireName }
  /** Nothing to apply: acknowledge (after the zones a worker is started with). */
  | { type: 'sync', seq: number }
  /** Hand what the capture holds to the main thread now, then say `flushed`. */
  | { type: 'flush', id: number }
  | { type: 'close' }

/** Worker to main thread. */
export type FromWorker =
  | { type: 'listening' }
  | { type: 'failed', message: string, code?: string }
  | { type: 'synced', seq: number }
  | { type: 'capture', batch: CapturedBatch }
  | { type: 'notify', origin: WireName, client: Client, serial: number | undefined }
  | { type: 'log', level: 'warn' | 'error', msg: string, err: string }
  | { type: 'flushed', id: number }
  | { type: 'closed' }
