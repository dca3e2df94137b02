import type { AnalyticsPart, ThreadAnalyticsOptions } from '../analytics/thread-analytics.ts'
import type { JournalStep, ZoneServedSettings, ZoneSnapshot } from '../dns/index/zone-data.ts'
import type { Client } from '../dns/server/handle-query.ts'
import type { QueryCapture } from '../dns/server/query-capture.ts'
import type { RateLimitOptions } from '../dns/server/rate-limiter.ts'
import type { TcpLimits } from '../dns/server/tcp-pool.ts'
import type { WireName } from '../zone/name.ts'
import type { AppliedStep } from './zone-sync.ts'
import type { ServedPool } from '../dns/answer/pools.ts'

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
  /** Count and sample the answered queries (the main thread's limits) and hand that over to the main thread; none without analytics. */
  analytics?: ThreadAnalyticsOptions
  /** The round-robin positions every worker shares (`dns/answer/rotation.ts`). */
  rotation: SharedArrayBuffer
  /** UDP through the batched socket when its addon loads (else `node:dgram`). */
  udpBatch: boolean
  /** The GeoIP databases directional pools place clients with, when already read (shared memory). */
  geo?: SharedArrayBuffer[]
}

/**
 * The main thread's capture (`analytics/`): the queries it answers itself, and the parts the
 * DNS workers hand over (their own sinks count the queries they answer, `ThreadAnalytics`),
 * with the limits the workers' sinks keep to.
 */
export interface CaptureTarget extends QueryCapture {
  absorb (part: AnalyticsPart): void
  limits: Omit<ThreadAnalyticsOptions, 'node'>
}

/** The change feed and the stop request, main thread to worker. */
export type ToWorker =
  | { type: 'served', seq: number, zone: ZoneSnapshot }
  | { type: 'applied', seq: number, origin: WireName, steps: { step: JournalStep, orders: AppliedStep['orders'], pools: AppliedStep['pools'] }[], settings: ZoneServedSettings }
  /** A traffic pool's health changed: serve the rrset `key` (`wireKey(owner)/type`) as `pool`. */
  | { type: 'pool', seq: number, origin: WireName, key: string, pool: ServedPool }
  /** Place directional pools' clients with these GeoIP databases (shared memory, read once). */
  | { type: 'geo', seq: number, databases: SharedArrayBuffer[] }
  | { type: 'settings', seq: number, origin: WireName, settings: ZoneServedSettings }
  | { type: 'dropped', seq: number, origin: WireName }
  /** Nothing to apply: acknowledge (after the zones a worker is started with). */
  | { type: 'sync', seq: number }
  /** Hand what the analytics hold (host counts included) to the main thread now, then say `flushed`. */
  | { type: 'flush', id: number }
  | { type: 'close' }

/** Worker to main thread. */
export type FromWorker =
  | { type: 'listening' }
  | { type: 'failed', message: string, code?: string }
  | { type: 'synced', seq: number }
  | { type: 'analytics', part: AnalyticsPart }
  | { type: 'notify', origin: WireName, client: Client, serial: number | undefined }
  | { type: 'log', level: 'warn' | 'error', msg: string, err: string }
  | { type: 'flushed', id: number }
  | { type: 'closed' }
