import { nameOfKey, type QueryBatch } from './query-batch.ts'
import { FlushedCounts, type FlushedCountsOptions } from './flushed-counts.ts'
import { addCounts, countQuery, dayOf, dayText, rcodeCounts, volumeCounts, WIDTH } from './query-counters.ts'

/**
 * The host the queries of a zone are counted under once the zone (or the sink) has as many
 * distinct hosts in memory as allowed until the next flush. Not a name in presentation form
 * (those end with a dot and escape spaces), so it never stands for a real host.
 */
export const OVERFLOW_HOST = '(other hosts)'

/** The overflow host's key in memory: no question name has an empty wire key. */
const OVERFLOW_KEY = ''

/** One row of counts per host: the key and the counters to add (volume and rcode columns); zeros left out. */
export interface HostCountRow {
  /** 'YYYY-MM-DD', UTC. */
  day: string
  /** The zone's presentation name (`example.org.`). */
  zone: string
  /** The question name in presentation form, lower-cased (`www.example.org.`), or {@link OVERFLOW_HOST}. */
  host: string
  node: string
  counts: Record<string, number>
}

/** Where the per-host counts go (the store, wired in `cli/serve.ts`). */
export interface HostCountWriter {
  /** Add the rows to what is stored, all or nothing (one transaction); reject on failure. */
  add (rows: HostCountRow[]): Promise<void>
}

export interface HostCountSinkOptions extends FlushedCountsOptions {
  /** Distinct hosts of one zone kept in memory until the next flush; more go to the overflow host. */
  maxHostsPerZone: number
  /** Distinct hosts of all zones kept in memory until the next flush. */
  maxHosts: number
}

/** The hosts of one (day, zone, node): question name key → the host's row in the slab. */
interface ZoneHosts {
  day: number
  zone: string
  node: string
  hosts: Map<string, number>
  /** The overflow host's row (also in `hosts` under the overflow key once used); -1 before. */
  overflow: number
  /** Distinct hosts of the zone in memory, all days and nodes (shared by the zone's entries). */
  inZone: { n: number }
}

/**
 * Every host's counters live in one array, a row of {@link WIDTH} each (a host's row at
 * `row × WIDTH`): one object however many hosts, so the garbage collector sees one array, and a
 * hand-over to the main thread copies one buffer instead of a typed array per host.
 */
interface Counted {
  /** Node → day → zone key → hosts. */
  entries: Map<string, Map<number, Map<string, ZoneHosts>>>
  /** Distinct hosts in memory by zone key (all days and nodes), the overflow host not included. */
  perZone: Map<string, { n: number }>
  hosts: number
  slab: Float64Array
  /** Rows of the slab in use. */
  rows: number
}

/** Rows a new slab has room for; it doubles when full. */
const FIRST_ROWS = 64

/** What a {@link HostCountSink} hands over (structured-cloneable), and its overflowed queries since the last hand-over. */
export interface HostCounted { counted: Counted, overflowed: number }

function emptyCounted (): Counted {
  return { entries: new Map(), perZone: new Map(), hosts: 0, slab: new Float64Array(FIRST_ROWS * WIDTH), rows: 0 }
}

/** A new zeroed row of the slab (grown when full): its offset. */
function newRow (c: Counted): number {
  if ((c.rows + 1) * WIDTH > c.slab.length) {
    const grown = new Float64Array(c.slab.length * 2)
    grown.set(c.slab)
    c.slab = grown
  }
  return c.rows++ * WIDTH
}

/**
 * Query volume and response codes per (UTC day, zone, host, node), the host being the question
 * name, for the host report and the NXDOMAIN report. Queries no zone answered are not counted
 * here. Distinct hosts in memory are bounded (a random-subdomain flood makes each query a new
 * host): past `maxHostsPerZone` for a zone or `maxHosts` in all, until the next flush, a
 * query is counted under {@link OVERFLOW_HOST} of its (day, zone, node) and in `overflowed`.
 */
export class HostCountSink extends FlushedCounts<Counted> {
  private counted: Counted = emptyCounted()
  private readonly writer: HostCountWriter
  private readonly limits: { perZone: number, all: number }
  private overflowedQueries = 0
  /** `overflowedQueries` at the last hand-over. */
  private handedOverflow = 0

  constructor (writer: HostCountWriter, opts: HostCountSinkOptions) {
    super(opts)
    this.writer = writer
    this.limits = { perZone: opts.maxHostsPerZone, all: opts.maxHosts }
  }

