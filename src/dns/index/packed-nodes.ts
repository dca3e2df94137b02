import type { WireName } from '../../zone/name.ts'

/** The pool order of an rrset as packed: none, FIXED, RANDOM, ROUND_ROBIN. */
export type PackedOrder = 'FIXED' | 'RANDOM' | 'ROUND_ROBIN' | undefined
const ORDERS: PackedOrder[] = [undefined, 'FIXED', 'RANDOM', 'ROUND_ROBIN']
const orderCode = (o: PackedOrder): number => o === undefined ? 0 : o === 'FIXED' ? 1 : o === 'RANDOM' ? 2 : 3

/** One rrset read out of the image (or to be written into it). */
export interface PackedRrset {
  type: number
  ttl: number
  order: PackedOrder
  rdata: Uint8Array[]
}

/**
 * A sealed image: three SharedArrayBuffers, shared by every thread that serves the zone (posted
 * to a worker, they are shared, not copied), and their sizes.
 */
export interface PackedImage {
  table: SharedArrayBuffer
  nodes: SharedArrayBuffer
  rrsets: SharedArrayBuffer
  nodesLength: number
  rrsetsLength: number
  entries: number
  withRrsets: number
  originLength: number
}

/*
 * Layout of an image:
 *
 *   table    open addressing (linear probing) over the lower-cased owner: per slot two u32, the
 *            owner's hash (so most mismatches are seen without reading the entry) and
 *            (entry offset / 4) + 1, 0 for an empty slot
 *   nodes    one entry per name, 4-aligned: u32 below (nodes under this name), u32 hash,
 *            u32 rrsets offset, u32 rrsets length (0: an empty non-terminal, or a name that only
 *            had nodes below it), u8 owner length, the owner as the zone spells it
 *   rrsets   per node, one after another: u16 type, u32 TTL, u8 order, u16 count, then per
 *            record u16 length and the rdata in wire form (big-endian throughout)
 *
 * While a zone is loaded the same layout is written into growable SharedArrayBuffers (address
 * space reserved up front, memory committed as they grow: nothing is copied as the zone grows).
 * Sealing keeps them as they are for a large zone; a small zone's are copied to their exact
 * size, so thousands of small zones hold no reservations. The table doubles (and is rebuilt)
 * as entries are added, staying at most half full; it is the sealed image's table as it is.
 */
const MAX_REGION = 2 ** 32
const GROW_STEP = 1 << 20
/** Regions up to this size are copied to their exact size when sealed. */
const KEEP_GROWABLE = 16 << 20
const ENTRY_FIXED = 17
const RRSET_FIXED = 9

const lower = (b: number): number => b >= 0x41 && b <= 0x5a ? b + 32 : b
const align4 = (n: number): number => (n + 3) & ~3
const u16 = (b: Uint8Array, at: number): number => (b[at]! << 8) | b[at + 1]!
const u32 = (b: Uint8Array, at: number): number => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0

function put16 (b: Uint8Array, at: number, v: number): void {
  b[at] = v >>> 8
  b[at + 1] = v & 0xff
}

function put32 (b: Uint8Array, at: number, v: number): void {
  b[at] = v >>> 24
  b[at + 1] = (v >>> 16) & 0xff
  b[at + 2] = (v >>> 8) & 0xff
  b[at + 3] = v & 0xff
}

