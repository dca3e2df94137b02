import { QueryFlag, type EcsOption, type QueryCapture } from '../dns/server/query-capture.ts'
import type { Client } from '../dns/server/handle-query.ts'
import { QueryBatch } from './query-batch.ts'
import type { QuerySink } from './query-sink.ts'

export interface QueryCollectorOptions {
  /** This node's name (`ZONAL_NODE_NAME`), carried by every batch. */
  node: string
  /** Queries per batch (default 1024). */
  batchSize?: number
  /**
   * Batches in all (default 8): the one being filled, those waiting for the sink and the one
   * it is writing. They are allocated once, so this bounds the collector's memory; when all
   * are taken (the sink is slow) further queries are dropped and counted.
   */
  batches?: number
  /** A partly filled batch is handed to the sink after at most this long (default 1000 ms). */
  flushMs?: number
  /** Told when the sink throws or rejects (the batch's queries count as failed). */
  onError?: (err: unknown) => void
}

/** What the collector has done since it started. */
export interface CollectorStats {
  /** Queries put into a batch. */
  captured: number
  /** Queries dropped because every batch was taken (the sink is slow). */
  dropped: number
  /** Queries in batches the sink has written. */
  written: number
  /** Queries in batches whose write threw or rejected. */
  failed: number
}

/**
 * Wall-clock time less the monotonic clock (`Date.now() − performance.now()`), from a wall-clock
 * reading taken between two monotonic ones less than half a millisecond apart: a thread paused
 * between two plain readings (a busy machine) would put every time stamped until the next
 * refresh off by the pause. After three tries without such a close pair, `previous` is kept.
 */
function clockOffset (previous?: number): number {
  for (let i = 0; i < 3; i++) {
    const before = performance.now()
    const wall = Date.now()
    const after = performance.now()
    if (after - before < 0.5) return wall - (before + after) / 2
  }
  return previous ?? Date.now() - performance.now()
}

/**
 * The query capture of the answer path (`QueryCapture`): each answered query is written into
 * a preallocated columnar batch (a few typed-array stores, no allocation), and full batches,
 * or the partly filled one every `flushMs`, go to the sink from `setImmediate`, after the
 * response has been sent. The sink writes one batch at a time; the others wait, up to
 * `batches` in all, after which queries are dropped and counted, never queued without bound
 * and never waited for.
 */
export class QueryCollector implements QueryCapture {
  private current: QueryBatch | undefined
  private readonly free: QueryBatch[] = []
  private readonly waiting: QueryBatch[] = []
  private writing = false
  private scheduled = false
  private readonly idle: (() => void)[] = []
  private readonly timer: NodeJS.Timeout
  private readonly stats: CollectorStats = { captured: 0, dropped: 0, written: 0, failed: 0 }
  /**
   * The wall clock less this thread's `performance.now()`, read again every `flushMs`: one
   * clock reading per query gives both its time and its response time, and the times follow
   * changes of the wall clock within `flushMs`.
   */
  private clockOffset = clockOffset()

  private readonly sink: QuerySink
  private readonly opts: QueryCollectorOptions

  constructor (sink: QuerySink, opts: QueryCollectorOptions) {
    this.sink = sink
    this.opts = opts
    const size = opts.batchSize ?? 1024
    const count = opts.batches ?? 8
    if (!(size >= 1) || !(count >= 1)) throw new RangeError('a query collector needs at least one batch of at least one query')
    for (let i = 0; i < count; i++) this.free.push(new QueryBatch(size, opts.node))
    this.timer = setInterval(() => {
      this.clockOffset = clockOffset(this.clockOffset)
      this.handOver()
    }, opts.flushMs ?? 1000)
    this.timer.unref()
  }

  get node (): string {
    return this.opts.node
  }

  /** Counts so far (a copy). */
  counts (): CollectorStats {
    return { ...this.stats }
  }

  query (client: Client, zone: string | undefined, qname: string | undefined, qtype: number, opcode: number, rcode: number,
    request: Uint8Array, response: Uint8Array, responseSize: number, flags: number, received: number, ecs: EcsOption | undefined): void {
    const b = this.batch()
    if (b === undefined) {
      this.stats.dropped++
      return
    }
    const i = b.length++
    const now = performance.now()
    b.time[i] = this.clockOffset + now
    // Whole microseconds (the typed array truncates); over 71 minutes would wrap, never seen.
    b.responseMicros[i] = now > received ? (now - received) * 1000 : 0
    b.zone[i] = zone ?? ''
    b.qname[i] = qname ?? ''
    b.qtype[i] = qtype
    b.opcode[i] = opcode
    b.rcode[i] = rcode
    b.address[i] = client.address
    b.port[i] = client.port
    b.requestSize[i] = request.length
    b.responseSize[i] = responseSize
    b.flags[i] = flags | (client.transport === 'tcp' ? QueryFlag.TCP : 0) | (client.family === 'IPv6' ? QueryFlag.IPV6 : 0)
    b.dnsId[i] = (request[0]! << 8) | request[1]!
    b.qdcount[i] = (response[4]! << 8) | response[5]!
    b.ancount[i] = (response[6]! << 8) | response[7]!
    b.nscount[i] = (response[8]! << 8) | response[9]!
    b.arcount[i] = (response[10]! << 8) | response[11]!
    b.ecsAddress[i] = ''
    if (ecs === undefined) {
      b.ecsFamily[i] = 0
      b.ecsPrefix[i] = 0
    } else b.setEcs(i, ecs.bytes, ecs.at, ecs.length)
    this.stats.captured++
    if (b.length === b.capacity) this.handOver()
  }

  /** Count queries another thread's collector lost (a DNS worker's, told with its hand-over). */
  countLost (dropped: number, failed: number): void {
    this.stats.dropped += dropped
    this.stats.failed += failed
  }

  /** The batch being filled, or a free one; undefined when none is free. */
  private batch (): QueryBatch | undefined {
    let b = this.current
    if (b === undefined) {
      b = this.free.pop()
      if (b === undefined) return undefined
      this.current = b
    }
    return b
  }

  /** Queue the batch being filled for the sink. */
  private handOver (): void {
    const b = this.current
    if (b === undefined || b.length === 0) return
    this.current = undefined
    this.waiting.push(b)
    this.schedule()
  }

  private schedule (): void {
    if (this.scheduled || this.writing) return
    this.scheduled = true
    setImmediate(this.drain)
  }

  private readonly drain = (): void => {
    this.scheduled = false
    const b = this.waiting.shift()
    if (b === undefined) {
      for (const resolve of this.idle.splice(0)) resolve()
      return
    }
    this.writing = true
    let result: void | Promise<void>
    try {
      b.finish()
      result = this.sink.write(b)
    } catch (err) {
      this.settle(b, false, err)
      return
    }
    if (result instanceof Promise) result.then(() => this.settle(b, true), (err: unknown) => this.settle(b, false, err))
    else this.settle(b, true)
  }

  private settle (b: QueryBatch, ok: boolean, err?: unknown): void {
    if (ok) this.stats.written += b.length
    else {
      this.stats.failed += b.length
      this.opts.onError?.(err)
    }
    b.length = 0
    this.free.push(b)
    this.writing = false
    this.scheduled = true
    setImmediate(this.drain)
  }

  /** Hand the partly filled batch over and resolve once the sink has written everything queued. */
  async flush (): Promise<void> {
    this.handOver()
    if (!this.writing && !this.scheduled && this.waiting.length === 0) return
    await new Promise<void>(resolve => this.idle.push(resolve))
  }

  /** Stop the periodic hand-over and flush what was captured. */
  async close (): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
