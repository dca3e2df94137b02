import { QueryFlag } from '../dns/server/query-capture.ts'
import { FlushedCounts } from './flushed-counts.ts'
import { nameOfKey, type QueryBatch } from './query-batch.ts'

/**
 * One raw query sample: a response as captured, names in presentation form. The store's
 * `RawQueryRow` (store.ts) is this type: `cli/serve.ts` hands these rows to it as they are.
 */
export interface RawSample {
  /** 'YYYY-MM-DD', UTC: the day of `time`. */
  day: string
  /** Unique over nodes and time, below 2^53 (see {@link packetIds}). */
  packetId: number
  /** When it was answered: 'YYYY-MM-DDTHH:mm:ss.SSSZ'. */
  time: string
  node: string
  /** The zone that answered ('' when none did). */
  zone: string
  /** The question name ('' when the request had none). */
  qname: string
  qtype: number
  opcode: number
  rcode: number
  /** `QueryFlag` bits without TCP and IPV6. */
  flags: number
  transport: 'udp' | 'tcp'
  ipVersion: 4 | 6
  address: string
  port: number
  ecsAddress: string
  ecsPrefix: number
  dnsId: number
  qdcount: number
  ancount: number
  nscount: number
  arcount: number
  requestSize: number
  responseSize: number
  responseMicros: number
}

/** Where the samples go (the store, wired in `cli/serve.ts`). */
export interface RawSampleWriter {
  /** Add the rows, all or nothing (one transaction); resolves to the rows added (an id already stored is left out). */
  add (rows: readonly RawSample[]): Promise<number>
}

export interface RawSampleSinkOptions {
  /** Responses kept per second of answering (`ZONAL_ANALYTICS_RAW_PER_SECOND`), error responses not counted. */
  perSecond: number
  /** How often the samples are written, milliseconds (`ZONAL_ANALYTICS_FLUSH_SECONDS`). */
  flushMs: number
  /**
   * Samples held at most (waiting for a write, or kept after failed ones); beyond it the oldest
   * are dropped and counted. Default: 10 flushes' worth of the budget, at least 10,000.
   */
  maxPending?: number
  /** Told of each failed write. */
  onError?: (err: unknown) => void
  /** Uniform in [0, 1) (tests give their own). */
  random?: () => number
  /** The wall clock, ms (tests give their own). */
  now?: () => number
}

/** What the sink has done since it started. */
export interface RawSampleStats {
  /** Responses seen (every one of every batch). */
  seen: number
  /** Samples written to the store. */
  written: number
  /** Samples dropped: more than `maxPending` waiting (writes failing or errors flooding). */
  dropped: number
  /** Samples the store already had (a packet id written twice): not added. */
  duplicate: number
}

/**
 * What a {@link RawSampleSink} hands over: each second's reservoir as [second since the epoch,
 * responses without error seen, the sample of them], the error responses kept, and the samples
 * it dropped since the last hand-over. Samples carry no packet id yet (0), and their zone and
 * question name as wire keys (`finished` gives both as the sample is written).
 */
export interface RawPart {
  seconds: Array<[number, number, RawSample[]]>
  errors: RawSample[]
  dropped: number
}

/** Oldest first ('YYYY-MM-DDTHH:mm:ss.sssZ' sorts as it reads). */
function byTime (a: RawSample, b: RawSample): number {
  return a.time < b.time ? -1 : a.time > b.time ? 1 : 0
}

/** `n` of `items` drawn uniformly without replacement (the first `n` after a partial shuffle, in place). */
function pick<T> (items: T[], n: number, random: () => number): T[] {
  for (let k = 0; k < n; k++) {
    const j = k + Math.floor(random() * (items.length - k))
    const t = items[k]!
    items[k] = items[j]!
    items[j] = t
  }
  return items.slice(0, n)
}

/** A second's reservoir: how many responses without error it saw, and the sample of them. */
interface Reservoir {
  seen: number
  kept: RawSample[]
}

