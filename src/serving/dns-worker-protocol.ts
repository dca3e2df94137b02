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

/**
 * One captured batch, as much of it as was filled, copied out of the worker's batch (finished:
 * the Client Subnet addresses written out).
 */
export type CapturedBatch = QueryColumns

/**
 * The main thread's capture (`analytics/QueryCollector`): the queries it answers itself, and
 * the batches the DNS workers captured, added as they are.
 */
export interface CaptureTarget extends QueryCapture {
  append (batch: CapturedBatch): void
}

/** A filled query batch as a message (the worker's batch is reused: this is a copy). */
export function capturedBatch (b: QueryBatch): CapturedBatch {
  const n = b.length
  return {
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
    address: b.address.slice(0, n),
    zone: b.zone.slice(0, n),
    qname: b.qname.slice(0, n),
    ecsAddress: b.ecsAddress.slice(0, n)
  }
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
