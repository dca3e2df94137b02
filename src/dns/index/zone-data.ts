import { nameEquals, parentName, wireKey, type WireName } from '../../zone/name.ts'
import type { ZoneRecord } from '../../zone/record.ts'
import type { TsigKey } from '../wire/tsig.ts'
import { RRType } from '../../zone/rrtype.ts'
import { PackedNodes, type PackedImage, type PackedRrset } from './packed-nodes.ts'
import { CanonicalOwners } from './canonical-owners.ts'
import type { ServedPool } from '../answer/pools.ts'

function sameOctets (a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** One rrset as served: TTL, rdata in canonical wire form, and how a pool orders it. */
export interface ServedRrset {
  ttl: number
  rdata: Uint8Array[]
  /** RD pool order (FIXED, RANDOM, ROUND_ROBIN); plain rrsets keep their stored order. */
  order?: 'FIXED' | 'RANDOM' | 'ROUND_ROBIN'
  /** Where the next ROUND_ROBIN answer starts. */
  next?: number
}

/** Who may transfer the zone out (RFC 5936 §6): address ranges and an optional TSIG key. */
export interface TransferPolicy {
  /** Inclusive ranges of 4- or 16-octet addresses. */
  ranges: { start: Uint8Array, end: Uint8Array }[]
  key?: TsigKey
}

/**
 * One serial step of the zone, as IXFR sends it (RFC 1995 §4): the records removed and added on
 * the way from `serialFrom` to `serialTo`, the two SOA records among them.
 */
export interface JournalStep {
  serialFrom: number
  serialTo: number
  removed: ZoneRecord[]
  added: ZoneRecord[]
}

/** A node as plain data in a snapshot's overlay. */
export interface SnapshotNode {
  owner: WireName
  rrsets: { type: number, ttl: number, rdata: Uint8Array[], order?: ServedRrset['order'] }[]
}

/**
 * A zone's served data in a form that can be posted to another thread (structured clone) and
 * served there ({@link ZoneData.snapshot}, {@link ZoneData.fromSnapshot}): the packed image of
 * its nodes (a SharedArrayBuffer: shared, never copied), the changes made since it was built
 * (the overlay, as plain data), the journal and the settings the answer path reads. Reply-cache
 * epochs and round-robin positions are each thread's own.
 */
export interface ZoneSnapshot {
  origin: WireName
  serial: number
  version: number
  /** The packed nodes: shared between threads, never copied. */
  image: PackedImage
  /** Nodes changed since the image was built, by wire key; null: removed. */
  overlay: [string, SnapshotNode | null][]
  /** Changes of the count of nodes below names since the image was built. */
  below: [string, number][]
  overlayMin: number
  journal: JournalStep[]
  settings: ZoneServedSettings
  /** The traffic pools (SB, TC, SF, SLB, DIR) by `wireKey(owner)/type`, with their health. */
  pools: [string, ServedPool][]
}

/** What a zone's row says about serving it, apart from its records, and where it stands. */
export interface ZoneServedSettings {
  serial: number
  version: number
  transfer: TransferPolicy | undefined
  notify: { host: string, port: number }[]
  primaries?: { host: string, port: number }[]
  expired: boolean
}

/** Serial steps kept in memory per zone for IXFR, and records in them at most. */
export const JOURNAL_STEPS = 200
export const JOURNAL_RECORDS = 100_000

/** The rrsets at one owner name. */
export interface ZoneNode {
  owner: WireName
  rrsets: Map<number, ServedRrset>
}

/** Overlay nodes kept before the changes are folded into a new image (at least). */
export const OVERLAY_MIN = 1024
/**
 * Nodes read out of the image kept per zone and thread (round-robin ones are kept apart): few,
 * for the apex and the names asked again and again; a larger cache churned by many names costs
 * more in garbage collection than it saves (measured: 4,096 entries made answers not from the
 * reply cache 35 % slower than 64).
 */
const CACHED_NODES = 64

function materialise (owner: WireName, rrsets: readonly PackedRrset[]): ZoneNode {
  const map = new Map<number, ServedRrset>()
  for (const s of rrsets) map.set(s.type, s.order === undefined ? { ttl: s.ttl, rdata: s.rdata } : { ttl: s.ttl, rdata: s.rdata, order: s.order })
  return { owner, rrsets: map }
}

function packed (node: ZoneNode): PackedRrset[] {
  return [...node.rrsets].map(([type, s]) => ({ type, ttl: s.ttl, order: s.order, rdata: s.rdata }))
}

const roundRobin = (node: ZoneNode): boolean => {
  for (const s of node.rrsets.values()) if (s.order === 'ROUND_ROBIN') return true
  return false
}

/**
 * The in-memory copy of one zone that the DNS answer path reads (it never touches the
 * database): nodes by owner (case-insensitive key), and for every name between the owners and
 * the apex the number of nodes below it, so "name exists" (NODATA, also for empty
 * non-terminals) and "name does not exist" (NXDOMAIN) differ as RFC 8020 wants, and stay right
 * as records are removed.
 *
 * The records live packed in one image ({@link PackedNodes}: a hash table of owners and their
 * rrsets as octets in a SharedArrayBuffer, which every thread serving the zone shares). A zone
 * being loaded writes the image directly ({@link addRrset} in canonical order); the first read
 * seals it. Changes applied afterwards ({@link apply}, {@link add}, {@link remove}) go to a small
 * overlay of changed nodes and below-count deltas, folded into a new image when it grows past
 * {@link OVERLAY_MIN} nodes or a sixteenth of the image. Reads hand out small `ZoneNode` objects,
 * the recently read ones kept per thread.
 */
export class ZoneData {
  readonly originKey: string
  /** Zone transfers out: nobody when unset. */
  transfer: TransferPolicy | undefined
  /** Moves on every change applied in place: cached replies of an earlier epoch are stale. */
  epoch = 0
  /** A secondary zone past its SOA expire time without a refresh: answers SERVFAIL (RFC 1035 §3.3.13). */
  expired = false
  /** Where NOTIFY goes when the serial changes (RFC 1996). */
  notify: { host: string, port: number }[] = []
  /** The latest serial steps, oldest first, each following the one before (IXFR out). */
  journal: JournalStep[] = []
  /**
   * Set for a secondary zone: its primaries, the only addresses whose NOTIFY is accepted
   * (RFC 1996 §3.10; the port is where we transfer from, not compared with a NOTIFY's source).
   */
  primaries?: { host: string, port: number }[]
  /**
   * The traffic pools (SB, TC, SF, SLB, DIR) among the rrsets, by `wireKey(owner)/type`, each with
   * its records' health: what the answer path serves from them (`dns/answer/pools.ts`). Empty for
   * most zones, whose answers never look here.
   */
  readonly pools = new Map<string, ServedPool>()

  readonly origin: WireName
  serial: number
  version: number

  private image: PackedNodes
  /** Nodes changed since the image was built, by key; null: removed. */
  private readonly overlay = new Map<string, ZoneNode | null>()
  /** Changes of the below counts since the image was built. */
  private readonly belowDelta = new Map<string, number>()
  /** Nodes read out of the image lately, and those with a round-robin rrset (their position). */
  private cache = new Map<string, ZoneNode>()
  private readonly pinned = new Map<string, ZoneNode>()
  private readonly overlayMin: number
  private generation = 0
  /**
   * The NSEC and the NSEC3 owners in canonical order, by type: built by this thread when a
   * DNSSEC denial first needs them, then kept in step as owners of those types come and go.
   */
  private readonly ordered = new Map<number, CanonicalOwners>()

  /**
   * @param overlayMin overlay nodes always allowed before a new image is built (tests make it
   *   small to cross that boundary often)
   */
  constructor (origin: WireName, serial: number, version: number, overlayMin = OVERLAY_MIN) {
    this.origin = origin
    this.serial = serial
    this.version = version
    this.originKey = wireKey(origin)
    this.overlayMin = overlayMin
    this.image = PackedNodes.builder(origin.length)
  }

  /** Build a zone's data from its records (all of them inside the zone). */
  static from (origin: WireName, serial: number, version: number, records: Iterable<ZoneRecord>, orders?: Map<string, ServedRrset['order']>): ZoneData {
    const z = new ZoneData(origin, serial, version)
    for (const r of records) z.add(r, orders?.get(`${wireKey(r.owner)}/${r.type}`))
    return z
  }

  /** This zone's data for another thread (see {@link ZoneSnapshot}): the image is shared, not copied. */
  snapshot (): ZoneSnapshot {
    const image = this.sealed().image!
    const overlay: ZoneSnapshot['overlay'] = []
    for (const [key, node] of this.overlay) {
      overlay.push([key, node === null ? null : { owner: node.owner, rrsets: packed(node).map(s => ({ type: s.type, ttl: s.ttl, rdata: s.rdata, ...(s.order === undefined ? {} : { order: s.order }) })) }])
    }
    return { origin: this.origin, serial: this.serial, version: this.version, image, overlay, below: [...this.belowDelta], overlayMin: this.overlayMin, journal: this.journal, settings: this.servedSettings(), pools: [...this.pools] }
  }

  /** A zone received from another thread's {@link snapshot}. */
  static fromSnapshot (s: ZoneSnapshot): ZoneData {
    const z = new ZoneData(s.origin, s.serial, s.version, s.overlayMin)
    z.image = PackedNodes.fromImage(s.image)
    for (const [key, node] of s.overlay) z.overlay.set(key, node === null ? null : materialise(node.owner, node.rrsets.map(r => ({ type: r.type, ttl: r.ttl, order: r.order, rdata: [...r.rdata] }))))
    for (const [key, n] of s.below) z.belowDelta.set(key, n)
    z.journal = s.journal
    for (const [key, pool] of s.pools) z.pools.set(key, pool)
    z.applySettings(s.settings)
    return z
  }

  /** The settings part of a snapshot. */
  servedSettings (): ZoneServedSettings {
    return { serial: this.serial, version: this.version, transfer: this.transfer, notify: this.notify, ...(this.primaries === undefined ? {} : { primaries: this.primaries }), expired: this.expired }
  }

  /** Take the settings another thread serves the zone with; cached replies go when expiry changes. */
  applySettings (s: ZoneServedSettings): void {
    this.serial = s.serial
    this.version = s.version
    this.transfer = s.transfer
    this.notify = s.notify
    if (s.primaries === undefined) delete this.primaries
    else this.primaries = s.primaries
    if (this.expired !== s.expired) {
      this.expired = s.expired
      this.epoch++
    }
  }

  /** The traffic pool of the rrset at `owner` (as the zone holds it, a wildcard's too) of `type`, if it is one. */
  poolOf (owner: WireName, type: number): ServedPool | undefined {
    return this.pools.size === 0 ? undefined : this.pools.get(`${wireKey(owner)}/${type}`)
  }

  /**
   * Serve the rrset `key` (`wireKey(owner)/type`) as `pool` (a profile or health change), or as
   * a plain rrset (undefined); cached replies of the zone are dropped.
   */
  setPool (key: string, pool: ServedPool | undefined): void {
    if (pool === undefined) {
      if (!this.pools.delete(key)) return
    } else this.pools.set(key, pool)
    this.epoch++
  }

  /** Add one record (a record joining an rrset takes the lower TTL of the two). */
  add (r: ZoneRecord, order?: ServedRrset['order']): void {
    this.addRecords(r.owner, r.type, r.ttl, [r.rdata], order)
    this.compactIfDue()
  }

  /** Add a whole rrset (a zone being loaded, in canonical order: written straight into the image). */
  addRrset (owner: WireName, type: number, ttl: number, rdata: readonly Uint8Array[], order?: ServedRrset['order']): void {
    this.addRecords(owner, type, ttl, rdata, order)
    this.compactIfDue()
  }

  /** Remove one record (same owner, type and rdata octets); returns whether it was there. */
  remove (r: ZoneRecord): boolean {
    const removed = this.removeRecord(r)
    this.compactIfDue()
    return removed
  }

  /**
   * Apply one serial step in place: its removals, then its additions (`order` gives the pool
   * order of each added rrset), the new serial and version; cached replies are dropped and the
   * step joins the IXFR journal.
   */
  apply (step: JournalStep, version: number, order?: (owner: WireName, type: number) => ServedRrset['order']): void {
    for (const r of step.removed) this.removeRecord(r)
    for (const r of step.added) {
      const key = wireKey(r.owner)
      const set = this.nodeByKey(key)?.rrsets.get(r.type)
      // An rrset has one TTL: the step carries the whole rrset again when it changed.
      if (set !== undefined && set.ttl !== r.ttl) this.writable(key)!.rrsets.get(r.type)!.ttl = r.ttl
      if (set?.rdata.some(d => sameOctets(d, r.rdata)) === true) continue
      this.addRecords(r.owner, r.type, r.ttl, [r.rdata], order?.(r.owner, r.type))
    }
    for (const r of step.added) {
      const key = wireKey(r.owner)
      const set = this.nodeByKey(key)?.rrsets.get(r.type)
      const o = order?.(r.owner, r.type)
      if (set === undefined || set.order === o) continue
      const mine = this.writable(key)!.rrsets.get(r.type)!
      if (o === undefined) delete mine.order
      else mine.order = o
    }
    this.serial = step.serialTo
    this.version = version
    this.epoch++
    this.remember(step)
    this.compactIfDue()
  }

  /** Add a step to the IXFR journal, dropping the oldest beyond the limits. */
  remember (step: JournalStep): void {
    const last = this.journal[this.journal.length - 1]
    if (last !== undefined && last.serialTo !== step.serialFrom) this.journal = []
    this.journal.push(step)
    let records = 0
    for (const s of this.journal) records += s.removed.length + s.added.length
    while (this.journal.length > JOURNAL_STEPS || (records > JOURNAL_RECORDS && this.journal.length > 0)) {
      const first = this.journal.shift()!
      records -= first.removed.length + first.added.length
    }
  }

  /** Finish loading: the image becomes read-only and shareable (reads do this themselves). */
  seal (): void {
    this.sealed()
  }

  node (name: WireName): ZoneNode | undefined {
    return this.nodeByKey(wireKey(name))
  }

  /** Whether the name exists: it owns records or names below it do. */
  exists (name: WireName): boolean {
    return this.existsByKey(wireKey(name))
  }

  /** {@link node} by the name's wire key. */
  nodeByKey (key: string): ZoneNode | undefined {
    if (this.overlay.size > 0) {
      const changed = this.overlay.get(key)
      if (changed !== undefined) return changed ?? undefined
    }
    const known = (this.pinned.size > 0 ? this.pinned.get(key) : undefined) ?? this.cache.get(key)
    if (known !== undefined) return known
    this.sealed()
    return this.imageNode(key)
  }

  /** The node at `key` as the image holds it (kept for the next reads once the image is sealed). */
  private imageNode (key: string): ZoneNode | undefined {
    const image = this.image
    const off = image.find(key)
    if (off < 0 || !image.hasRrsets(off)) return undefined
    const node = materialise(image.owner(off), image.rrsets(off))
    // While loading, the node written last may still grow: nothing is kept.
    if (image.building) return node
    if (roundRobin(node)) this.pinned.set(key, node)
    else {
      if (this.cache.size >= CACHED_NODES) this.cache = new Map()
      this.cache.set(key, node)
    }
    return node
  }

  /** {@link exists} by the name's wire key. */
  existsByKey (key: string): boolean {
    const changed = this.overlay.size > 0 ? this.overlay.get(key) : undefined
    if (changed != null) return true
    let below = this.belowDelta.size > 0 ? this.belowDelta.get(key) ?? 0 : 0
    const image = this.sealed()
    const off = image.find(key)
    if (off >= 0) {
      if (changed === undefined && image.hasRrsets(off)) return true
      below += image.below(off)
    }
    return below > 0
  }

  get apex (): ZoneNode | undefined {
    return this.nodeByKey(this.originKey)
  }

  /**
   * The owners of `type` records (NSEC or NSEC3) in canonical order, for finding the record that
   * matches or covers a name (RFC 4035 §3.1.3, RFC 5155 §7.2). Built on first use from the
   * image's rrset headers and the overlay (no rdata read); afterwards an owner gaining its first
   * record of the type is inserted and one losing its last is removed (a binary search and an
   * array move each: a change to a large signed zone is not a rebuild).
   */
  canonicalOwners (type: number): CanonicalOwners {
    let owners = this.ordered.get(type)
    if (owners === undefined) {
      owners = new CanonicalOwners(this.ownersOf(type))
      this.ordered.set(type, owners)
    }
    return owners
  }

  /** The owners holding an rrset of `type`, image and overlay together, in no particular order. */
  private * ownersOf (type: number): Generator<WireName> {
    const image = this.sealed()
    const { replaced, added } = this.overlayParts()
    for (const off of image.offsets()) {
      if (!image.hasRrsets(off)) continue
      const changed = replaced.get(off)
      if (changed === undefined) {
        if (image.hasType(off, type)) yield image.owner(off)
      } else if (changed !== null && changed.rrsets.has(type)) yield changed.owner
    }
    for (const node of added) if (node.rrsets.has(type)) yield node.owner
  }

  /** Every node of the zone (AXFR), each once, in no particular order. */
  * eachNode (): Generator<ZoneNode> {
    const image = this.sealed()
    const { replaced, added } = this.overlayParts()
    for (const off of image.offsets()) {
      if (!image.hasRrsets(off)) continue
      const changed = replaced.get(off)
      if (changed === undefined) yield materialise(image.owner(off), image.rrsets(off))
      else if (changed !== null) yield changed
    }
    yield * added
  }

  /** The overlay split into the image's nodes it changes (by offset; null: removed) and the nodes it adds. */
  private overlayParts (): { replaced: Map<number, ZoneNode | null>, added: ZoneNode[] } {
    const replaced = new Map<number, ZoneNode | null>()
    const added: ZoneNode[] = []
    for (const [key, node] of this.overlay) {
      const off = this.image.find(key)
      if (off >= 0 && this.image.hasRrsets(off)) replaced.set(off, node)
      else if (node !== null) added.push(node)
    }
    return { replaced, added }
  }

  /** The number of nodes (owners with records). */
  get nodeCount (): number {
    let n = this.image.withRrsets
    if (this.overlay.size === 0) return n
    for (const [key, node] of this.overlay) {
      const off = this.image.find(key)
      const inImage = off >= 0 && this.image.hasRrsets(off)
      if (node === null && inImage) n--
      else if (node !== null && !inImage) n++
    }
    return n
  }

  /**
   * How many times this zone's overlay was folded into a new image here. Each thread folds its
   * own copy; a thread that wants the others to share its new image sends them a new snapshot.
   */
  get imageGeneration (): number {
    return this.generation
  }

  /** Octets held by the packed image (shared between threads). */
  get imageBytes (): number {
    return this.image.byteLength
  }

  private sealed (): PackedNodes {
    if (this.image.building) {
      this.image = this.image.seal()
      this.compactIfDue()
    }
    return this.image
  }

  private addRecords (owner: WireName, type: number, ttl: number, rdata: readonly Uint8Array[], order: ServedRrset['order']): void {
    // A new owner of an NSEC or NSEC3 joins the order this thread keeps (when it has built it).
    const ordered = type === RRType.NSEC || type === RRType.NSEC3 ? this.ordered.get(type) : undefined
    if (ordered !== undefined && this.current(wireKey(owner))?.rrsets.has(type) !== true) ordered.insert(owner)
    if (this.image.building && (this.overlay.size === 0 || !this.overlay.has(wireKey(owner))) && this.image.append(owner, type, ttl, rdata, order)) return
    const key = wireKey(owner)
    let node = this.writable(key)
    if (node === undefined) {
      node = { owner, rrsets: new Map() }
      this.overlay.set(key, node)
      // Every name between the owner and the apex exists (RFC 4592 §2.2.2).
      this.countBelow(owner, 1)
    }
    const existing = node.rrsets.get(type)
    if (existing === undefined) node.rrsets.set(type, { ttl, rdata: [...rdata], ...(order === undefined ? {} : { order }) })
    else {
      existing.rdata.push(...rdata)
      if (ttl < existing.ttl) existing.ttl = ttl
    }
  }

  private removeRecord (r: ZoneRecord): boolean {
    const key = wireKey(r.owner)
    const at = this.current(key)?.rrsets.get(r.type)?.rdata.findIndex(d => sameOctets(d, r.rdata)) ?? -1
    if (at < 0) return false
    const node = this.writable(key)!
    const rrset = node.rrsets.get(r.type)!
    rrset.rdata.splice(at, 1)
    if (rrset.rdata.length > 0) return true
    node.rrsets.delete(r.type)
    if (r.type === RRType.NSEC || r.type === RRType.NSEC3) this.ordered.get(r.type)?.delete(node.owner)
    if (node.rrsets.size > 0) return true
    const off = this.image.find(key)
    if (off >= 0 && this.image.hasRrsets(off)) this.overlay.set(key, null)
    else this.overlay.delete(key)
    this.countBelow(node.owner, -1)
    return true
  }

  /** {@link nodeByKey} without sealing a zone being loaded. */
  private current (key: string): ZoneNode | undefined {
    const changed = this.overlay.get(key)
    if (changed !== undefined) return changed ?? undefined
    return this.pinned.get(key) ?? this.cache.get(key) ?? this.imageNode(key)
  }

  /** The node at `key` as this zone's own overlay copy, ready to change; undefined when there is none. */
  private writable (key: string): ZoneNode | undefined {
    const changed = this.overlay.get(key)
    if (changed !== undefined) return changed ?? undefined
    const current = this.current(key)
    if (current === undefined) return undefined
    const copy: ZoneNode = { owner: current.owner, rrsets: new Map() }
    for (const [type, s] of current.rrsets) copy.rrsets.set(type, { ...s, rdata: [...s.rdata] })
    this.overlay.set(key, copy)
    this.cache.delete(key)
    this.pinned.delete(key)
    return copy
  }

  /** Change the count of nodes below each name between `owner` and the apex by `delta`. */
  private countBelow (owner: WireName, delta: 1 | -1): void {
    let up = parentName(owner)
    while (up.length > this.origin.length && !nameEquals(up, this.origin)) {
      const k = wireKey(up)
      const n = (this.belowDelta.get(k) ?? 0) + delta
      if (n !== 0) this.belowDelta.set(k, n)
      else this.belowDelta.delete(k)
      up = parentName(up)
    }
  }

  /** Fold the overlay into a new image once it is past its bound (the bound depends only on the data, so every thread folds at the same step). */
  private compactIfDue (): void {
    if (this.image.building || this.overlay.size <= Math.max(this.overlayMin, this.image.entries >>> 4)) return
    const old = this.image
    const { replaced, added } = this.overlayParts()
    const next = PackedNodes.builder(this.origin.length)
    for (const off of old.offsets()) {
      if (!old.hasRrsets(off)) continue
      const changed = replaced.get(off)
      if (changed === undefined) next.copyNode(old, off)
      else if (changed !== null) next.appendNode(changed.owner, packed(changed))
    }
    for (const node of added) next.appendNode(node.owner, packed(node))
    // Round-robin positions are this thread's: the nodes holding them stay as they are.
    for (const [key, node] of this.overlay) if (node !== null && roundRobin(node)) this.pinned.set(key, node)
    this.image = next.seal()
    this.generation++
    this.overlay.clear()
    this.belowDelta.clear()
    this.cache = new Map()
  }
}
