import type { ForwardTable } from '../forwards/table.ts'
import type { Store, StoredWebForward, ZoneVersion } from '../store/store.ts'
import { servedForward } from '../zones/web-forwards.ts'
import type { SyncLogger } from './zone-sync.ts'
import { ZoneFollower } from './zone-follower.ts'

/** Forwards read per query when every zone's are loaded at start. */
const PAGE = 2000

export interface ForwardSyncOptions {
  /** How often every zone's version is compared with what the table holds (catch-up for missed notifications). */
  fullSyncMs?: number
}

/** What the table holds of one zone: from which versions (an alias's with its primary's), under which name. */
interface Known {
  version: string
  name: string
}

/**
 * Keeps a {@link ForwardTable} (what the forwarding HTTP server answers from) in step with the
 * store, as `zone-sync.ts` keeps the DNS index. Every forward change is a change of its zone (its
 * version moves on, `zones/web-forwards.ts`), so forwards need no signal of their own: at start
 * every zone's version is read, then every forward (a page at a time) and each zone's set in the
 * table; after that each zone the store reports changed (`Store.watchZones`: this process's
 * commits at once, other processes' through PostgreSQL LISTEN/NOTIFY or SQLite's data version)
 * whose version moved has its forwards read again and replaced in the table, and every
 * `fullSyncMs` all versions are compared as well. Forwards of a zone that is suspended or
 * deleted leave the table. An ACTIVE alias of an ACTIVE primary serves its primary's forwards
 * under its own name (its DNS answers the primary's records renamed, the forwarded hosts' too),
 * and follows its primary's changes.
 */
export class ForwardSync {
  private readonly known = new Map<string, Known>()
  /** primary id → the ids of its aliases the table holds. */
  private readonly aliases = new Map<string, Set<string>>()
  private readonly follower: ZoneFollower

  private readonly store: Store
  private readonly table: ForwardTable
  private readonly logger: SyncLogger

  constructor (store: Store, table: ForwardTable, logger: SyncLogger, opts: ForwardSyncOptions = {}) {
    this.store = store
    this.table = table
    this.logger = logger
    this.follower = new ZoneFollower(store, logger, 'web forward sync', { all: async () => await this.sync(await this.store.zones.versions(), true), some: async (ids) => await this.syncSome(ids) }, opts.fullSyncMs)
  }

  /** Start watching and load every zone's forwards; resolves when they are in the table. */
  async start (): Promise<void> {
    await this.follower.start(async () => await this.loadAll())
  }

  async stop (): Promise<void> {
    await this.follower.stop()
  }

  /** Bring one zone's forwards up to date soon. */
  request (zoneId: string): void {
    this.follower.request(zoneId)
  }

  /** Compare every zone's version soon. */
  requestAll (): void {
    this.follower.requestAll()
  }

  /** Resolves when the work asked for so far is done. */
  async settled (): Promise<void> {
    await this.follower.settled()
  }

  /** Versions first, then the forwards: a change made between the two is caught by its notification or the next comparison. */
  private async loadAll (): Promise<void> {
    const versions = await this.store.zones.versions()
    const byZone = new Map<string, StoredWebForward[]>()
    for (let after: string | undefined; ;) {
      const page = await this.store.webForwards.page(PAGE, after)
      for (const f of page) {
        const list = byZone.get(f.zoneId) ?? []
        list.push(f)
        byZone.set(f.zoneId, list)
      }
      if (page.length < PAGE) break
      after = page[page.length - 1]!.id
    }
    const byId = new Map(versions.map(z => [z.id, z]))
    for (const z of versions) {
      const original = z.original_zone_id === null ? undefined : byId.get(z.original_zone_id)
      this.set(z, original, served(z, original) ? byZone.get(original?.id ?? z.id) ?? [] : [])
    }
    this.logger.info({ forwards: this.table.size }, 'web forwards loaded')
  }

  /** Some zones (and the aliases of those the table holds) brought up to date. */
  private async syncSome (ids: readonly string[]): Promise<void> {
    const wanted = new Set(ids)
    for (const id of ids) for (const alias of this.aliases.get(id) ?? []) wanted.add(alias)
    const zones = await this.store.zones.versionsOf([...wanted])
    const present = new Set(zones.map(z => z.id))
    const missing = zones.map(z => z.original_zone_id).filter((id): id is string => id !== null && !present.has(id))
    await this.sync(zones, false, [...wanted], missing.length === 0 ? [] : await this.store.zones.versionsOf(missing))
  }

  /**
   * Zones whose versions moved have their forwards read again (an alias's from its primary);
   * zones gone (of `asked`, or all with `all`) leave the table. `originals` are primaries of
   * aliases among `zones` that `zones` does not hold.
   */
  private async sync (zones: readonly ZoneVersion[], all: boolean, asked: readonly string[] = [], originals: readonly ZoneVersion[] = []): Promise<void> {
    const present = new Set(zones.map(z => z.id))
    const byId = new Map([...originals, ...zones].map(z => [z.id, z]))
    for (const z of zones) {
      if (this.follower.stopped) return
      const original = z.original_zone_id === null ? undefined : byId.get(z.original_zone_id)
      if (this.known.get(z.id)?.version === versionOf(z, original)) continue
      this.set(z, original, served(z, original) ? await this.store.webForwards.list(original?.id ?? z.id) : [])
    }
    for (const id of all ? [...this.known.keys()] : asked) {
      if (present.has(id)) continue
      const gone = this.known.get(id)
      if (gone === undefined) continue
      this.table.setZone(gone.name, [])
      this.known.delete(id)
      for (const set of this.aliases.values()) set.delete(id)
    }
  }

  /** Set a zone's forwards in the table: its own, or for an alias its primary's moved under its name. */
  private set (z: ZoneVersion, original: ZoneVersion | undefined, forwards: readonly StoredWebForward[]): void {
    const before = this.known.get(z.id)
    if (before !== undefined && before.name !== z.name) this.table.setZone(before.name, [])
    const renamed = original === undefined ? forwards.map(servedForward) : forwards.map(f => ({ ...servedForward(f), zone: z.name, host: renameHost(f.host, original.name, z.name) }))
    this.table.setZone(z.name, renamed)
    this.known.set(z.id, { version: versionOf(z, original), name: z.name })
    if (z.original_zone_id !== null) {
      const set = this.aliases.get(z.original_zone_id) ?? new Set<string>()
      set.add(z.id)
      this.aliases.set(z.original_zone_id, set)
    }
  }
}

/** What a zone's forwards depend on: its version, an alias's with its primary's. */
function versionOf (z: ZoneVersion, original: ZoneVersion | undefined): string {
  return z.zone_type === 'ALIAS' ? `${Number(z.version)}/${original === undefined ? '-' : `${Number(original.version)}/${original.status}`}` : String(Number(z.version))
}

/** A host of zone `from` (`www.example.org`) under zone `to` (`www.example.com`); zone names with their final dot. */
function renameHost (host: string, from: string, to: string): string {
  const suffix = from.slice(0, -1)
  const target = to.slice(0, -1)
  return host === suffix ? target : `${host.slice(0, -suffix.length - 1)}.${target}`
}

/** Whether a zone's forwards are answered: an ACTIVE primary's, an ACTIVE alias's of an ACTIVE primary. */
function served (z: ZoneVersion, original: ZoneVersion | undefined): boolean {
  if (z.status !== 'ACTIVE') return false
  if (z.zone_type === 'PRIMARY') return true
  return z.zone_type === 'ALIAS' && original?.zone_type === 'PRIMARY' && original.status === 'ACTIVE'
}
