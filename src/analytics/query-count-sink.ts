import { QueryFlag } from '../dns/server/query-capture.ts'
import type { QueryBatch } from './query-batch.ts'
import { nameOfKey } from './query-batch.ts'
import type { QuerySink } from './query-sink.ts'

/** The record types the query volume report counts one by one (spec: `record<Type>`), by qtype. */
export const COUNTED_TYPES: ReadonlyArray<readonly [string, number]> = [
  ['a', 1], ['a6', 38], ['aaaa', 28], ['any', 255], ['axfr', 252], ['cert', 37], ['cname', 5],
  ['dlv', 32769], ['dnskey', 48], ['hinfo', 13], ['ipseckey', 45], ['ixfr', 251], ['loc', 29],
  ['mf', 4], ['naptr', 35], ['mx', 15], ['ns', 2], ['nsec', 47], ['nsec3', 50], ['nsec3param', 51],
  ['rp', 17], ['ptr', 12], ['rrsig', 46], ['soa', 6], ['spf', 99], ['srv', 33], ['sshfp', 44],
  ['ta', 32768], ['tsig', 250], ['tkey', 249], ['txt', 16], ['https', 65], ['svcb', 64]
]

/** The query volume counters, in the order of a row's counting array. */
export const VOLUME_COLUMNS: readonly string[] = [
  'rsp_total', 'tcp', 'udp', 'ipv4', 'ipv6', 'ipv4_tcp', 'ipv4_udp', 'ipv6_tcp', 'ipv6_udp',
  ...COUNTED_TYPES.map(([name]) => `type_${name}`)
]

/** The response code counters, in the order of a row's counting array (after the volume ones). */
export const RCODE_COLUMNS: readonly string[] = ['noerror', 'formerr', 'servfail', 'nxdomain', 'notimp', 'refused', 'other']

const TOTAL = 0
const TCP = 1
const UDP = 2
const IPV4 = 3
const IPV6 = 4
/** ipv4_tcp; ipv4_udp, ipv6_tcp and ipv6_udp follow. */
const FAMILY_TRANSPORT = 5
const FIRST_TYPE = 9
const FIRST_RCODE = VOLUME_COLUMNS.length
const OTHER_RCODE = FIRST_RCODE + RCODE_COLUMNS.length - 1
const WIDTH = FIRST_RCODE + RCODE_COLUMNS.length

/** Column index of each qtype counted one by one, 0 (the total, already counted) for the rest. */
const TYPE_COLUMN = new Uint8Array(65536)
COUNTED_TYPES.forEach(([, qtype], i) => { TYPE_COLUMN[qtype] = FIRST_TYPE + i })

const DAY_MS = 86_400_000

/** One row of counts: the key and the counters to add, by column; zero counters are left out. */
export interface QueryCountRow {
  /** 'YYYY-MM-DD', UTC. */
  day: string
  /** The zone's presentation name (`example.org.`); '' for queries no zone answered. */
  zone: string
  node: string
  counts: Record<string, number>
}

/** Where the aggregated counts go (the store, wired in `cli/serve.ts`). */
export interface QueryCountWriter {
  /** Add the rows to what is stored, all or nothing (one transaction); reject on failure. */
  add (flush: { volume: QueryCountRow[], rcodes: QueryCountRow[] }): Promise<void>
}

/** Node → day → zone → counts. */
type Counted = Map<string, Map<number, Map<string, Entry>>>

interface Entry {
  day: number
  zone: string
  node: string
  counts: Float64Array
}

export interface QueryCountSinkOptions {
  /** How often the counts are written, milliseconds. */
  flushMs: number
  /** Told of each failed write (the counts are kept and written with the next flush). */
  onError?: (err: unknown) => void
}

/**
 * Query volume and response codes per (UTC day, zone, node), aggregated in memory from the
 * batch columns (a counting array per distinct key, nothing allocated per query) and added to
 * the store every `flushMs` in one transaction. A failed write keeps its counts, merged into
 * what was counted since, for the next flush; `close()` writes what is left.
 */
export class QueryCountSink implements QuerySink {
  /** By node, day (days since the epoch, UTC) and zone wire key: look-ups build no key string. */
  private entries: Counted = new Map()
  private readonly writer: QueryCountWriter
  private readonly opts: QueryCountSinkOptions
  private timer: NodeJS.Timeout | undefined
  /** The write in progress, so flushes never overlap. */
  private writing: Promise<void> = Promise.resolve()

