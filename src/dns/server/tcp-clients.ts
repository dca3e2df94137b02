import { randomInt } from 'node:crypto'
import { parseAddress } from './client-address.ts'

/**
 * DNS-over-TCP connections per client, counted in one table every DNS thread shares (a
 * SharedArrayBuffer), so that a client's limit holds whichever worker the kernel hands each of
 * its connections to. A client is an IPv4 address or an IPv6 /64 (IPv4-mapped IPv6 counts as
 * IPv4). Counting happens when a connection is accepted and when it closes, never per query.
 *
 * The table keeps no addresses: a client's connections are counted in two counters picked by
 * two seeded hashes of its address (the seeds are random per table, so no one can choose
 * addresses that collide), and its count is the smaller of the two (a count-min sketch). Two
 * clients count together only when they collide in both, so a count may be high (a client
 * refused a little early), never low. Each thread also notes, in a region of its own, which
 * counters each of its open connections holds: a worker that dies takes its connections with
 * it, and {@link clearTcpClientRegion} gives back what they held.
 */

/** Header: two seeds, the counters per row, the number of regions, the entries per region. */
const HEADER = 5
const MIN_SLOTS = 4096
const MAX_SLOTS = 1 << 21
/** Counters per row for each connection the table holds (a sparse table collides rarely). */
const SLOTS_PER_CONNECTION = 16

/**
 * A table for `regions` threads (one per DNS worker, or one), each holding up to
 * `connectionsPerRegion` connections (its share of the connection limit).
 */
export function tcpClientBuffer (regions: number, connectionsPerRegion: number): SharedArrayBuffer {
  const entries = connectionsPerRegion + 1
  let slots = MIN_SLOTS
  while (slots < regions * connectionsPerRegion * SLOTS_PER_CONNECTION && slots < MAX_SLOTS) slots *= 2
  const buffer = new SharedArrayBuffer((HEADER + 2 * slots + regions * entries * 2) * 4)
  const table = new Int32Array(buffer)
  table[0] = randomInt(0x7fffffff)
  table[1] = randomInt(0x7fffffff)
  table[2] = slots
  table[3] = regions
  table[4] = entries
  for (let i = HEADER + 2 * slots; i < table.length; i += 2) table[i] = -1
  return buffer
}

/** Give back what one thread's connections held (the thread stopped; they closed with it). */
export function clearTcpClientRegion (buffer: SharedArrayBuffer, region: number): void {
  const table = new Int32Array(buffer)
  const slots = table[2]!
  const entries = table[4]!
  const start = HEADER + 2 * slots + region * entries * 2
  for (let i = start; i < start + entries * 2; i += 2) {
    const first = table[i]!
    if (first < 0) continue
    Atomics.sub(table, HEADER + first, 1)
    Atomics.sub(table, HEADER + slots + table[i + 1]!, 1)
    table[i] = -1
  }
}

/** Murmur3's finaliser over a seed and the address words. */
function mix (seed: number, a: number, b: number, family: number): number {
  let h = seed ^ family
  h = Math.imul(h ^ a, 0x9e3779b1)
  h ^= h >>> 15
  h = Math.imul(h ^ b, 0x85ebca77)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae3d)
  h ^= h >>> 16
  return h >>> 0
}

/** One thread's view of the shared table: it notes its connections in `region`. */
export class TcpClientCounts {
  private readonly table: Int32Array
  private readonly slots: number
  /** Where this thread's entries start (two numbers each: the counters held). */
  private readonly log: number
  /** Entries of the region not in use, as a stack. */
  private readonly free: Int32Array
  private freeTop: number
  private readonly address = new Uint8Array(16)
  private readonly view = new DataView(this.address.buffer)
  /** The counters {@link locate} picked, one in each row. */
  private first = 0
  private second = 0

  constructor (buffer: SharedArrayBuffer, region = 0) {
    this.table = new Int32Array(buffer)
    this.slots = this.table[2]!
    const regions = this.table[3]!
    const entries = this.table[4]!
    if (region < 0 || region >= regions) throw new RangeError(`no region ${region} in a table of ${regions}`)
    this.log = HEADER + 2 * this.slots + region * entries * 2
    this.free = new Int32Array(entries)
    this.freeTop = 0
    for (let e = entries - 1; e >= 0; e--) {
      if (this.table[this.log + e * 2]! < 0) this.free[this.freeTop++] = e
    }
  }

  /**
   * Count a new connection from `address` (as Node reports it) unless the client already has
   * `limit` connections open, in this thread or any other.
   *
   * @returns a ticket for {@link release}, or -1 when the client is at its limit (nothing counted).
   */
  acquire (address: string, limit: number): number {
    if (this.freeTop === 0) return -1
    this.locate(address)
    // Count first, then look: two threads taking a client's last place at once may both
    // refuse, but never both accept.
    const inFirst = Atomics.add(this.table, HEADER + this.first, 1) + 1
    const inSecond = Atomics.add(this.table, HEADER + this.slots + this.second, 1) + 1
    if (Math.min(inFirst, inSecond) > limit) {
      Atomics.sub(this.table, HEADER + this.first, 1)
      Atomics.sub(this.table, HEADER + this.slots + this.second, 1)
      return -1
    }
    const entry = this.free[--this.freeTop]!
    this.table[this.log + entry * 2 + 1] = this.second
    Atomics.store(this.table, this.log + entry * 2, this.first)
    return entry
  }

  /** Uncount a connection counted by {@link acquire} (it closed). */
  release (ticket: number): void {
    const at = this.log + ticket * 2
    const first = this.table[at]!
    if (first < 0) return
    Atomics.sub(this.table, HEADER + first, 1)
    Atomics.sub(this.table, HEADER + this.slots + this.table[at + 1]!, 1)
    Atomics.store(this.table, at, -1)
    this.free[this.freeTop++] = ticket
  }

  /** Connections counted for `address` now, in all threads. */
  count (address: string): number {
    this.locate(address)
    return Math.min(Atomics.load(this.table, HEADER + this.first), Atomics.load(this.table, HEADER + this.slots + this.second))
  }

  /** Pick the client's two counters ({@link first}, {@link second}). */
  private locate (address: string): void {
    const length = parseAddress(address, this.address)
    let a = 0
    let b = 0
    // An unparseable address (never seen from a socket) counts as one client, 0.0.0.0.
    if (length === 4) a = this.view.getUint32(0)
    else if (length === 16) {
      a = this.view.getUint32(0)
      b = this.view.getUint32(4)
    }
    const mask = this.slots - 1
    this.first = mix(this.table[0]!, a, b, length) & mask
    this.second = mix(this.table[1]!, a, b, length) & mask
  }
}
