import { setImmediate as yieldNow } from 'node:timers/promises'
import { type Geo, UNKNOWN } from './geoip.ts'
import { classCNetwork, clientAddress } from './networks.ts'
import type { QueryBatch } from './query-batch.ts'
import { nameOfKey } from './query-batch.ts'
import type { QuerySink } from './query-sink.ts'

/**
 * Responses per (UTC day, zone, client address, node, country, region, city): one row of the
 * client IP directional report's table. `classC` is the client address's network (`geoip.ts`
 * `classCNetwork`), the report's required filter. The overflow row of a (day, zone, node), where
 * queries from clients beyond the in-memory bound are counted, has clientIp, classC and the
 * place all ''.
 */
export interface ClientCountRow {
  /** 'YYYY-MM-DD', UTC. */
  day: string
  /** The zone's presentation name (`example.org.`); '' for queries no zone answered. */
  zone: string
  /** The address the query came from (IPv4-mapped IPv6 as IPv4). */
  clientIp: string
  node: string
  country: string
  region: string
  city: string
  classC: string
  responses: number
}

/** Where the counts go (the store, wired in `cli/serve.ts`). */
export interface ClientCountWriter {
  /** Add the rows to what is stored, all or nothing (one transaction); reject on failure. */
  add (rows: ClientCountRow[]): Promise<void>
}

/** What places an address (`GeoIp`; tests may give their own). */
export interface Locator {
  locate (address: string): Geo
}

export interface ClientCountSinkOptions {
  /** How often the counts are written, milliseconds. */
  flushMs: number
  /**
   * Distinct clients (a client address, or a client address and ECS subnet) counted in memory
   * between two flushes; the queries of further clients go to the overflow row of their
   * (day, zone, node).
   */
  maxClients: number
  /** The locator, opened on first need (the shipped database takes ~135 MB); undefined: no geography. */
  locator: () => Promise<Locator | undefined>
  /** Told of each failed write (the counts are kept and written with the next flush) and a locator that failed to open. */
  onError?: (err: unknown) => void
}

/** Queries of one client address in a (node, day, zone): without ECS, and by ECS subnet address. */
interface Client {
  plain: number
  ecs: Map<string, number> | undefined
}

/** Node → day (days since the epoch) → zone wire key → client address → counts. */
type Counted = Map<string, Map<number, Map<string, Map<string, Client>>>>
/** Node → day → zone wire key → queries counted in the overflow row. */
type Overflow = Map<string, Map<number, Map<string, number>>>

/** What a {@link ClientCountSink} hands over (structured-cloneable), and its overflowed queries since the last hand-over. */
export interface ClientPart { entries: Counted, overflow: Overflow, overflowed: number }

const DAY_MS = 86_400_000
/** Look-ups between two yields to the event loop while a flush places its clients. */
const LOCATE_SLICE = 2000

/**
 * Responses per day, zone, client and place, aggregated in memory from the batch columns and
 * added to the store every `flushMs` in one transaction. The place is looked up at flush time
 * (on the main thread, off the answer path; `GeoIp` caches it per address), from the query's
 * EDNS Client Subnet when it has one with a non-zero source prefix, else from the client
 * address. At most `maxClients` distinct clients are held between flushes; the queries of the
 * others are counted in one overflow row per (day, zone, node) (`overflowed`). A failed write
 * keeps its rows for the next flush; `close()` writes what is left.
 */
export class ClientCountSink implements QuerySink {
  private entries: Counted = new Map()
  private overflow: Overflow = new Map()
  private clients = 0
  /** Rows of failed writes, by key, written with the next flush. */
  private retry = new Map<string, ClientCountRow>()
  private readonly writer: ClientCountWriter
  private readonly opts: ClientCountSinkOptions
  private locating: Promise<Locator | undefined> | undefined
  private timer: NodeJS.Timeout | undefined
  private writing: Promise<void> = Promise.resolve()
  /** Queries counted in overflow rows since start (shown at /metrics). */
  overflowed = 0
  /** `overflowed` at the last hand-over. */
  private handedOverflow = 0