/**
 * Seconds a reservoir stays open after its second ends: DNS worker threads hand their captures
 * over every 250 ms and the collector every second, so a second's last responses arrive late.
 */
const GRACE_SECONDS = 3

/** Presentation names remembered by wire key (cleared when full). */
const NAME_CACHE_SIZE = 4096

/** 2026-01-01T00:00:00Z: packet ids count milliseconds from it. */
export const PACKET_EPOCH_MS = Date.UTC(2026, 0, 1)
/** Ids per millisecond and node before the next millisecond's are borrowed. */
const SEQUENCE = 32
/** Node numbers (a hash of the node name). */
const NODES = 256

/**
 * Packet ids for one node: `((ms since 2026-01-01 UTC) × 32 + sequence) × 256 + node`, where
 * node is an 8-bit hash of the node name and the sequence counts the samples of one
 * millisecond. A node's ids only grow: past 32 samples in a millisecond it takes the next
 * millisecond's (the time in an id is then a little late). Below 2^53 (a JSON number keeps it
 * exact) until 2060. Two nodes whose names hash alike may make one id in the same millisecond:
 * the store keeps the first and the sink counts the other as a duplicate.
 */
export function packetIds (node: string): (timeMs: number) => number {
  let h = 0x811c9dc5
  for (let i = 0; i < node.length; i++) h = Math.imul(h ^ node.charCodeAt(i), 0x01000193)
  const nodeNumber = (h >>> 0) % NODES
  let last = -1
  return (timeMs: number) => {
    const core = Math.max(last + 1, Math.max(0, Math.floor(timeMs) - PACKET_EPOCH_MS) * SEQUENCE)
    last = core
    return core * NODES + nodeNumber
  }
}

/**
 * Raw query samples for the raw query report: every response while a second has at most
 * `perSecond` of them, a uniform sample of `perSecond` (a reservoir per second, Vitter's
 * algorithm R) when it has more; every error response (rcode other than NOERROR and NXDOMAIN, which is an answer, not a
 * failure) is kept in addition, outside
 * the budget. A second's sample is complete once its second is {@link GRACE_SECONDS} past; every
 * `flushMs` the complete ones are written in one transaction. A failed write keeps its samples
 * for the next flush, up to `maxPending` samples in all: beyond it the oldest are dropped and
 * counted (`counts().dropped`). `close()` writes everything. Nothing here runs on the answer
 * path: the collector hands batches over from `setImmediate`, and a sample (one object) is
 * made only for a response kept.
 */
export class RawSampleSink extends FlushedCounts<RawSample[]> {
  private readonly writer: RawSampleWriter
  protected override readonly opts: RawSampleSinkOptions
  private readonly random: () => number
  private readonly now: () => number
  private readonly maxPending: number
  /** By second since the epoch. */
  private readonly open = new Map<number, Reservoir>()
  /** Samples of closed seconds and error responses, oldest first, waiting for a write. */
  private pending: RawSample[] = []
  /** Samples held in open reservoirs. */
  private held = 0
  private readonly ids = new Map<string, (timeMs: number) => number>()
  private readonly names = new Map<string, string>()
  private lastMs = -1
  private lastIso = ''
  private readonly stats: RawSampleStats = { seen: 0, written: 0, dropped: 0, duplicate: 0 }
  /** `stats.dropped` at the last hand-over. */
  private handedDropped = 0
  /** The flush under way writes every second, open ones included (`flush(true)`, `close()`). */
  private flushingAll = false

  constructor (writer: RawSampleWriter, opts: RawSampleSinkOptions) {
    if (!(opts.perSecond >= 1)) throw new RangeError('a raw sample budget is at least 1 per second')
    super(opts)
    this.writer = writer
    this.opts = opts
    this.random = opts.random ?? Math.random
    this.now = opts.now ?? Date.now
    this.maxPending = opts.maxPending ?? Math.max(10_000, 10 * opts.perSecond * Math.ceil(opts.flushMs / 1000))
  }

  /** Counts so far (a copy). */
  counts (): RawSampleStats {
    return { ...this.stats }
  }

