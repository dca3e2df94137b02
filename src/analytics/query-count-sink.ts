import { nameOfKey, type QueryBatch } from './query-batch.ts'
import { FlushedCounts, type FlushedCountsOptions } from './flushed-counts.ts'
import { addCounts, countQuery, dayOf, dayText, rcodeCounts, volumeCounts, WIDTH } from './query-counters.ts'

export { COUNTED_TYPES, RCODE_COLUMNS, VOLUME_COLUMNS } from './query-counters.ts'

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

/** What a {@link QueryCountSink} hands over (structured-cloneable: maps and typed arrays). */
export type QueryCounted = Counted

interface Entry {
  day: number
  zone: string
  node: string
  counts: Float64Array
}

export type QueryCountSinkOptions = FlushedCountsOptions

/**
 * Query volume and response codes per (UTC day, zone, node), aggregated in memory from the
 * batch columns (a counting array per distinct key, nothing allocated per query) and added to
 * the store every `flushMs` in one transaction. A failed write keeps its counts, merged into
 * what was counted since, for the next flush; `close()` writes what is left.
 */
export class QueryCountSink extends FlushedCounts<Counted> {
  /** By node, day (days since the epoch, UTC) and zone wire key: look-ups build no key string. */
  private entries: Counted = new Map()
  private readonly writer: QueryCountWriter

  constructor (writer: QueryCountWriter, opts: QueryCountSinkOptions) {
    super(opts)
    this.writer = writer
  }

  write (batch: QueryBatch): void {
    const node = batch.node
    // Queries come in runs of the same zone and day: one map look-up per run.
    let entry: Entry | undefined
    for (let i = 0; i < batch.length; i++) {
      const day = dayOf(batch.time[i]!)
      const zone = batch.zone[i]!
      if (entry === undefined || entry.day !== day || entry.zone !== zone) entry = entryIn(this.entries, day, zone, node)
      countQuery(entry.counts, batch, i)
    }
  }

  /**
   * What was counted since the last hand-over or flush, taken out (a DNS worker thread hands it
   * to the main thread's sink, which {@link absorb}s it); undefined when nothing was.
   */
  handOver (): QueryCounted | undefined {
    return this.take()
  }

  /** Add what another thread's sink handed over to what this one counted. */
  absorb (part: QueryCounted): void {
    this.restore(part)
  }

  /** The counts not yet written, as rows (zero counters left out). */
  pending (): { volume: QueryCountRow[], rcodes: QueryCountRow[] } {
    return rowsOf(this.entries)
  }

  protected take (): Counted | undefined {
    if (this.entries.size === 0) return undefined
    const taken = this.entries
    this.entries = new Map()
    return taken
  }

  protected async send (taken: Counted): Promise<void> {
    await this.writer.add(rowsOf(taken))
  }

  protected restore (taken: Counted): void {
    for (const e of entriesOf(taken)) addCounts(entryIn(this.entries, e.day, e.zone, e.node).counts, e.counts)
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
    const day = dayText(e.day)
    const zone = e.zone === '' ? '' : nameOfKey(e.zone)
    volume.push({ day, zone, node: e.node, counts: volumeCounts(e.counts) })
    rcodes.push({ day, zone, node: e.node, counts: rcodeCounts(e.counts) })
  }
  return { volume, rcodes }
}
