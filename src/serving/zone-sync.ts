import { JOURNAL_STEPS, ZoneData, type JournalStep } from '../dns/index/zone-data.ts'
import type { ZoneIndex } from '../dns/index/zone-index.ts'
import type { Store, ZoneChange, ZoneVersion } from '../store/store.ts'
import { canonicalSortKey, parseName, wireKey, type WireName } from '../zone/name.ts'
import { renameRecord, renameUnder } from '../zone/rename.ts'
import type { ZoneRecord } from '../zone/record.ts'
import { readSoa } from '../zone/rdata/soa.ts'
import type { SecretBox } from '../auth/secrets.ts'
import { ZoneFollower } from './zone-follower.ts'
import type { ServedRrset, TransferPolicy } from '../dns/index/zone-data.ts'
import type { PoolProfile } from '../zone/pools/profile.ts'
import { parseIp } from '../zone/ip.ts'
import { endpointTarget, type ZoneSettings } from '../zone/settings.ts'
import { tsigKeyOf } from '../zones/tsig-key.ts'
import { RRType } from '../zone/rrtype.ts'
import { sameDown, servedPool, type ServedPool } from '../dns/answer/pools.ts'
import { DNSSEC_TYPES } from '../zone/dnssec/zone-cuts.ts'

/** The answer order of an RD pool profile, if the rrset is one. */
function poolOrder (profile: PoolProfile | null): ServedRrset['order'] {
  return profile?.kind === 'RD_POOLS' ? profile.order : undefined
}

/** The zone's transfer settings as the DNS server applies them (restrict list, TSIG key). */
export function transferPolicy (settings: Pick<ZoneSettings, 'restrictList' | 'tsig'>, secrets: SecretBox): TransferPolicy {
  const ranges = settings.restrictList
    .map(r => ({ start: parseIp(r.first), end: parseIp(r.last) }))
    .filter((r): r is { start: Uint8Array, end: Uint8Array } => r.start !== undefined && r.end !== undefined)
  return { ranges, ...(settings.tsig === null ? {} : { key: tsigKeyOf(settings.tsig, secrets) }) }
}

export interface SyncLogger {
  info (obj: object, msg: string): void
  error (obj: object, msg: string): void
}

export interface ZoneSyncOptions {
  /**
   * How often every zone's version is compared with what is served: the catch-up for changes
   * whose notification was missed. Changes made through the store are applied at once.
   */
  fullSyncMs?: number
  /** Called after a change moved a served zone's serial (NOTIFY out). */
  onSerialChange?: (zone: ZoneData, version: ZoneVersion) => void
  /** Told of every change made to the index, in order (the DNS worker threads follow it). */
  feed?: ZoneFeed
  /**
   * The records judged DOWN of a pool rrset (presentation rdata), by the id of the zone that
   * holds it and `wireKey(owner)/type`: a pool loaded or changed is served with its health.
   */
  poolHealth?: (zoneId: string, key: string) => readonly string[]
  /** Told of every traffic pool served anew (the service opens the GeoIP database for directional ones). */
  onPool?: (pool: ServedPool) => void
}

/** One serial step applied in place, with the pool order of each rrset it adds to. */
export interface AppliedStep {
  step: JournalStep
  /** `wireKey(owner)/type` of each rrset the step adds to, with its order (none for plain rrsets). */
  orders: [string, ServedRrset['order']][]
  /** `wireKey(owner)/type` of each rrset the step touches, with its traffic pool (null: none). */
  pools: [string, ServedPool | null][]
}

/**
 * The changes {@link ZoneSync} makes to its index, as another copy of it needs them: a zone
 * served anew (whole), steps applied in place to a zone already served, settings changed, a zone
 * gone.
 */
export interface ZoneFeed {
  zoneServed (data: ZoneData): void
  zoneApplied (data: ZoneData, steps: AppliedStep[]): void
  zoneSettings (data: ZoneData): void
  zoneDropped (origin: WireName): void
  /** A traffic pool's health changed (`key`: `wireKey(owner)/type`). */
  zonePool (data: ZoneData, key: string, pool: ServedPool): void
}

