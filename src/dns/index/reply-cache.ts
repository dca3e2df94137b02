import type { CaseCheck } from '../wire/writer.ts'
import type { ZoneData } from './zone-data.ts'

/** The cached replies made from one zone's data: forgetting the zone empties it (lazily). */
interface Shelf {
  zone: ZoneData | undefined
}

/** A reply as made for one spelling of its question name (see {@link ReplyCache.get}). */
export interface CachedReply {
  bytes: Uint8Array
  /** The spelling had no upper-case letter. */
  lower: boolean
  /**
   * What another spelling must pass to get these bytes, encoded ({@link encodeChecks}: one
   * string costs far less memory than objects); undefined: the same octets only (`spelling`).
   */
  checks: string | undefined
  /** The question name's octets as spelled, for replies with no `checks`. */
  spelling: string
  entry: CachedEntry
}

/** One question (lower-cased), its zone and the replies made for its spellings. */
export interface CachedEntry {
  readonly key: string
  shelf: Shelf
  /** The zone's epoch when the replies were made: a changed zone's replies are stale. */
  epoch: number
  /** The question name's wire key (for the query capture). */
  nameKey: string
  variants: CachedReply[]
  /** Hits since eviction last looked at it, at most 3 (S3-FIFO). */
  freq: number
  /** The next entry in its FIFO (small or main), toward the tail. */
  next: CachedEntry | undefined
  /** Octets of its replies, with {@link REPLY_OVERHEAD} each. */
  bytes: number
}

/** Questions kept at most, and octets of memory (replies and their estimated overhead). */
export const MAX_CACHED_REPLIES = 250_000
export const MAX_CACHED_BYTES = 160 * 1024 * 1024
/**
 * Octets counted for a kept reply beyond its own: its objects, checks, key and map slot
 * (measured: about 590 per question with one 65-octet reply, 390 before 0x20 support).
 */
export const REPLY_OVERHEAD = 576
/** Replies kept per question for spellings that compress differently (0x20 case randomisation makes a few). */
export const MAX_SPELLINGS = 4

/**
 * Checks as one string: for each, its offset in the question name, 1 or 0 for `equal`, the
 * length of its octets, then the octets (all as char codes below 256).
 */
export function encodeChecks (checks: readonly CaseCheck[]): string {
  let size = 0
  for (const c of checks) size += 3 + c.octets.length
  // Written out and read back as one flat string (concatenation would keep every piece).
  const out = Buffer.allocUnsafe(size)
  let p = 0
  for (const c of checks) {
    out[p++] = c.at
    out[p++] = c.equal ? 1 : 0
    out[p++] = c.octets.length
    p += out.write(c.octets, p, 'latin1')
  }
  return out.toString('latin1', 0, p)
}

/** Whether a question name spelled as in `request` (octets 12 to `nameEnd`) gets `reply`. */
function fits (reply: CachedReply, request: Uint8Array, nameEnd: number): boolean {
  const checks = reply.checks
  if (checks === undefined) {
    const s = reply.spelling
    for (let i = 12; i < nameEnd; i++) if (request[i] !== s.charCodeAt(i - 12)) return false
    return true
  }
  let p = 0
  while (p < checks.length) {
    const base = 12 + checks.charCodeAt(p)
    const expected = checks.charCodeAt(p + 1) === 1
    const length = checks.charCodeAt(p + 2)
    p += 3
    let equal = true
    for (let j = 0; j < length; j++) {
      if (request[base + j] !== checks.charCodeAt(p + j)) {
        equal = false
        break
      }
    }
    if (equal !== expected) return false
    p += length
  }
  return true
}

const EMPTY: CachedReply[] = []

/** A FIFO of entries linked through their `next`. */
class Fifo {
  head: CachedEntry | undefined
  tail: CachedEntry | undefined
  size = 0

  push (e: CachedEntry): void {
    e.next = undefined
    if (this.tail === undefined) this.head = e
    else this.tail.next = e
    this.tail = e
    this.size++
  }

