import { nameEquals, parentName, wireKey, type WireName } from '../../zone/name.ts'
import type { ZoneRecord } from '../../zone/record.ts'
import type { TsigKey } from '../wire/tsig.ts'

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

/**
 * A zone's served data in a form that can be posted to another thread (structured clone) and
 * served there ({@link ZoneData.snapshot}, {@link ZoneData.fromSnapshot}): the records, the
 * journal and the settings the answer path reads. Reply-cache epochs and round-robin positions
 * are each thread's own.
 */
export interface ZoneSnapshot {
  origin: WireName
  serial: number
  version: number
  rrsets: { owner: WireName, type: number, ttl: number, rdata: Uint8Array[], order?: ServedRrset['order'] }[]
  journal: JournalStep[]
  settings: ZoneServedSettings
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

/**
 * The in-memory copy of one zone that the DNS answer path reads (it never touches the
 * database): nodes by owner (case-insensitive key), and for every name between the owners and
 * the apex the number of nodes below it, so "name exists" (NODATA, also for empty
 * non-terminals) and "name does not exist" (NXDOMAIN) differ as RFC 8020 wants, and stay right
 * as records are removed. Changes are applied in place ({@link apply}), between queries.
 */
export class ZoneData {
  readonly originKey: string
  readonly nodes = new Map<string, ZoneNode>()
  /** For each name strictly between an owner and the apex: how many nodes lie below it. */
  private readonly below = new Map<string, number>()
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

  readonly origin: WireName
  serial: number
  version: number

  constructor (origin: WireName, serial: number, version: number) {
    this.origin = origin
    this.serial = serial
    this.version = version
    this.originKey = wireKey(origin)
  }

  /** Build a zone's data from its records (all of them inside the zone). */
  static from (origin: WireName, serial: number, version: number, records: Iterable<ZoneRecord>, orders?: Map<string, ServedRrset['order']>): ZoneData {
    const z = new ZoneData(origin, serial, version)
    for (const r of records) z.add(r, orders?.get(`${wireKey(r.owner)}/${r.type}`))
    return z
  }

  /** This zone's data for another thread (see {@link ZoneSnapshot}). */
  snapshot (): ZoneSnapshot {
    const rrsets: ZoneSnapshot['rrsets'] = []
    for (const node of this.nodes.values()) {
      for (const [type, set] of node.rrsets) rrsets.push({ owner: node.owner, type, ttl: set.ttl, rdata: set.rdata, ...(set.order === undefined ? {} : { order: set.order }) })
    }
    return { origin: this.origin, serial: this.serial, version: this.version, rrsets, journal: this.journal, settings: this.servedSettings() }
  }

  /** A zone received from another thread's {@link snapshot}. */
  static fromSnapshot (s: ZoneSnapshot): ZoneData {
    const z = new ZoneData(s.origin, s.serial, s.version)
    for (const r of s.rrsets) z.addRrset(r.owner, r.type, r.ttl, r.rdata, r.order)
    z.journal = s.journal
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

  add (r: ZoneRecord, order?: ServedRrset['order']): void {
    const key = wireKey(r.owner)
    let node = this.nodes.get(key)
    if (node === undefined) {
      node = { owner: r.owner, rrsets: new Map() }
      this.nodes.set(key, node)
      // Every name between the owner and the apex exists (RFC 4592 §2.2.2).
      this.countBelow(r.owner, 1)
    }
    const existing = node.rrsets.get(r.type)
    if (existing === undefined) node.rrsets.set(r.type, { ttl: r.ttl, rdata: [r.rdata], ...(order === undefined ? {} : { order }) })
    else {
      existing.rdata.push(r.rdata)
      if (r.ttl < existing.ttl) existing.ttl = r.ttl
    }
  }

  /** Add a whole rrset (a zone being loaded): one node lookup for all its records. */
  addRrset (owner: WireName, type: number, ttl: number, rdata: readonly Uint8Array[], order?: ServedRrset['order']): void {
    const key = wireKey(owner)
    let node = this.nodes.get(key)
    if (node === undefined) {
      node = { owner, rrsets: new Map() }
      this.nodes.set(key, node)
      this.countBelow(owner, 1)
    }
    const existing = node.rrsets.get(type)
    if (existing === undefined) node.rrsets.set(type, { ttl, rdata: [...rdata], ...(order === undefined ? {} : { order }) })
    else {
      existing.rdata.push(...rdata)
      if (ttl < existing.ttl) existing.ttl = ttl
    }
  }

  /** Remove one record (same owner, type and rdata octets); returns whether it was there. */
  remove (r: ZoneRecord): boolean {
    const key = wireKey(r.owner)
    const node = this.nodes.get(key)
    const rrset = node?.rrsets.get(r.type)
    if (node === undefined || rrset === undefined) return false
    const at = rrset.rdata.findIndex(d => sameOctets(d, r.rdata))
    if (at < 0) return false
    rrset.rdata.splice(at, 1)
    if (rrset.rdata.length > 0) return true
    node.rrsets.delete(r.type)
    if (node.rrsets.size > 0) return true
    this.nodes.delete(key)
    this.countBelow(r.owner, -1)
    return true
  }

  /**
   * Apply one serial step in place: its removals, then its additions (`order` gives the pool
   * order of each added rrset), the new serial and version; cached replies are dropped and the
   * step joins the IXFR journal.
   */
  apply (step: JournalStep, version: number, order?: (owner: WireName, type: number) => ServedRrset['order']): void {
    for (const r of step.removed) this.remove(r)
    for (const r of step.added) {
      const set = this.node(r.owner)?.rrsets.get(r.type)
      if (set !== undefined && set.ttl !== r.ttl) {
        // An rrset has one TTL: the step carries the whole rrset again when it changed.
        set.ttl = r.ttl
      }
      if (set?.rdata.some(d => sameOctets(d, r.rdata)) === true) continue
      this.add(r, order?.(r.owner, r.type))
    }
    for (const r of step.added) {
      const set = this.node(r.owner)?.rrsets.get(r.type)
      if (set === undefined) continue
      const o = order?.(r.owner, r.type)
      if (o === undefined) delete set.order
      else set.order = o
    }
    this.serial = step.serialTo
    this.version = version
    this.epoch++
    this.remember(step)
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

  /** Change the count of nodes below each name between `owner` and the apex by `delta`. */
  private countBelow (owner: WireName, delta: 1 | -1): void {
    let up = parentName(owner)
    while (up.length > this.origin.length && !nameEquals(up, this.origin)) {
      const k = wireKey(up)
      const n = (this.below.get(k) ?? 0) + delta
      if (n > 0) this.below.set(k, n)
      else this.below.delete(k)
      up = parentName(up)
    }
  }

  node (name: WireName): ZoneNode | undefined {
    return this.nodes.get(wireKey(name))
  }

  /** Whether the name exists: it owns records or names below it do. */
  exists (name: WireName): boolean {
    return this.existsByKey(wireKey(name))
  }

  /** {@link node} by the name's wire key. */
  nodeByKey (key: string): ZoneNode | undefined {
    return this.nodes.get(key)
  }

  /** {@link exists} by the name's wire key. */
  existsByKey (key: string): boolean {
    return this.nodes.has(key) || this.below.has(key)
  }

  get apex (): ZoneNode | undefined {
    return this.nodes.get(this.originKey)
  }
}