/** What is served of one zone, and from which versions. */
interface Served {
  version: number
  /** The aliased primary's version (0 for other zones). */
  originalVersion: number
  data: ZoneData
  /** The zone whose records are served: the zone itself, or an alias's primary. */
  sourceId: string
  /** The name of that zone's origin (the alias's primary's for an alias). */
  sourceOrigin: WireName
}

/** Rrsets read per query when a zone is loaded whole. */
const PAGE = 5000

/** Loads of one zone that let other work run between pages, before one that does not. */
const LOAD_YIELDING_TRIES = 3

/** Whether `steps` lead one after another from serial `from` to serial `to`, without a reset. */
function chains (steps: readonly ZoneChange[], from: number, to: number): steps is Extract<ZoneChange, { reset: false }>[] {
  let at = from
  for (const s of steps) {
    if (s.reset || s.serialFrom !== at) return false
    at = s.serialTo
  }
  return at === to
}

/** Whether served data is signed (a DNSKEY rrset at its apex). */
function servedSigned (data: ZoneData): boolean {
  return data.apex?.rrsets.has(RRType.DNSKEY) === true
}

/**
 * An alias's journal steps paired with its primary's: each primary step with the alias's step of
 * the same serials (the alias's DNSSEC rrsets changed with it, `zones/dnssec/alias.ts`), or none
 * for an alias served unsigned that no step signed. Undefined when they do not pair up (a reset,
 * an alias step of no primary step, a signed alias without its step): the alias is loaded whole.
 */
function pairSteps (steps: readonly ZoneChange[], own: readonly ZoneChange[], signed: boolean): Array<Extract<ZoneChange, { reset: false }> | undefined> | undefined {
  const bySerials = new Map<string, Extract<ZoneChange, { reset: false }>>()
  for (const s of own) {
    if (s.reset) return undefined
    bySerials.set(`${s.serialFrom}/${s.serialTo}`, s)
  }
  const out = steps.map(s => bySerials.get(`${s.serialFrom}/${s.serialTo}`))
  if (out.filter(s => s !== undefined).length !== own.length) return undefined
  if ((signed || own.length > 0) && out.some(s => s === undefined)) return undefined
  return out
}

/**
 * Keeps the DNS index in step with the store (DESIGN.md: the answer path never reads the
 * database). At start every ACTIVE zone is loaded, page by page, without holding up the API.
 * Then each zone the store reports changed (`Store.watchZones`: this process's commits at once,
 * other processes' through PostgreSQL LISTEN/NOTIFY or SQLite's data version) is brought up to
 * date from the change journal — its serial steps applied in place — or reloaded whole when the
 * journal cannot bridge the gap (trimmed, a wholesale replacement). Every `fullSyncMs` all
 * zones' versions are compared as well, which catches anything a notification missed. Suspended
 * and deleted zones leave the index. An alias is served with its primary's data moved under the
 * alias name (its DNSSEC records left out) and its own DNSSEC rows (a signed primary's aliases
 * are signed under their own names, `zones/dnssec/alias.ts`), and follows its primary's journal
 * merged with its own.
 */
export class ZoneSync {
  private readonly served = new Map<string, Served>()
  private readonly everServed = new Set<string>()
  /** Secondary zones past their expire time (they answer SERVFAIL until a transfer succeeds). */
  private readonly expiredZones = new Set<string>()
  private readonly ids = new WeakMap<ZoneData, string>()
  /** Loads of a zone given up because it changed meanwhile. */
  private readonly loadTries = new Map<string, number>()
  private readonly follower: ZoneFollower

  private readonly store: Store
  private readonly index: ZoneIndex
  private readonly logger: SyncLogger
  private readonly secrets: SecretBox
  private readonly opts: ZoneSyncOptions