  shift (): CachedEntry {
    const e = this.head!
    this.head = e.next
    if (this.head === undefined) this.tail = undefined
    e.next = undefined
    this.size--
    return e
  }

  clear (): void {
    this.head = undefined
    this.tail = undefined
    this.size = 0
  }

  /** Unlink every entry `drop` says yes to (a walk of the whole FIFO). */
  remove (drop: (e: CachedEntry) => boolean): void {
    let prev: CachedEntry | undefined
    let e = this.head
    while (e !== undefined) {
      const next = e.next
      if (drop(e)) {
        if (prev === undefined) this.head = next
        else prev.next = next
        if (this.tail === e) this.tail = prev
        e.next = undefined
        this.size--
      } else {
        prev = e
      }
      e = next
    }
  }
}

/**
 * Replies kept as bytes, one entry per question with its name lower-cased (resolvers that
 * randomise case, "0x20", make no more entries), each entry holding the replies made for the
 * spellings that compress differently, with the checks that tell which one a spelling gets.
 *
 * Invalidation is per zone: an entry is stale when its zone's epoch moved (a change applied in
 * place); stale entries are replaced when asked again and dropped first by eviction. A zone
 * forgotten (replaced, removed, or a zone added below it) takes its entries out at once. Eviction is S3-FIFO (Yang et
 * al., SOSP 2023, without the ghost queue): new questions enter a small FIFO (a tenth), and
 * move to the main FIFO only if asked again before they reach its end; the main FIFO gives
 * each entry hit since it was last looked at another round. A flood of names asked once
 * churns the small FIFO only and never evicts the main one. A hit costs a counter increment.
 */
export class ReplyCache {
  private readonly entries = new Map<string, CachedEntry>()
  private readonly small = new Fifo()
  private readonly main = new Fifo()
  private readonly shelves = new WeakMap<ZoneData, Shelf>()
  private readonly smallTarget: number
  private octets = 0
  /** Requests answered from the cache, and cacheable requests that were not (for tests and metrics). */
  hits = 0
  misses = 0
  /** Entries dropped to stay within the limits. */
  evictions = 0

  readonly maxEntries: number
  readonly maxBytes: number

  constructor (maxEntries = MAX_CACHED_REPLIES, maxBytes = MAX_CACHED_BYTES) {
    this.maxEntries = maxEntries
    this.maxBytes = maxBytes
    this.smallTarget = Math.max(1, Math.floor(maxEntries / 10))
  }

  /** Questions cached (stale ones included until replaced or evicted). */
  get size (): number {
    return this.entries.size
  }

  /** Octets of the replies kept, with {@link REPLY_OVERHEAD} each. */
  get bytes (): number {
    return this.octets
  }

  keys (): IterableIterator<string> {
    return this.entries.keys()
  }

  /** The entry of `key` (see `handle-query.ts`), current or not. */
  entry (key: string): CachedEntry | undefined {
    return this.entries.get(key)
  }

  /**
   * The reply of `e` that fits the question name as spelled in `request` (octets 12 to
   * `nameEnd`; `upper` when it has an upper-case letter), if `e` is current: its zone neither
   * changed nor forgotten since. Counts a hit or a miss.
   */
  reply (e: CachedEntry | undefined, request: Uint8Array, nameEnd: number, upper: boolean): CachedReply | undefined {
    if (e !== undefined) {
      const zone = e.shelf.zone
      if (zone !== undefined && zone.epoch === e.epoch) {
        const variants = e.variants
        for (let i = 0; i < variants.length; i++) {
          const v = variants[i]!
          if ((v.lower && !upper) || fits(v, request, nameEnd)) {
            if (e.freq < 3) e.freq++
            this.hits++
            return v
          }
        }
      }
    }
    this.misses++
    return undefined
  }

  /** {@link reply} of the entry of `key`. */
  get (key: string, request: Uint8Array, nameEnd: number, upper: boolean): CachedReply | undefined {
    return this.reply(this.entries.get(key), request, nameEnd, upper)
  }