  write (batch: QueryBatch): void {
    const budget = this.opts.perSecond
    this.stats.seen += batch.length
    let second = -1
    let reservoir: Reservoir | undefined
    for (let i = 0; i < batch.length; i++) {
      const rcode = batch.rcode[i]!
      if (rcode !== 0 && rcode !== 3) {
        this.pending.push(this.sample(batch, i))
        continue
      }
      const s = Math.floor(batch.time[i]! / 1000)
      if (s !== second || reservoir === undefined) {
        second = s
        reservoir = this.open.get(s)
        if (reservoir === undefined) this.open.set(s, reservoir = { seen: 0, kept: [] })
      }
      const seen = ++reservoir.seen
      if (seen <= budget) {
        reservoir.kept.push(this.sample(batch, i))
        this.held++
      } else {
        const j = Math.floor(this.random() * seen)
        if (j < budget) reservoir.kept[j] = this.sample(batch, i)
      }
    }
    this.bound()
  }

  private sample (b: QueryBatch, i: number): RawSample {
    const time = b.time[i]!
    const flags = b.flags[i]!
    // Queries come in time order: many share a millisecond, and its text.
    const ms = Math.floor(time)
    if (ms !== this.lastMs) {
      this.lastMs = ms
      this.lastIso = new Date(ms).toISOString()
    }
    const iso = this.lastIso
    const zone = b.zone[i]!
    const qname = b.qname[i]!
    return {
      day: iso.slice(0, 10),
      // Given when the sample is written (`finished`): a reservoir's samples may yet be replaced.
      packetId: 0,
      time: iso,
      node: b.node,
      // Wire keys until the sample is kept for good (`finished`): most samples of a busy second
      // are replaced before then, and a name's text costs more than the rest of the sample.
      zone,
      qname,
      qtype: b.qtype[i]!,
      opcode: b.opcode[i]!,
      rcode: b.rcode[i]!,
      flags: flags & ~(QueryFlag.TCP | QueryFlag.IPV6),
      transport: (flags & QueryFlag.TCP) !== 0 ? 'tcp' : 'udp',
      ipVersion: (flags & QueryFlag.IPV6) !== 0 ? 6 : 4,
      address: b.address[i]!,
      port: b.port[i]!,
      ecsAddress: b.ecsAddress[i]!,
      ecsPrefix: b.ecsPrefix[i]!,
      dnsId: b.dnsId[i]!,
      qdcount: b.qdcount[i]!,
      ancount: b.ancount[i]!,
      nscount: b.nscount[i]!,
      arcount: b.arcount[i]!,
      requestSize: b.requestSize[i]!,
      responseSize: b.responseSize[i]!,
      responseMicros: b.responseMicros[i]!
    }
  }

  /**
   * The sample as it is written: its zone and question name in presentation form, and its packet
   * id, given on the thread that writes it as it is taken to be written (in time order, so a
   * node's ids follow the times). A sample given back by a failed write is finished already.
   */
  private finished (sample: RawSample): RawSample {
    if (sample.packetId !== 0) return sample
    let ids = this.ids.get(sample.node)
    if (ids === undefined) this.ids.set(sample.node, ids = packetIds(sample.node))
    sample.zone = this.nameOf(sample.zone)
    sample.qname = this.nameOf(sample.qname)
    sample.packetId = ids(Date.parse(sample.time))
    return sample
  }

  /**
   * The reservoirs of the seconds before `before` (every one when undefined) and the error
   * responses kept since the last hand-over, taken out, unfinished (a DNS worker thread hands
   * them to the main thread's sink, which {@link absorb}s them and finishes what it writes). The
   * second being answered stays until it is over: it then goes over once, at most the budget.
   */
  handOver (before?: number): RawPart | undefined {
    const seconds = [...this.open].filter(([second]) => before === undefined || second < before)
    if (seconds.length === 0 && this.pending.length === 0) return undefined
    const part: RawPart = {
      seconds: seconds.map(([second, r]) => [second, r.seen, r.kept]),
      errors: this.pending,
      dropped: this.stats.dropped - this.handedDropped
    }
    for (const [second, r] of seconds) {
      this.open.delete(second)
      this.held -= r.kept.length
    }
    this.pending = []
    this.handedDropped = this.stats.dropped
    return part
  }