  constructor (
    store: Store,
    index: ZoneIndex,
    logger: SyncLogger,
    secrets: SecretBox,
    opts: ZoneSyncOptions = {}
  ) {
    this.store = store
    this.index = index
    this.logger = logger
    this.secrets = secrets
    this.opts = opts
    this.follower = new ZoneFollower(store, logger, 'zone sync', { all: async () => await this.syncAll(), some: async (ids) => await this.syncSome(ids) }, opts.fullSyncMs)
  }

  private get stopped (): boolean {
    return this.follower.stopped
  }

  /** Start watching and loading; resolves when every zone has been loaded once. */
  async start (): Promise<void> {
    await this.follower.start()
  }

  async stop (): Promise<void> {
    await this.follower.stop()
  }

  /** Bring one zone (and its aliases) up to date soon. */
  request (zoneId: string): void {
    this.follower.request(zoneId)
  }

  /** Compare every zone's version soon. */
  requestAll (): void {
    this.follower.requestAll()
  }

  /** Mark a secondary zone expired (SERVFAIL) or not, now and across reloads. */
  setExpired (zoneId: string, expired: boolean): void {
    if (expired) this.expiredZones.add(zoneId)
    else this.expiredZones.delete(zoneId)
    const data = this.served.get(zoneId)?.data
    if (data === undefined || data.expired === expired) return
    data.expired = expired
    data.epoch++
    this.opts.feed?.zoneSettings(data)
  }

  /** The id of the zone a served zone's data belongs to. */
  zoneIdOf (data: ZoneData): string | undefined {
    return this.ids.get(data)
  }

  /** Resolves when the work asked for so far is done. */
  async settled (): Promise<void> {
    await this.follower.settled()
  }

  /** Compare every zone; drop the ones gone. */
  private async syncAll (): Promise<void> {
    const zones = await this.store.zones.versions()
    const byId = new Map(zones.map(z => [z.id, z]))
    let changed = 0
    for (const z of zones) {
      if (this.stopped) return
      if (await this.syncZone(z, z.original_zone_id === null ? undefined : byId.get(z.original_zone_id))) changed++
    }
    for (const id of [...this.served.keys()]) if (!byId.has(id)) this.drop(id)
    if (changed > 0) this.logger.info({ changed, served: this.index.size }, 'DNS zones loaded')
  }

  /** Bring some zones and their aliases up to date; drop the ones gone. */
  private async syncSome (ids: readonly string[]): Promise<void> {
    const zones = await this.store.zones.versionsOf(ids)
    const byId = new Map(zones.map(z => [z.id, z]))
    const missing = zones.map(z => z.original_zone_id).filter((id): id is string => id !== null && !byId.has(id))
    for (const z of await this.store.zones.versionsOf(missing)) byId.set(z.id, z)
    for (const z of zones) {
      if (this.stopped) return
      await this.syncZone(z, z.original_zone_id === null ? undefined : byId.get(z.original_zone_id))
    }
    for (const id of ids) if (!byId.has(id)) this.drop(id)
  }

  private drop (id: string): void {
    const served = this.served.get(id)
    if (served === undefined) return
    this.served.delete(id)
    if (this.index.get(served.data.origin) === served.data) {
      this.index.delete(served.data.origin)
      this.opts.feed?.zoneDropped(served.data.origin)
    }
  }