  /**
   * Keep a reply made from `zone` (at its current epoch) for the question of `request`.
   * @param checks what other spellings must pass (the writer's); undefined when the reply
   *   carries the question's spelling beyond the question (DNAME synthesis): that spelling only.
   */
  put (key: string, zone: ZoneData, nameKey: string, bytes: Uint8Array, request: Uint8Array, nameEnd: number, upper: boolean, checks: CaseCheck[] | undefined): void {
    let shelf = this.shelves.get(zone)
    if (shelf === undefined) {
      shelf = { zone }
      this.shelves.set(zone, shelf)
    }
    let e = this.entries.get(key)
    if (e === undefined) {
      e = { key, shelf, epoch: zone.epoch, nameKey, variants: EMPTY, freq: 0, bytes: 0, next: undefined }
      this.entries.set(key, e)
      this.small.push(e)
    } else {
      if (e.shelf !== shelf || e.epoch !== zone.epoch) {
        this.octets -= e.bytes
        e.bytes = 0
        e.variants = EMPTY
        e.shelf = shelf
        e.epoch = zone.epoch
        e.nameKey = nameKey
      } else if (e.variants.length >= MAX_SPELLINGS) {
        const old = e.variants[0]!
        e.variants = e.variants.slice(1)
        e.bytes -= old.bytes.length + REPLY_OVERHEAD
        this.octets -= old.bytes.length + REPLY_OVERHEAD
      }
      // Asked again: as good as a hit for eviction.
      if (e.freq < 3) e.freq++
    }
    const spelling = checks === undefined ? Buffer.from(request.buffer, request.byteOffset, request.byteLength).toString('latin1', 12, nameEnd) : ''
    const variant: CachedReply = { bytes, lower: !upper, checks: checks === undefined ? undefined : encodeChecks(checks), spelling, entry: e }
    // A new array each time, sized to what it holds (an array grown by push reserves room for 17).
    e.variants = e.variants.length === 0 ? [variant] : [...e.variants, variant]
    e.bytes += bytes.length + REPLY_OVERHEAD
    this.octets += bytes.length + REPLY_OVERHEAD
    this.evict()
  }

  /**
   * Drop every reply made from `zone` (replaced, removed, or a zone added below its apex): they
   * leave the cache at once, so a large zone deleted leaves none of its replies behind (a walk of
   * the cache, as rare as zones are replaced whole).
   */
  forget (zone: ZoneData): void {
    const shelf = this.shelves.get(zone)
    if (shelf === undefined) return
    shelf.zone = undefined
    this.shelves.delete(zone)
    const drop = (e: CachedEntry): boolean => {
      if (e.shelf !== shelf) return false
      this.entries.delete(e.key)
      this.octets -= e.bytes
      return true
    }
    this.small.remove(drop)
    this.main.remove(drop)
  }

  /** Current entries made from `zone` (a scan: for tests and metrics). */
  entriesOf (zone: ZoneData): number {
    let n = 0
    for (const e of this.entries.values()) if (e.shelf.zone === zone && e.epoch === zone.epoch) n++
    return n
  }

  clear (): void {
    this.entries.clear()
    this.small.clear()
    this.main.clear()
    this.octets = 0
  }

  private current (e: CachedEntry): boolean {
    return e.shelf.zone !== undefined && e.shelf.zone.epoch === e.epoch
  }

  private evict (): void {
    while ((this.entries.size > this.maxEntries || this.octets > this.maxBytes) && this.entries.size > 0) {
      if (this.small.size > this.smallTarget || this.main.size === 0) {
        const e = this.small.shift()
        if (e.freq > 0 && this.current(e)) {
          e.freq = 0
          this.main.push(e)
        } else this.drop(e)
      } else {
        const e = this.main.shift()
        if (e.freq > 0 && this.current(e)) {
          e.freq--
          this.main.push(e)
        } else this.drop(e)
      }
    }
  }

  private drop (e: CachedEntry): void {
    this.entries.delete(e.key)
    this.octets -= e.bytes
    this.evictions++
  }
}