  constructor (writer: ClientCountWriter, opts: ClientCountSinkOptions) {
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
    const { ecsAddress, ecsPrefix } = batch
    let zones: Map<string, Map<string, Client>> | undefined
    let lastDay = -1
    let lastZone = ''
    let addresses: Map<string, Client> | undefined
    for (let i = 0; i < batch.length; i++) {
      const day = Math.floor(batch.time[i]! / DAY_MS)
      const zone = batch.zone[i]!
      if (addresses === undefined || day !== lastDay || zone !== lastZone) {
        if (zones === undefined || day !== lastDay) zones = this.zonesOf(node, day)
        addresses = zones.get(zone)
        if (addresses === undefined) zones.set(zone, addresses = new Map())
        lastDay = day
        lastZone = zone
      }
      const address = batch.address[i]!
      const ecs = ecsPrefix[i]! > 0 ? ecsAddress[i]! : ''
      let client = addresses.get(address)
      // A distinct client is an address without ECS, or an address and one ECS subnet.
      const seen = ecs === '' ? client !== undefined && client.plain > 0 : client?.ecs?.has(ecs) === true
      if (!seen) {
        if (this.clients >= this.opts.maxClients) {
          this.overflowed++
          this.countOverflow(node, day, zone)
          continue
        }
        this.clients++
        if (client === undefined) addresses.set(address, client = { plain: 0, ecs: undefined })
      }
      if (ecs === '') client!.plain++
      else {
        const subnets = client!.ecs ??= new Map()
        subnets.set(ecs, (subnets.get(ecs) ?? 0) + 1)
      }
    }
  }

  private zonesOf (node: string, day: number): Map<string, Map<string, Client>> {
    let days = this.entries.get(node)
    if (days === undefined) this.entries.set(node, days = new Map())
    let zones = days.get(day)
    if (zones === undefined) days.set(day, zones = new Map())
    return zones
  }

  private countOverflow (node: string, day: number, zone: string, n = 1): void {
    let days = this.overflow.get(node)
    if (days === undefined) this.overflow.set(node, days = new Map())
    let zones = days.get(day)
    if (zones === undefined) days.set(day, zones = new Map())
    zones.set(zone, (zones.get(zone) ?? 0) + n)
  }

  /**
   * What was counted since the last hand-over or flush, not yet placed, taken out (a DNS worker
   * thread hands it to the main thread's sink, which {@link absorb}s it and places the clients
   * when it writes); undefined when nothing was counted.
   */
  handOver (): ClientPart | undefined {
    if (this.entries.size === 0 && this.overflow.size === 0) return undefined
    const part = { entries: this.entries, overflow: this.overflow, overflowed: this.overflowed - this.handedOverflow }
    this.entries = new Map()
    this.overflow = new Map()
    this.clients = 0
    this.handedOverflow = this.overflowed
    return part
  }

  /**
   * Add what another thread's sink handed over to what this one counted, within this sink's
   * bound of distinct clients (the queries of clients beyond it go to the overflow rows).
   */
  absorb (part: ClientPart): void {
    this.overflowed += part.overflowed
    for (const [node, days] of part.entries) {
      for (const [day, zones] of days) {
        const into = this.zonesOf(node, day)
        for (const [zone, addresses] of zones) {
          let mine = into.get(zone)
          if (mine === undefined) into.set(zone, mine = new Map())
          for (const [address, client] of addresses) {
            let had = mine.get(address)
            const take = (isNew: boolean, n: number): boolean => {
              if (!isNew) return true
              if (this.clients >= this.opts.maxClients) {
                this.overflowed += n
                this.countOverflow(node, day, zone, n)
                return false
              }
              this.clients++
              if (had === undefined) mine.set(address, had = { plain: 0, ecs: undefined })
              return true
            }
            if (client.plain > 0 && take(had === undefined || had.plain === 0, client.plain)) had!.plain += client.plain
            if (client.ecs !== undefined) {
              for (const [subnet, n] of client.ecs) {
                if (!take(had?.ecs?.has(subnet) !== true, n)) continue
                const subnets = had!.ecs ??= new Map()
                subnets.set(subnet, (subnets.get(subnet) ?? 0) + n)
              }
            }
          }
        }
      }
    }
    for (const [node, days] of part.overflow) {
      for (const [day, zones] of days) for (const [zone, n] of zones) this.countOverflow(node, day, zone, n)
    }
  }