  /**
   * Add what another thread's sink handed over: its error responses to the samples to write,
   * and each second's reservoir merged with this sink's of the same second into one uniform
   * sample of both (of the budget's size at most): which of the two each kept response comes
   * from is drawn as a draw without replacement from all the responses of both would fall.
   */
  absorb (part: RawPart): void {
    this.stats.dropped += part.dropped
    this.stats.seen += part.errors.length
    for (const sample of part.errors) this.pending.push(sample)
    for (const [second, seen, kept] of part.seconds) {
      this.stats.seen += seen
      const r = this.open.get(second)
      if (r === undefined) {
        this.open.set(second, { seen, kept })
        this.held += kept.length
        continue
      }
      const size = Math.min(r.seen + seen, this.opts.perSecond)
      let mine = r.seen
      let theirs = seen
      let fromMine = 0
      for (let k = 0; k < size; k++) {
        if (this.random() * (mine + theirs) < mine) {
          fromMine++
          mine--
        } else theirs--
      }
      const merged = pick(r.kept, fromMine, this.random).concat(pick(kept, size - fromMine, this.random))
      this.held += merged.length - r.kept.length
      r.seen += seen
      r.kept = merged
    }
    this.bound()
  }

  /** A wire key's presentation name ('' for ''), from a cache: zones and popular names repeat. */
  private nameOf (key: string): string {
    if (key === '') return ''
    let name = this.names.get(key)
    if (name === undefined) {
      if (this.names.size >= NAME_CACHE_SIZE) this.names.clear()
      name = nameOfKey(key)
      this.names.set(key, name)
    }
    return name
  }

  /** Move the reservoirs of seconds before `before` (all of them when undefined) to the pending samples. */
  private closeSeconds (before?: number): void {
    const seconds = [...this.open.keys()].filter(s => before === undefined || s < before).sort((a, b) => a - b)
    for (const s of seconds) {
      const r = this.open.get(s)!
      this.open.delete(s)
      this.held -= r.kept.length
      for (const sample of r.kept) this.pending.push(sample)
    }
    this.bound()
  }

  /** Drop the oldest pending samples beyond `maxPending` (with the open reservoirs' counted in). */
  private bound (): void {
    const over = this.pending.length + this.held - this.maxPending
    if (over <= 0) return
    const n = Math.min(over, this.pending.length)
    this.pending.splice(0, n)
    this.stats.dropped += n
  }

  /** Samples waiting for a write (the closed seconds' and the error responses), oldest first; for tests. */
  waiting (): readonly RawSample[] {
    return this.pending
  }

  /**
   * Write the samples of the seconds now complete (with `all`, of every second), and the error
   * responses, in one transaction. On failure they are kept for the next flush (up to `maxPending`) and the error is rethrown.
   */
  override async flush (all = false): Promise<void> {
    if (!all) return await super.flush()
    this.flushingAll = true
    try {
      await super.flush()
    } finally {
      this.flushingAll = false
    }
  }

  protected take (): RawSample[] | undefined {
    this.closeSeconds(this.flushingAll ? undefined : Math.floor(this.now() / 1000) - GRACE_SECONDS)
    if (this.pending.length === 0) return undefined
    const taken = this.pending
    this.pending = []
    taken.sort(byTime)
    return taken.map(sample => this.finished(sample))
  }

  protected async send (taken: RawSample[]): Promise<void> {
    const added = await this.writer.add(taken)
    this.stats.written += added
    this.stats.duplicate += taken.length - added
  }

  protected restore (taken: RawSample[]): void {
    this.pending = taken.concat(this.pending)
    this.bound()
  }

  /** Stop the periodic flush and write everything, open seconds included. */
  override async close (): Promise<void> {
    this.flushingAll = true
    await super.close()
  }
}