  /** Serve the zone as its row says; returns whether anything changed. */
  private async syncZone (z: ZoneVersion, original: ZoneVersion | undefined): Promise<boolean> {
    const alias = z.zone_type === 'ALIAS'
    if (z.status !== 'ACTIVE' || (alias && original === undefined)) {
      const was = this.served.has(z.id)
      this.drop(z.id)
      return was
    }
    const source = alias ? original! : z
    const originalVersion = alias ? original!.version : 0
    const known = this.served.get(z.id)
    if (known !== undefined && known.version === z.version && known.originalVersion === originalVersion) return false
    const origin = parseName(z.name)
    const rename = alias ? (r: ZoneRecord) => renameRecord(r, parseName(source.name), origin) : (r: ZoneRecord) => r
    // An alias does not serve its primary's DNSSEC records: they are signed under the primary's
    // name (and NSEC3 owners are its hashes). It serves its own, signed under its name.
    const served = alias ? (r: ZoneRecord) => !DNSSEC_TYPES.has(r.type) : () => true

    const servedSerial = known?.data.serial
    let data: ZoneData | undefined
    const applied: AppliedStep[] = []
    if (known !== undefined) {
      const from = alias ? known.originalVersion : known.version
      const steps = from === source.version ? [] : (await this.store.zoneChanges.since(source.id, from, JOURNAL_STEPS + 1)).filter(s => s.version <= source.version)
      const own = !alias || known.version === z.version ? [] : (await this.store.zoneChanges.since(z.id, known.version, JOURNAL_STEPS + 1)).filter(s => s.version <= z.version)
      const paired = alias ? pairSteps(steps, own, servedSigned(known.data)) : steps.map(() => undefined)
      if (paired !== undefined && chains(steps, known.data.serial, source.serial)) {
        data = known.data
        const sourceOrigin = parseName(source.name)
        for (const [i, s] of steps.entries()) {
          const mine = paired[i]
          const step = { serialFrom: s.serialFrom, serialTo: s.serialTo, removed: [...s.removed.filter(served).map(rename), ...(mine?.removed ?? [])], added: [...s.added.filter(served).map(rename), ...(mine?.added ?? [])] }
          // The rrsets added to, and the pools removed from (a removal leaves a plain rrset as it was).
          const poolsRemoved = data.pools.size === 0 ? [] : s.removed.filter(r => known.data.poolOf(rename(r).owner, r.type) !== undefined)
          const touched = await this.rrsetsOf(source.id, origin, rename, [...poolsRemoved, ...s.added])
          const given = new Map<string, ServedRrset['order']>()
          data.apply(step, z.version, (owner, type) => {
            const order = touched.get(`${wireKey(renameUnder(owner, origin, sourceOrigin))}/${type}`)?.order
            given.set(`${wireKey(owner)}/${type}`, order)
            return order
          })
          const pools: [string, ServedPool | null][] = []
          for (const { owner, type, pool } of touched.values()) {
            const servedKey = `${wireKey(alias ? renameUnder(owner, sourceOrigin, origin) : owner)}/${type}`
            if (pool === undefined && !data.pools.has(servedKey)) continue
            data.setPool(servedKey, pool)
            pools.push([servedKey, pool ?? null])
            if (pool !== undefined) this.opts.onPool?.(pool)
          }
          applied.push({ step, orders: [...given], pools })
        }
        data.version = z.version
      }
    }
    if (data === undefined) {
      // A load that lets other work run between its pages may take in a change made meanwhile
      // on some pages and not others: its data is kept only if the zone did not change. After a
      // few such tries (a zone written to without pause) the load holds the loop to the end.
      const tries = this.loadTries.get(z.id) ?? 0
      const loaded = await this.load(z, source, origin, rename, tries < LOAD_YIELDING_TRIES)
      if (loaded === undefined) {
        this.loadTries.set(z.id, tries + 1)
        this.request(z.id)
        return false
      }
      this.loadTries.delete(z.id)
      data = loaded
    }
    const row = await this.store.zones.findById(z.id)
    if (row !== undefined) {
      data.transfer = transferPolicy(row.settings, this.secrets)
      data.notify = row.settings.notify.map(n => endpointTarget(n.endpoint))
      // The addresses whose NOTIFY this secondary accepts (RFC 1996 §3.10).
      if (row.zone_type === 'SECONDARY') data.primaries = row.settings.primaries.map(s => endpointTarget(s.endpoint))
      else delete data.primaries
    }
    data.expired = this.expiredZones.has(z.id)
    if (this.index.get(origin) !== data) {
      this.index.set(data)
      this.opts.feed?.zoneServed(data)
    } else {
      if (applied.length > 0) this.opts.feed?.zoneApplied(data, applied)
      else this.opts.feed?.zoneSettings(data)
    }
    this.served.set(z.id, { version: z.version, originalVersion, data, sourceId: source.id, sourceOrigin: parseName(source.name) })
    // Health set while the zone was read: served now, in every thread.
    for (const [key, pool] of data.pools) {
      const down = this.opts.poolHealth?.(source.id, pool.key) ?? []
      if (sameDown(down, pool.down)) continue
      const next = { ...pool, down: [...down] }
      data.setPool(key, next)
      this.opts.feed?.zonePool(data, key, next)
    }
    this.ids.set(data, z.id)
    // RFC 1996 §3.5: tell the secondaries when the serial moves, and when a zone served before
    // comes back (unsuspend); not on the first load after start.
    const moved = known !== undefined ? servedSerial !== data.serial : this.everServed.has(z.id)
    this.everServed.add(z.id)
    if (moved) this.opts.onSerialChange?.(data, z)
    return true
  }