  /** Queries counted under the overflow host since start. */
  get overflowed (): number {
    return this.overflowedQueries
  }

  write (batch: QueryBatch): void {
    const node = batch.node
    // Queries come in runs of the same zone and day: one look-up of the zone per run.
    let entry: ZoneHosts | undefined
    for (let i = 0; i < batch.length; i++) {
      const zone = batch.zone[i]!
      if (zone === '') continue
      const day = dayOf(batch.time[i]!)
      if (entry === undefined || entry.day !== day || entry.zone !== zone) entry = this.entry(day, zone, node)
      // A host past the limits is looked up again for each of its queries (it is not kept).
      let at = entry.hosts.get(batch.qname[i]!)
      if (at === undefined) {
        at = this.newHost(entry, batch.qname[i]!)
        if (at === entry.overflow) this.overflowedQueries++
      }
      countQuery(this.counted.slab, batch, i, at)
    }
  }

  private entry (day: number, zone: string, node: string): ZoneHosts {
    const entries = this.counted.entries
    let days = entries.get(node)
    if (days === undefined) entries.set(node, days = new Map())
    let zones = days.get(day)
    if (zones === undefined) days.set(day, zones = new Map())
    let e = zones.get(zone)
    if (e === undefined) {
      let inZone = this.counted.perZone.get(zone)
      if (inZone === undefined) this.counted.perZone.set(zone, inZone = { n: 0 })
      zones.set(zone, e = { day, zone, node, hosts: new Map(), overflow: -1, inZone })
    }
    return e
  }

  /** The row of a host not yet in `entry`: its own while the limits allow, else the overflow host's. */
  private newHost (entry: ZoneHosts, host: string): number {
    const c = this.counted
    if (host === OVERFLOW_KEY || entry.inZone.n >= this.limits.perZone || c.hosts >= this.limits.all) {
      if (entry.overflow === -1) entry.hosts.set(OVERFLOW_KEY, entry.overflow = newRow(c))
      return entry.overflow
    }
    entry.inZone.n++
    c.hosts++
    const at = newRow(c)
    entry.hosts.set(host, at)
    return at
  }

  /**
   * What was counted since the last hand-over or flush, taken out (a DNS worker thread hands it
   * to the main thread's sink, which {@link absorb}s it), with the queries it counted under the
   * overflow host; undefined when nothing was counted.
   */
  handOver (): HostCounted | undefined {
    const counted = this.take()
    if (counted === undefined) return undefined
    const overflowed = this.overflowedQueries - this.handedOverflow
    this.handedOverflow = this.overflowedQueries
    return { counted, overflowed }
  }

  /**
   * Add what another thread's sink handed over to what this one counted, within this sink's
   * limits (hosts beyond them go to the overflow host here too).
   */
  absorb (part: HostCounted): void {
    this.overflowedQueries += part.overflowed
    this.restore(part.counted)
  }

  /** The counts not yet written, as rows. */
  pending (): HostCountRow[] {
    return rowsOf(this.counted)
  }

  protected take (): Counted | undefined {
    if (this.counted.entries.size === 0) return undefined
    const taken = this.counted
    this.counted = emptyCounted()
    return taken
  }

  protected async send (taken: Counted): Promise<void> {
    await this.writer.add(rowsOf(taken))
  }

  protected restore (taken: Counted): void {
    for (const e of entriesOf(taken)) {
      const now = this.entry(e.day, e.zone, e.node)
      for (const [host, from] of e.hosts) {
        let into = now.hosts.get(host)
        if (into === undefined) {
          into = this.newHost(now, host)
          // The total is the row's first counter.
          if (host !== OVERFLOW_KEY && into === now.overflow) this.overflowedQueries += taken.slab[from]!
        }
        addCounts(this.counted.slab, taken.slab, into, from)
      }
    }
  }
}

function * entriesOf (counted: Counted): Generator<ZoneHosts> {
  for (const days of counted.entries.values()) for (const zones of days.values()) yield * zones.values()
}

function rowsOf (counted: Counted): HostCountRow[] {
  const rows: HostCountRow[] = []
  for (const e of entriesOf(counted)) {
    const day = dayText(e.day)
    const zone = nameOfKey(e.zone)
    for (const [key, at] of e.hosts) {
      rows.push({ day, zone, host: key === OVERFLOW_KEY ? OVERFLOW_HOST : nameOfKey(key), node: e.node, counts: { ...volumeCounts(counted.slab, at), ...rcodeCounts(counted.slab, at) } })
    }
  }
  return rows
}
