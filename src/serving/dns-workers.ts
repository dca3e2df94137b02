import { Worker } from 'node:worker_threads'
import { rotationBuffer } from '../dns/answer/rotation.ts'
import type { ZoneData } from '../dns/index/zone-data.ts'
import type { ZoneIndex } from '../dns/index/zone-index.ts'
import type { Client } from '../dns/server/handle-query.ts'
import type { RateLimitOptions } from '../dns/server/rate-limiter.ts'
import { clearTcpClientRegion, tcpClientBuffer } from '../dns/server/tcp-clients.ts'
import type { TcpLimits } from '../dns/server/tcp-pool.ts'
import type { WireName } from '../zone/name.ts'
import type { CaptureTarget, DnsWorkerConfig, FromWorker, ToWorker } from './dns-worker-protocol.ts'
import type { AppliedStep, ZoneFeed } from './zone-sync.ts'
import type { ServedPool } from '../dns/answer/pools.ts'

export interface DnsWorkersOptions {
  count: number
  hosts: string[]
  /** The port, already known free (see `probePort`). */
  port: number
  /** Each worker's share of the connection limit, and the per-client limit (over all workers). */
  tcp: TcpLimits
  rateLimit?: RateLimitOptions
  /** Where the workers' captured queries go (on the main thread). */
  capture?: CaptureTarget
  /** The node name captured queries carry. */
  node: string
  /** UDP through the batched socket when its addon loads (else `node:dgram`); default true. */
  udpBatch?: boolean
  /** The main thread's index: a worker (re)started takes every zone in it. */
  index: ZoneIndex
  onNotify?: (zone: ZoneData, client: Client, serial: number | undefined) => void
  logger: {
    warn (obj: object, msg: string): void
    error (obj: object, msg: string): void
    info (obj: object, msg: string): void
  }
}

/** A worker thread and what the main thread knows of it. */
interface Slot {
  index: number
  worker: Worker
  /** The last feed message it acknowledged. */
  synced: number
  started: number
  /** Consecutive quick deaths, for the restart delay. */
  failures: number
  /** Its listeners are bound (it answers). */
  listening: boolean
}

/** A failure to bind, with the errno code of the worker's bind error. */
export class DnsBindError extends Error {
  readonly code: string | undefined
  constructor (message: string, code: string | undefined) {
    super(message)
    this.code = code
  }
}

/** Restart delays of a worker that keeps dying soon after start: 100 ms doubling to 10 s. */
const RESTART_MIN_MS = 100
const RESTART_MAX_MS = 10_000
/** A worker that lived this long counts as healthy again. */
const HEALTHY_MS = 30_000

/**
 * The DNS worker threads (DESIGN.md: API work must not stall answers): `count` workers, each
 * with UDP and TCP listeners on the same port (SO_REUSEPORT, the kernel spreads queries over
 * them), answering from its copy of the index. This object is the zone sync's feed: every change
 * to the main thread's index goes to every worker in order, numbered; {@link settled} waits
 * until all of them have applied what was sent. A worker that dies is logged and started again
 * (after a delay that grows while it keeps dying), with every zone the main thread serves; the
 * others keep answering meanwhile.
 */
export class DnsWorkers implements ZoneFeed {
  private readonly slots: Slot[] = []
  private seq = 0
  /** The image generation of each zone's data when it was last sent whole. */
  private readonly imageSent = new WeakMap<ZoneData, number>()
  private flushes = 0
  private closing = false
  /** Set once every worker listened: from then on a worker that dies is started again. */
  private running = false
  private readonly waiters: { seq: number, resolve: () => void }[] = []
  private readonly restarts = new Set<NodeJS.Timeout>()
  private readonly opts: DnsWorkersOptions
  /** Round-robin positions shared by every worker, restarted ones too. */
  private readonly rotation = rotationBuffer()
  /** Per-client TCP connection counts, a region for each worker (restarted ones reuse theirs). */
  private readonly tcpClients: SharedArrayBuffer
  /** The GeoIP databases directional pools use, once read (a restarted worker gets them too). */
  private geo: SharedArrayBuffer[] | undefined