  /**
   * The rrsets a step touches as stored now (by source owner key and type): their RD pool order
   * and their traffic pool, with its health; a pool's records moved under the served `origin`
   * (`rename`: an alias's names in rdata, such as a directional CNAME pool's targets).
   */
  private async rrsetsOf (zoneId: string, origin: WireName, rename: (r: ZoneRecord) => ZoneRecord, records: readonly ZoneRecord[]): Promise<Map<string, { owner: WireName, type: number, order: ServedRrset['order'], pool: ServedPool | undefined }>> {
    const out = new Map<string, { owner: WireName, type: number, order: ServedRrset['order'], pool: ServedPool | undefined }>()
    for (const r of records) {
      const key = `${wireKey(r.owner)}/${r.type}`
      if (out.has(key)) continue
      const rrset = await this.store.rrsets.get(zoneId, canonicalSortKey(r.owner), r.type)
      const profile = rrset?.profile ?? null
      const rdata = rrset?.rdata.map(d => rename({ owner: r.owner, type: r.type, ttl: rrset.ttl, rdata: d }).rdata)
      const pool = rdata === undefined ? undefined : servedPool(profile, key, r.type, rdata, origin, this.opts.poolHealth?.(zoneId, key))
      out.set(key, { owner: r.owner, type: r.type, order: poolOrder(profile), pool })
    }
    return out
  }

  /**
   * The served zones whose records come from zone `zoneId` (the zone itself, its aliases): each
   * with the name of `zoneId`'s origin, for the owners to be moved under the served origin.
   */
  servedFrom (zoneId: string): { data: ZoneData, sourceOrigin: WireName }[] {
    const out: { data: ZoneData, sourceOrigin: WireName }[] = []
    for (const s of this.served.values()) if (s.sourceId === zoneId) out.push({ data: s.data, sourceOrigin: s.sourceOrigin })
    return out
  }