/** FNV-1a of a wire key (the lower-cased name, one character per octet). */
export function hashKey (key: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** {@link hashKey} of the name `name.subarray(at)`, lower-cased on the way. */
function hashName (name: Uint8Array, at: number): number {
  let h = 0x811c9dc5
  for (let i = at; i < name.length; i++) h = Math.imul(h ^ lower(name[i]!), 0x01000193)
  return h >>> 0
}

/**
 * The packed nodes of one zone: a builder while the zone loads ({@link append}, {@link copyNode},
 * {@link appendNode}), then a read-only image in a SharedArrayBuffer ({@link seal},
 * {@link fromShared}). Entries are found by wire key; each says how many nodes lie below its
 * name, so empty non-terminals exist (RFC 8020) without rrsets.
 */
export class PackedNodes {
  private nodes8: Uint8Array
  private nodes32: Uint32Array
  private rr: Uint8Array
  private table: Uint32Array
  private nodesEnd: number
  private rrEnd: number
  /** Building: the offset of the last rrset written (the only one that may still grow). */
  private lastRrset = -1
  /** Entries, empty non-terminals included. */
  entries: number
  /** Entries with rrsets. */
  withRrsets: number
  readonly originLength: number
  /** The image, once sealed. */
  readonly image: PackedImage | undefined

  private constructor (originLength: number, image?: PackedImage) {
    this.originLength = originLength
    this.image = image
    if (image === undefined) {
      // Fixed-length views (faster than length-tracking ones), made again as the buffers grow.
      const nodes = new SharedArrayBuffer(0, { maxByteLength: MAX_REGION })
      this.nodes8 = new Uint8Array(nodes, 0, 0)
      this.nodes32 = new Uint32Array(nodes, 0, 0)
      this.rr = new Uint8Array(new SharedArrayBuffer(0, { maxByteLength: MAX_REGION }), 0, 0)
      this.table = new Uint32Array(new SharedArrayBuffer(8 * 8))
      this.nodesEnd = 0
      this.rrEnd = 0
      this.entries = 0
      this.withRrsets = 0
      return
    }
    this.table = new Uint32Array(image.table)
    this.nodes8 = new Uint8Array(image.nodes, 0, image.nodesLength)
    this.nodes32 = new Uint32Array(image.nodes, 0, image.nodesLength / 4)
    this.rr = new Uint8Array(image.rrsets, 0, image.rrsetsLength)
    this.nodesEnd = image.nodesLength
    this.rrEnd = image.rrsetsLength
    this.entries = image.entries
    this.withRrsets = image.withRrsets
  }

  /** An empty builder for a zone whose origin is `originLength` octets long. */
  static builder (originLength: number): PackedNodes {
    return new PackedNodes(originLength)
  }

  /** An image sealed by another thread (or this one). */
  static fromImage (image: PackedImage): PackedNodes {
    return new PackedNodes(image.originLength, image)
  }

  get building (): boolean {
    return this.image === undefined
  }

  /** Bytes held (the image, or the builder's buffers). */
  get byteLength (): number {
    return this.nodes8.buffer.byteLength + this.rr.buffer.byteLength + this.table.byteLength
  }

  /** The entry for a wire key, or -1. */
  find (key: string): number {
    const h = hashKey(key)
    const table = this.table
    const mask = (table.length >> 1) - 1
    const n = key.length
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const v = table[2 * slot + 1]!
      if (v === 0) return -1
      if (table[2 * slot] !== h) continue
      const off = (v - 1) << 2
      if (this.nodes8[off + 16] !== n) continue
      let i = 0
      const at = off + ENTRY_FIXED
      while (i < n && lower(this.nodes8[at + i]!) === key.charCodeAt(i)) i++
      if (i === n) return off
    }
  }

  /** The entry for the name `name.subarray(at)` (any case), or -1. */
  private findName (name: Uint8Array, at: number, h: number): number {
    const table = this.table
    const mask = (table.length >> 1) - 1
    const n = name.length - at
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const v = table[2 * slot + 1]!
      if (v === 0) return -1
      if (table[2 * slot] !== h) continue
      const off = (v - 1) << 2
      if (this.nodes8[off + 16] !== n) continue
      let i = 0
      const base = off + ENTRY_FIXED
      while (i < n && lower(this.nodes8[base + i]!) === lower(name[at + i]!)) i++
      if (i === n) return off
    }
  }

  /** How many nodes lie below the entry's name. */
  below (off: number): number {
    return this.nodes32[off >> 2]!
  }

  hasRrsets (off: number): boolean {
    return this.nodes32[(off >> 2) + 3]! > 0
  }

  /** The entry's owner as the zone spells it (a copy). */
  owner (off: number): WireName {
    return this.nodes8.slice(off + ENTRY_FIXED, off + ENTRY_FIXED + this.nodes8[off + 16]!)
  }

  /** The entry's wire key. */
  key (off: number): string {
    let s = ''
    const end = off + ENTRY_FIXED + this.nodes8[off + 16]!
    for (let i = off + ENTRY_FIXED; i < end; i++) s += String.fromCharCode(lower(this.nodes8[i]!))
    return s
  }

  /** The entry's rrsets, in the order they were written (copies of the rdata). */
  rrsets (off: number): PackedRrset[] {
    const out: PackedRrset[] = []
    let at = this.nodes32[(off >> 2) + 2]!
    const end = at + this.nodes32[(off >> 2) + 3]!
    const b = this.rr
    while (at < end) {
      const count = u16(b, at + 7)
      const rrset: PackedRrset = { type: u16(b, at), ttl: u32(b, at + 2), order: ORDERS[b[at + 6]!], rdata: new Array<Uint8Array>(count) }
      at += RRSET_FIXED
      for (let i = 0; i < count; i++) {
        const len = u16(b, at)
        rrset.rdata[i] = b.slice(at + 2, at + 2 + len)
        at += 2 + len
      }
      out.push(rrset)
    }
    return out
  }

  /** Whether the entry has an rrset of `type` (its rrset headers read, no rdata copied). */
  hasType (off: number, type: number): boolean {
    let at = this.nodes32[(off >> 2) + 2]!
    const end = at + this.nodes32[(off >> 2) + 3]!
    while (at < end) {
      if (u16(this.rr, at) === type) return true
      at = this.skipRrset(at)
    }
    return false
  }

  /** The offset of the entry after `off`. */
  private next (off: number): number {
    return off + align4(ENTRY_FIXED + this.nodes8[off + 16]!)
  }

  /** Every entry's offset, in the order written. */
  * offsets (): Generator<number> {
    for (let off = 0; off < this.nodesEnd; off = this.next(off)) yield off
  }

  /**
   * Building: add records to (owner, type), the way the zone is loaded — a new owner's node, or
   * more rrsets or records at the node written last. Returns false, writing nothing, when the
   * image cannot take them in place (an earlier node, an earlier rrset of the node); the caller
   * keeps them elsewhere (the overlay).
   */
  append (owner: WireName, type: number, ttl: number, rdata: readonly Uint8Array[], order: PackedOrder): boolean {
    const h = hashName(owner, 0)
    let off = this.findName(owner, 0, h)
    if (off >= 0 && this.hasRrsets(off)) {
      const i = off >> 2
      const start = this.nodes32[i + 2]!
      const end = start + this.nodes32[i + 3]!
      if (end !== this.rrEnd) return false
      let found = -1
      for (let at = start; at < end; at = this.skipRrset(at)) if (u16(this.rr, at) === type) found = at
      if (found < 0) {
        if (rdata.length > 0xffff) return false
        this.nodes32[i + 3]! += this.writeRrset(type, ttl, order, rdata)
        return true
      }
      const count = u16(this.rr, found + 7)
      if (found !== this.lastRrset || count + rdata.length > 0xffff) return false
      // RFC 2181 §5.2: one TTL per rrset; the lowest wins, as the zone's records are added.
      if (ttl < u32(this.rr, found + 2)) put32(this.rr, found + 2, ttl)
      put16(this.rr, found + 7, count + rdata.length)
      const before = this.rrEnd
      this.writeRdata(rdata)
      this.nodes32[i + 3]! += this.rrEnd - before
      return true
    }
    if (rdata.length > 0xffff) return false
    if (off < 0) off = this.newEntry(owner, 0, h)
    // An empty non-terminal becoming a node: spelled as its own records are, not as a name below.
    else this.nodes8.set(owner, off + ENTRY_FIXED)
    this.countAncestors(owner)
    const start = this.rrEnd
    const len = this.writeRrset(type, ttl, order, rdata)
    this.nodes32[(off >> 2) + 2] = start
    this.nodes32[(off >> 2) + 3] = len
    this.withRrsets++
    return true
  }

  /** Building: a whole node (its key not written before), its rrsets given. */
  appendNode (owner: WireName, rrsets: readonly PackedRrset[]): void {
    const off = this.nodeEntry(owner, hashName(owner, 0))
    const start = this.rrEnd
    for (const s of rrsets) this.writeRrset(s.type, s.ttl, s.order, s.rdata)
    this.nodes32[(off >> 2) + 2] = start
    this.nodes32[(off >> 2) + 3] = this.rrEnd - start
  }

  /** Building: a whole node copied octet for octet from another image's entry. */
  copyNode (from: PackedNodes, fromOff: number): void {
    const len = from.nodes8[fromOff + 16]!
    const owner = from.nodes8.subarray(fromOff + ENTRY_FIXED, fromOff + ENTRY_FIXED + len)
    const off = this.nodeEntry(owner, from.nodes32[(fromOff >> 2) + 1]!)
    const i = fromOff >> 2
    const bytes = from.rr.subarray(from.nodes32[i + 2]!, from.nodes32[i + 2]! + from.nodes32[i + 3]!)
    this.reserveRr(bytes.length)
    this.rr.set(bytes, this.rrEnd)
    this.nodes32[(off >> 2) + 2] = this.rrEnd
    this.nodes32[(off >> 2) + 3] = bytes.length
    this.rrEnd += bytes.length
    this.lastRrset = -1
  }

  /** The entry of a node about to get its rrsets (counted below its ancestors). */
  private nodeEntry (owner: Uint8Array, h: number): number {
    let off = this.findName(owner, 0, h)
    if (off >= 0 && this.hasRrsets(off)) throw new Error('node written twice')
    if (off < 0) off = this.newEntry(owner, 0, h)
    else this.nodes8.set(owner, off + ENTRY_FIXED)
    this.countAncestors(owner)
    this.withRrsets++
    return off
  }

  /** One more node below every name between `owner` and the apex (RFC 4592 §2.2.2). */
  private countAncestors (owner: Uint8Array): void {
    let at = owner[0]! + 1
    while (owner.length - at > this.originLength) {
      const h = hashName(owner, at)
      let off = this.findName(owner, at, h)
      if (off < 0) off = this.newEntry(owner, at, h)
      this.nodes32[off >> 2]!++
      at += owner[at]! + 1
    }
  }

  private newEntry (name: Uint8Array, at: number, h: number): number {
    const len = name.length - at
    const size = align4(ENTRY_FIXED + len)
    if (this.nodesEnd + size > this.nodes8.length) {
      const buffer = grow(this.nodes8.buffer as SharedArrayBuffer, this.nodesEnd + size)
      this.nodes8 = new Uint8Array(buffer, 0, buffer.byteLength)
      this.nodes32 = new Uint32Array(buffer, 0, buffer.byteLength / 4)
    }
    const off = this.nodesEnd
    const i = off >> 2
    this.nodes32[i] = 0
    this.nodes32[i + 1] = h
    this.nodes32[i + 2] = 0
    this.nodes32[i + 3] = 0
    this.nodes8[off + 16] = len
    this.nodes8.set(at === 0 ? name : name.subarray(at), off + ENTRY_FIXED)
    this.nodesEnd += size
    this.entries++
    if (this.entries * 2 > this.table.length >> 1) this.rehash(this.table.length)
    else this.place(this.table, off, h)
    return off
  }

  private place (table: Uint32Array, off: number, h: number): void {
    const mask = (table.length >> 1) - 1
    let slot = h & mask
    while (table[2 * slot + 1] !== 0) slot = (slot + 1) & mask
    table[2 * slot] = h
    table[2 * slot + 1] = (off >> 2) + 1
  }

  private rehash (slots: number): void {
    const table = new Uint32Array(new SharedArrayBuffer(slots * 8))
    for (let off = 0; off < this.nodesEnd; off = this.next(off)) this.place(table, off, this.nodes32[(off >> 2) + 1]!)
    this.table = table
  }

  private skipRrset (at: number): number {
    const count = u16(this.rr, at + 7)
    at += RRSET_FIXED
    for (let i = 0; i < count; i++) at += 2 + u16(this.rr, at)
    return at
  }

  private reserveRr (n: number): void {
    if (this.rrEnd + n <= this.rr.length) return
    const buffer = grow(this.rr.buffer as SharedArrayBuffer, this.rrEnd + n)
    this.rr = new Uint8Array(buffer, 0, buffer.byteLength)
  }

  /** Write one rrset at the end; returns its length in octets. */
  private writeRrset (type: number, ttl: number, order: PackedOrder, rdata: readonly Uint8Array[]): number {
    const start = this.rrEnd
    this.reserveRr(RRSET_FIXED)
    put16(this.rr, start, type)
    put32(this.rr, start + 2, ttl)
    this.rr[start + 6] = orderCode(order)
    put16(this.rr, start + 7, rdata.length)
    this.rrEnd += RRSET_FIXED
    this.writeRdata(rdata)
    this.lastRrset = start
    return this.rrEnd - start
  }

  private writeRdata (rdata: readonly Uint8Array[]): void {
    let n = 0
    for (const d of rdata) n += 2 + d.length
    this.reserveRr(n)
    for (const d of rdata) {
      put16(this.rr, this.rrEnd, d.length)
      this.rr.set(d, this.rrEnd + 2)
      this.rrEnd += 2 + d.length
    }
  }

  /** The read-only image (see {@link PackedImage}); this builder is not used afterwards. */
  seal (): PackedNodes {
    if (this.image !== undefined) return this
    const image: PackedImage = {
      table: this.table.buffer as SharedArrayBuffer,
      nodes: fitted(this.nodes8.buffer as SharedArrayBuffer, this.nodesEnd),
      rrsets: fitted(this.rr.buffer as SharedArrayBuffer, this.rrEnd),
      nodesLength: this.nodesEnd,
      rrsetsLength: this.rrEnd,
      entries: this.entries,
      withRrsets: this.withRrsets,
      originLength: this.originLength
    }
    return PackedNodes.fromImage(image)
  }
}

/** Grow a region to hold `need` octets, a megabyte (or an eighth) at a time. */
function grow (buffer: SharedArrayBuffer, need: number): SharedArrayBuffer {
  if (need > MAX_REGION) throw new RangeError('zone too large to pack (4 GiB per region)')
  const step = Math.max(GROW_STEP, buffer.byteLength >>> 3)
  buffer.grow(Math.min(MAX_REGION, Math.ceil(need / step) * step))
  return buffer
}

/** A small region copied to its exact size (no reservation kept); a large one as it is. */
function fitted (buffer: SharedArrayBuffer, used: number): SharedArrayBuffer {
  if (used > KEEP_GROWABLE) return buffer
  const out = new SharedArrayBuffer(used)
  new Uint8Array(out).set(new Uint8Array(buffer, 0, used))
  return out
}