  constructor (writer: QueryCountWriter, opts: QueryCountSinkOptions) {
    this.writer = writer
    this.opts = opts
  }

  /** Start the periodic flush. */
  start (): void {
    if (this.timer !== undefined) return
    this.timer = setInterval(() => { this.flush().catch(() => {}) }, this.opts.flushMs)
    this.timer.unref()
  }

  write (batch: QueryBatch): void {
    const node = batch.node
    // Queries come in runs of the same zone and day: one map look-up per run.
    let entry: Entry | undefined
    for (let i = 0; i < batch.length; i++) {
      const day = Math.floor(batch.time[i]! / DAY_MS)
      const zone = batch.zone[i]!
      if (entry === undefined || entry.day !== day || entry.zone !== zone) entry = this.entry(day, zone, node)
      const c = entry.counts
      const flags = batch.flags[i]!
      const tcp = (flags & QueryFlag.TCP) !== 0 ? 1 : 0
      const v6 = (flags & QueryFlag.IPV6) !== 0 ? 1 : 0
      c[TOTAL]!++
      c[tcp === 1 ? TCP : UDP]!++
      c[v6 === 1 ? IPV6 : IPV4]!++
      c[FAMILY_TRANSPORT + v6 * 2 + (1 - tcp)]!++
      const type = TYPE_COLUMN[batch.qtype[i]!]!
      if (type !== 0) c[type]!++
      const rcode = batch.rcode[i]!
      c[rcode <= 5 ? FIRST_RCODE + rcode : OTHER_RCODE]!++
    }
  }

  private entry (day: number, zone: string, node: string): Entry {
    return entryIn(this.entries, day, zone, node)
  }

  /** The counts not yet written, as rows (zero counters left out). */
  pending (): { volume: QueryCountRow[], rcodes: QueryCountRow[] } {
    return rowsOf(this.entries)
  }

  /**
   * Write what was counted so far in one transaction. On failure the counts are kept (merged
   * into what was counted meanwhile) for the next flush, and the error is rethrown.
   */
  async flush (): Promise<void> {
    const run = this.writing.then(async () => {
      if (this.entries.size === 0) return
      const taken = this.entries
      this.entries = new Map()
      try {
        await this.writer.add(rowsOf(taken))
      } catch (err) {
        for (const e of entriesOf(taken)) {
          const now = this.entry(e.day, e.zone, e.node).counts
          for (let i = 0; i < WIDTH; i++) now[i]! += e.counts[i]!
        }
        this.opts.onError?.(err)
        throw err
      }
    })
    this.writing = run.catch(() => {})
    await run
  }

  /** Stop the periodic flush and write what is left. */
  async close (): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.flush()
  }
}

function entryIn (counted: Counted, day: number, zone: string, node: string): Entry {
  let days = counted.get(node)
  if (days === undefined) counted.set(node, days = new Map())
  let zones = days.get(day)
  if (zones === undefined) days.set(day, zones = new Map())
  let e = zones.get(zone)
  if (e === undefined) zones.set(zone, e = { day, zone, node, counts: new Float64Array(WIDTH) })
  return e
}

function * entriesOf (counted: Counted): Generator<Entry> {
  for (const days of counted.values()) for (const zones of days.values()) yield * zones.values()
}

function rowsOf (counted: Counted): { volume: QueryCountRow[], rcodes: QueryCountRow[] } {
  const volume: QueryCountRow[] = []
  const rcodes: QueryCountRow[] = []
  for (const e of entriesOf(counted)) {
    const day = new Date(e.day * DAY_MS).toISOString().slice(0, 10)
    const zone = e.zone === '' ? '' : nameOfKey(e.zone)
    const v: Record<string, number> = {}
    VOLUME_COLUMNS.forEach((col, i) => { if (e.counts[i] !== 0) v[col] = e.counts[i]! })
    const r: Record<string, number> = {}
    RCODE_COLUMNS.forEach((col, i) => { if (e.counts[FIRST_RCODE + i] !== 0) r[col] = e.counts[FIRST_RCODE + i]! })
    volume.push({ day, zone, node: e.node, counts: v })
    rcodes.push({ day, zone, node: e.node, counts: r })
  }
  return { volume, rcodes }
}