  constructor (opts: DnsWorkersOptions) {
    this.opts = opts
    this.tcpClients = tcpClientBuffer(opts.count, opts.tcp.maxConnections)
  }

  /** The port every worker listens on. */
  get port (): number {
    return this.opts.port
  }

  /** Start every worker; resolves when all listen, rejects (all stopped) when one cannot bind. */
  async start (): Promise<void> {
    const started = Array.from({ length: this.opts.count }, (_, i) => this.spawn(i))
    const results = await Promise.allSettled(started)
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed !== undefined) {
      await this.close()
      throw failed.reason
    }
    this.running = true
  }

  /** The workers' thread ids, in slot order (a slot being restarted has none). */
  threadIds (): number[] {
    return this.slots.map(s => s.worker.threadId)
  }

  /** How many workers answer now (all of them but those being restarted). */
  listening (): number {
    return this.slots.filter(s => s.listening).length
  }

  /** Stop one worker as a crash would (for tests and operators): it is restarted. */
  async terminate (slot: number): Promise<void> {
    await this.slots[slot]?.worker.terminate()
  }

  /** Resolves once every running worker has applied every change sent so far. */
  async settled (): Promise<void> {
    const seq = this.seq
    if (this.allSynced(seq)) return
    await new Promise<void>(resolve => this.waiters.push({ seq, resolve }))
  }

  /** Resolves once every worker has handed what its analytics counted to the main thread's capture. */
  async flushCapture (): Promise<void> {
    const id = ++this.flushes
    await Promise.all(this.slots.filter(s => s.listening).map(async slot => await new Promise<void>((resolve) => {
      const done = (m: FromWorker): void => {
        if (m.type !== 'flushed' || m.id !== id) return
        slot.worker.off('message', done)
        slot.worker.off('exit', gone)
        resolve()
      }
      const gone = (): void => {
        slot.worker.off('message', done)
        resolve()
      }
      slot.worker.on('message', done)
      slot.worker.once('exit', gone)
      slot.worker.postMessage({ type: 'flush', id } satisfies ToWorker)
    })))
  }

  zoneServed (data: ZoneData): void {
    this.imageSent.set(data, data.imageGeneration)
    this.broadcast(seq => ({ type: 'served', seq, zone: data.snapshot() }))
  }

  zoneApplied (data: ZoneData, steps: AppliedStep[]): void {
    // The steps folded the main thread's overlay into a new image: the workers take the zone
    // anew, sharing that image, instead of each folding (and holding) an image of its own.
    if (this.imageSent.get(data) !== data.imageGeneration) this.zoneServed(data)
    else this.broadcast(seq => ({ type: 'applied', seq, origin: data.origin, steps, settings: data.servedSettings() }))
  }

  zoneSettings (data: ZoneData): void {
    this.broadcast(seq => ({ type: 'settings', seq, origin: data.origin, settings: data.servedSettings() }))
  }

  zoneDropped (origin: WireName): void {
    this.broadcast(seq => ({ type: 'dropped', seq, origin }))
  }

  zonePool (data: ZoneData, key: string, pool: ServedPool): void {
    this.broadcast(seq => ({ type: 'pool', seq, origin: data.origin, key, pool }))
  }

  /** Every worker places directional pools' clients with these databases from now on. */
  geoDatabases (databases: SharedArrayBuffer[]): void {
    this.geo = databases
    this.broadcast(seq => ({ type: 'geo', seq, databases }))
  }

  async close (): Promise<void> {
    this.closing = true
    for (const t of this.restarts) clearTimeout(t)
    this.restarts.clear()
    await Promise.all(this.slots.map(async (slot) => {
      const exited = new Promise<void>(resolve => slot.worker.once('exit', () => resolve()))
      // 'closed' comes after the worker's last captured queries (one port keeps the order).
      const closed = new Promise<void>((resolve) => {
        const done = (m: FromWorker): void => { if (m.type === 'closed') resolve() }
        slot.worker.on('message', done)
        exited.then(resolve, resolve)
      })
      slot.worker.postMessage({ type: 'close' } satisfies ToWorker)
      await closed
      // A worker that does not finish closing (stuck) is stopped.
      const timer = setTimeout(() => { slot.worker.terminate().catch(() => {}) }, 5000)
      await exited
      clearTimeout(timer)
    }))
    for (const w of this.waiters.splice(0)) w.resolve()
  }

  private broadcast (make: (seq: number) => ToWorker): void {
    const message = make(++this.seq)
    for (const slot of this.slots) slot.worker.postMessage(message)
  }

  private allSynced (seq: number): boolean {
    return this.slots.every(s => s.synced >= seq)
  }

  private wake (): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i]!
      if (this.allSynced(w.seq)) {
        this.waiters.splice(i, 1)
        w.resolve()
      }
    }
  }

  /** Start the worker of one slot with every zone served now; resolves when it listens. */
  private async spawn (i: number, failures = 0): Promise<void> {
    const config: DnsWorkerConfig = {
      slot: i,
      hosts: this.opts.hosts,
      port: this.opts.port,
      tcp: this.opts.tcp,
      tcpClients: this.tcpClients,
      ...(this.opts.rateLimit === undefined ? {} : { rateLimit: this.opts.rateLimit }),
      ...(this.opts.capture === undefined ? {} : { analytics: { node: this.opts.node, ...this.opts.capture.limits } }),
      rotation: this.rotation,
      udpBatch: this.opts.udpBatch ?? true,
      ...(this.geo === undefined ? {} : { geo: this.geo })
    }
    const worker = new Worker(new URL('./dns-worker-start.ts', import.meta.url), { workerData: config, name: `dns-${i}` })
    const slot: Slot = { index: i, worker, synced: -1, started: Date.now(), failures, listening: false }
    this.slots[i] = slot
    // What the main thread serves now, then the feed from here on (the port keeps the order).
    for (const data of this.opts.index.all()) worker.postMessage({ type: 'served', seq: this.seq, zone: data.snapshot() } satisfies ToWorker)
    worker.postMessage({ type: 'sync', seq: this.seq } satisfies ToWorker)

    let listening: (() => void) | undefined
    let failed: ((err: unknown) => void) | undefined
    const ready = new Promise<void>((resolve, reject) => {
      listening = resolve
      failed = reject
    })
    worker.on('message', (m: FromWorker) => {
      switch (m.type) {
        case 'listening':
          slot.listening = true
          listening?.()
          break
        case 'failed': failed?.(new DnsBindError(m.message, m.code)); break
        case 'synced':
          slot.synced = m.seq
          this.wake()
          break
        case 'analytics':
          this.opts.capture?.absorb(m.part)
          break
        case 'notify': {
          const zone = this.opts.index.get(m.origin)
          if (zone !== undefined) this.opts.onNotify?.(zone, m.client, m.serial)
          break
        }
        case 'log':
          this.opts.logger[m.level]({ worker: i, err: m.err }, m.msg)
          break
        case 'flushed':
        case 'closed':
          break
      }
    })
    worker.on('error', (err) => {
      failed?.(err)
      this.opts.logger.error({ worker: i, err }, 'DNS worker failed')
    })
    worker.on('exit', (code) => {
      failed?.(new Error(`DNS worker ${i} exited (code ${code}) before listening`))
      slot.listening = false
      if (this.slots[i] !== slot) return
      // Its connections closed with it: give back their places in the per-client counts.
      clearTcpClientRegion(this.tcpClients, i)
      // Nothing to wait for from a worker that is gone.
      slot.synced = Number.MAX_SAFE_INTEGER
      this.wake()
      if (this.closing || !this.running) return
      const quick = Date.now() - slot.started < HEALTHY_MS
      const next = quick ? slot.failures + 1 : 0
      const delay = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** Math.max(0, next - 1))
      this.opts.logger.error({ worker: i, code, restartInMs: delay }, 'DNS worker stopped; starting it again')
      const timer = setTimeout(() => {
        this.restarts.delete(timer)
        if (this.closing) return
        this.spawn(i, next).then(
          () => this.opts.logger.info({ worker: i }, 'DNS worker restarted'),
          (err: unknown) => this.opts.logger.error({ worker: i, err }, 'DNS worker could not start again')
        )
      }, delay)
      this.restarts.add(timer)
    })
    await ready
  }
}