  /** Distinct clients held in memory now. */
  held (): number {
    return this.clients
  }

  private async locator (): Promise<Locator | undefined> {
    this.locating ??= this.opts.locator().catch((err: unknown) => {
      this.opts.onError?.(err)
      return undefined
    })
    return await this.locating
  }

  /**
   * Write what was counted so far in one transaction. On failure the rows are kept for the next
   * flush (merged with what is counted meanwhile), and the error is rethrown.
   */
  async flush (): Promise<void> {
    const run = this.writing.then(async () => {
      const entries = this.entries
      const overflow = this.overflow
      this.entries = new Map()
      this.overflow = new Map()
      this.clients = 0
      const rows = this.retry
      this.retry = new Map()
      await this.rowsInto(rows, entries, overflow)
      if (rows.size === 0) return
      try {
        await this.writer.add([...rows.values()])
      } catch (err) {
        // Kept for the next flush, within the same bound: while the database is down, the rows
        // of further clients fold into the overflow rows.
        for (const [key, row] of rows) {
          if (row.clientIp === '' || this.retry.has(key) || this.retry.size < this.opts.maxClients) {
            merge(this.retry, key, row)
          } else {
            const folded = { ...row, clientIp: '', classC: '', ...UNKNOWN }
            merge(this.retry, keyOf(folded), folded)
            this.overflowed += row.responses
          }
        }
        this.opts.onError?.(err)
        throw err
      }
    })
    this.writing = run.catch(() => {})
    await run
  }

  /** Place every counted client and add its rows to `rows`. */
  private async rowsInto (rows: Map<string, ClientCountRow>, entries: Counted, overflow: Overflow): Promise<void> {
    const locator = entries.size === 0 ? undefined : await this.locator()
    let located = 0
    for (const [node, days] of entries) {
      for (const [dayNumber, zones] of days) {
        const day = dayText(dayNumber)
        for (const [zoneKey, addresses] of zones) {
          const zone = zoneKey === '' ? '' : nameOfKey(zoneKey)
          for (const [address, client] of addresses) {
            const clientIp = clientAddress(address)
            const classC = classCNetwork(clientIp)
            if (client.plain > 0) add(rows, day, zone, clientIp, node, locator?.locate(clientIp) ?? UNKNOWN, classC, client.plain)
            if (client.ecs !== undefined) for (const [subnet, n] of client.ecs) add(rows, day, zone, clientIp, node, locator?.locate(subnet) ?? UNKNOWN, classC, n)
            // Look-ups run on the main thread: let the API and the capture in between.
            located += client.ecs === undefined ? 1 : 1 + client.ecs.size
            if (located >= LOCATE_SLICE) {
              located = 0
              await yieldNow()
            }
          }
        }
      }
    }
    for (const [node, days] of overflow) {
      for (const [dayNumber, zones] of days) {
        for (const [zoneKey, responses] of zones) {
          const row = { day: dayText(dayNumber), zone: zoneKey === '' ? '' : nameOfKey(zoneKey), clientIp: '', node, ...UNKNOWN, classC: '', responses }
          merge(rows, keyOf(row), row)
        }
      }
    }
  }

  /** Stop the periodic flush and write what is left. */
  async close (): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.flush()
  }
}

function dayText (day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}

function add (rows: Map<string, ClientCountRow>, day: string, zone: string, clientIp: string, node: string, geo: Geo, classC: string, responses: number): void {
  const key = `${day}\n${zone}\n${clientIp}\n${node}\n${geo.country}\n${geo.region}\n${geo.city}`
  const had = rows.get(key)
  if (had === undefined) rows.set(key, { day, zone, clientIp, node, country: geo.country, region: geo.region, city: geo.city, classC, responses })
  else had.responses += responses
}

function keyOf (r: ClientCountRow): string {
  return `${r.day}\n${r.zone}\n${r.clientIp}\n${r.node}\n${r.country}\n${r.region}\n${r.city}`
}

function merge (rows: Map<string, ClientCountRow>, key: string, row: ClientCountRow): void {
  const had = rows.get(key)
  if (had === undefined) rows.set(key, { ...row })
  else had.responses += row.responses
}
