import { ClientCountSink, type ClientPart } from './client-count-sink.ts'
import { CounterSink, type CounterPart } from './counter-sink.ts'
import { FanOutSink } from './fan-out-sink.ts'
import { HostCountSink, type HostCounted } from './host-count-sink.ts'
import { QueryCollector } from './query-collector.ts'
import { QueryCountSink, type QueryCounted } from './query-count-sink.ts'
import { RawSampleSink, type RawPart } from './raw-sample-sink.ts'
import type { QuerySink } from './query-sink.ts'

/**
 * What a DNS worker thread counted and sampled since its last hand-over, for the main thread's
 * sinks to absorb (structured-cloneable): each sink's part (absent when it counted nothing),
 * and the queries the thread's collector lost.
 */
export interface AnalyticsPart {
  counts?: CounterPart
  volume?: QueryCounted
  hosts?: HostCounted
  clients?: ClientPart
  raw?: RawPart
  lost: { dropped: number, failed: number }
}

/** The limits a thread's sinks keep to, as the main thread's do (`ZONAL_ANALYTICS_*`). */
export interface ThreadAnalyticsOptions {
  node: string
  /** Raw samples per second (`ZONAL_ANALYTICS_RAW_PER_SECOND`); 0 keeps none. */
  rawPerSecond: number
  maxHostsPerZone: number
  maxHosts: number
  maxClients: number
}

/** The sinks of the main thread that absorb the threads' parts. */
export interface AnalyticsSinks {
  counts: CounterSink
  queryVolume: QueryCountSink
  hostVolume: HostCountSink
  clientCounts: ClientCountSink
  rawSamples: RawSampleSink | undefined
  collector: QueryCollector
}

/** The writer of a thread's sink: it hands over, never writes (the main thread writes). */
const HANDED_OVER = {
  add: async (): Promise<never> => { throw new Error('a DNS worker thread hands its counts over to the main thread, it writes nothing') }
}

/**
 * The analytics of a DNS worker thread: its capture and the same sinks as the main thread's,
 * counting in the thread that answered, so no query crosses between threads; what they counted
 * is handed over (`handOver`, every second or so) and the main thread's sinks absorb it
 * (`absorbPart`) and write it. The sinks never write and run no timers here.
 */
export class ThreadAnalytics {
  readonly collector: QueryCollector
  private readonly counts = new CounterSink()
  private readonly volume: QueryCountSink
  private readonly hosts: HostCountSink
  private readonly clients: ClientCountSink
  private readonly raw: RawSampleSink | undefined
  private handedLost = { dropped: 0, failed: 0 }

  constructor (opts: ThreadAnalyticsOptions) {
    // A flush interval is required by the sinks' options; no timer is started here.
    const flushMs = 1000
    this.volume = new QueryCountSink(HANDED_OVER, { flushMs })
    this.hosts = new HostCountSink(HANDED_OVER, { flushMs, maxHostsPerZone: opts.maxHostsPerZone, maxHosts: opts.maxHosts })
    this.clients = new ClientCountSink(HANDED_OVER, { flushMs, maxClients: opts.maxClients, locator: async () => undefined })
    this.raw = opts.rawPerSecond === 0 ? undefined : new RawSampleSink(HANDED_OVER, { flushMs, perSecond: opts.rawPerSecond })
    const sinks: QuerySink[] = [this.counts, this.volume, this.hosts, this.clients]
    if (this.raw !== undefined) sinks.push(this.raw)
    this.collector = new QueryCollector(new FanOutSink(sinks), { node: opts.node, flushMs: 250 })
  }

  /**
   * What the sinks counted since the last hand-over, taken out; the host counts only when
   * `hosts` (they are the largest part: a row per name asked); the raw samples of the seconds
   * that are over (of every second when `all`: a flush or the close).
   */
  handOver (hosts: boolean, all = hosts): AnalyticsPart {
    const stats = this.collector.counts()
    const part: AnalyticsPart = { lost: { dropped: stats.dropped - this.handedLost.dropped, failed: stats.failed - this.handedLost.failed } }
    this.handedLost = { dropped: stats.dropped, failed: stats.failed }
    const counts = this.counts.handOver()
    if (counts !== undefined) part.counts = counts
    const volume = this.volume.handOver()
    if (volume !== undefined) part.volume = volume
    const clients = this.clients.handOver()
    if (clients !== undefined) part.clients = clients
    const raw = this.raw?.handOver(all ? undefined : Math.floor(Date.now() / 1000))
    if (raw !== undefined) part.raw = raw
    if (hosts) {
      const counted = this.hosts.handOver()
      if (counted !== undefined) part.hosts = counted
    }
    return part
  }
}

/** Add a thread's part to the main thread's sinks (which write it with their own flushes). */
export function absorbPart (sinks: AnalyticsSinks, part: AnalyticsPart): void {
  sinks.collector.countLost(part.lost.dropped, part.lost.failed)
  if (part.counts !== undefined) sinks.counts.absorb(part.counts)
  if (part.volume !== undefined) sinks.queryVolume.absorb(part.volume)
  if (part.hosts !== undefined) sinks.hostVolume.absorb(part.hosts)
  if (part.clients !== undefined) sinks.clientCounts.absorb(part.clients)
  if (part.raw !== undefined) sinks.rawSamples?.absorb(part.raw)
}