  /**
   * Load a zone whole, a page of rrsets at a time, with the journal steps IXFR may serve. With
   * `yielding`, other work (API requests) runs between pages, and the result is undefined when
   * the zone's version moved meanwhile (the pages may mix two versions).
   */
  private async load (zone: ZoneVersion, source: ZoneVersion, origin: WireName, rename: (r: ZoneRecord) => ZoneRecord, yielding: boolean): Promise<ZoneData | undefined> {
    const alias = source !== zone
    const sourceOrigin = parseName(source.name)
    const data = new ZoneData(origin, source.serial, zone.version)
    let after: { ownerKey: string, type: number } | undefined
    for (let pages = 0; ; pages++) {
      if (yielding && pages > 0) await new Promise(resolve => setImmediate(resolve))
      const page = await this.store.rrsets.listWire(source.id, PAGE, after)
      for (const rrset of page) {
        if (alias && DNSSEC_TYPES.has(rrset.type)) continue
        const owner = parseName(rrset.ownerName)
        const order = poolOrder(rrset.profile)
        if (!alias) data.addRrset(owner, rrset.type, rrset.ttl, rrset.rdata, order)
        else for (const rdata of rrset.rdata) data.add(rename({ owner, type: rrset.type, ttl: rrset.ttl, rdata }), order)
        const sourceKey = `${wireKey(owner)}/${rrset.type}`
        const rdata = alias ? rrset.rdata.map(d => rename({ owner, type: rrset.type, ttl: rrset.ttl, rdata: d }).rdata) : rrset.rdata
        const pool = servedPool(rrset.profile, sourceKey, rrset.type, rdata, origin, this.opts.poolHealth?.(source.id, sourceKey))
        if (pool !== undefined) {
          data.pools.set(alias ? `${wireKey(renameUnder(owner, sourceOrigin, origin))}/${rrset.type}` : sourceKey, pool)
          this.opts.onPool?.(pool)
        }
      }
      if (page.length < PAGE) break
      const last = page[page.length - 1]!
      after = { ownerKey: last.ownerKey, type: last.type }
    }
    // An alias's own rows: its DNSSEC records, signed under its name.
    after = undefined
    for (let more = alias; more;) {
      const page = await this.store.rrsets.listWire(zone.id, PAGE, after)
      for (const rrset of page) {
        const owner = parseName(rrset.ownerName)
        for (const rdata of rrset.rdata) data.add({ owner, type: rrset.type, ttl: rrset.ttl, rdata })
      }
      more = page.length === PAGE
      const last = page[page.length - 1]
      if (last !== undefined) after = { ownerKey: last.ownerKey, type: last.type }
    }
    if (yielding) {
      const now = await this.store.zones.versionsOf([source.id])
      if (now.find(v => v.id === source.id)?.version !== source.version) return undefined
      if (alias && now.find(v => v.id === zone.id)?.version !== zone.version) return undefined
    }
    // The records were written straight into the packed image: it becomes read-only and shareable.
    data.seal()
    // The serial served is the one in the data (the row's when the zone has no SOA yet).
    const soa = data.apex?.rrsets.get(RRType.SOA)?.rdata[0]
    if (soa !== undefined) data.serial = readSoa(soa).serial
    // The journal steps that end at the loaded serial, newest last, for IXFR; an alias's merged
    // with its own steps of the same serials (a signed alias's steps without theirs are not served).
    const steps = (await this.store.zoneChanges.latest(source.id, JOURNAL_STEPS)).filter(s => s.version <= source.version)
    const own = new Map<string, Extract<ZoneChange, { reset: false }>>()
    if (alias) for (const s of await this.store.zoneChanges.latest(zone.id, JOURNAL_STEPS)) if (!s.reset && s.version <= zone.version) own.set(`${s.serialFrom}/${s.serialTo}`, s)
    const signed = servedSigned(data)
    let start = steps.length
    let at = data.serial
    while (start > 0) {
      const s = steps[start - 1]!
      if (s.reset || s.serialTo !== at) break
      if (alias && signed && !own.has(`${s.serialFrom}/${s.serialTo}`)) break
      at = s.serialFrom
      start--
    }
    const served = alias ? (r: ZoneRecord) => !DNSSEC_TYPES.has(r.type) : () => true
    for (const s of steps.slice(start)) {
      if (s.reset) continue
      const mine = own.get(`${s.serialFrom}/${s.serialTo}`)
      const step: JournalStep = { serialFrom: s.serialFrom, serialTo: s.serialTo, removed: [...s.removed.filter(served).map(rename), ...(mine?.removed ?? [])], added: [...s.added.filter(served).map(rename), ...(mine?.added ?? [])] }
      data.remember(step)
    }
    return data
  }
}
