import { ZoneData } from '../dns/index/zone-data.ts'
import type { ZoneIndex } from '../dns/index/zone-index.ts'
import type { Store, ZoneVersion } from '../store/store.ts'
import { parseName, wireKey } from '../zone/name.ts'
import { renameRecord, renameUnder } from '../zone/rename.ts'
import type { ZoneRecord } from '../zone/record.ts'
import type { SecretBox } from '../auth/secrets.ts'
import type { ServedRrset, TransferPolicy } from '../dns/index/zone-data.ts'
import type { ZoneRow } from '../store/schema.ts'
import { ipBytes, parseServerAddress, type RestrictIp, type Tsig } from '../zones/sections.ts'

/** The answer order of an RD pool profile (stored JSON), if the rrset is one. */
function poolOrder (profile: string | null): ServedRrset['order'] {
  if (profile === null) return undefined
  try {
    const p = JSON.parse(profile) as { '@context'?: unknown, order?: unknown }
    if (typeof p['@context'] !== 'string' || !p['@context'].endsWith('/RDPool.jsonschema')) return undefined
    return p.order === 'FIXED' || p.order === 'RANDOM' || p.order === 'ROUND_ROBIN' ? p.order : 'ROUND_ROBIN'
  } catch {
    return undefined
  }
}

/** The zone's transfer settings as the DNS server applies them (restrict list, TSIG key). */
export function transferPolicy (row: ZoneRow, secrets: SecretBox): TransferPolicy {
  const ranges = (row.restrict_ip_list === null ? [] : JSON.parse(row.restrict_ip_list) as RestrictIp[])
    .map(r => ({ start: ipBytes(r.startIP), end: ipBytes(r.endIP) }))
    .filter((r): r is { start: Uint8Array, end: Uint8Array } => r.start !== undefined && r.end !== undefined)
  const tsig = row.tsig === null ? undefined : JSON.parse(row.tsig) as Tsig
  return {
    ranges,
    ...(tsig === undefined ? {} : { key: { name: parseName(tsig.tsigKeyName), algorithm: tsig.tsigAlgorithm, secret: new Uint8Array(Buffer.from(secrets.open(tsig.tsigKeyValue), 'base64')) } })
  }
}

export interface SyncLogger {
  info (obj: object, msg: string): void
  error (obj: object, msg: string): void
}

/**
 * Keeps the DNS index in step with the store: loads every ACTIVE zone at start (in the
 * background, so the API is not held up), then compares zone versions every `intervalMs` and
 * reloads what changed, drops what was deleted or suspended. An alias is served with its
 * primary's data moved under the alias name, and is reloaded when its primary changes.
 */
export class ZoneSync {
  private readonly loaded = new Map<string, { version: number, originalVersion: number, serial: number }>()
  private readonly everServed = new Set<string>()
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = false

  constructor (
    private readonly store: Store,
    private readonly index: ZoneIndex,
    private readonly logger: SyncLogger,
    private readonly secrets: SecretBox,
    private readonly intervalMs = 500,
    /** Called after a reload changed the zone's serial (NOTIFY out). */
    private readonly onSerialChange?: (zone: ZoneData, version: ZoneVersion) => void
  ) {}

  /** Start loading and watching; resolves when the first full load is done. */
  async start (): Promise<void> {
    const first = this.sync()
    this.running = first
    await first
    this.schedule()
  }

  async stop (): Promise<void> {
    this.stopped = true
    if (this.timer !== undefined) clearTimeout(this.timer)
    await this.running
  }

  private schedule (): void {
    if (this.stopped) return
    this.timer = setTimeout(() => {
      this.running = this.sync().catch((err: unknown) => this.logger.error({ err }, 'zone sync failed')).finally(() => this.schedule())
    }, this.intervalMs)
    this.timer.unref()
  }

  /** One pass: reload zones whose version (or whose primary's version) changed. */
  async sync (): Promise<void> {
    const zones = await this.store.zones.versions()
    const byId = new Map(zones.map(z => [z.id, z]))
    const seen = new Set<string>()
    let reloaded = 0
    for (const z of zones) {
      if (z.status !== 'ACTIVE') continue
      seen.add(z.id)
      const original = z.original_zone_id === null ? undefined : byId.get(z.original_zone_id)
      const originalVersion = original?.version ?? 0
      const known = this.loaded.get(z.id)
      if (known !== undefined && known.version === z.version && known.originalVersion === originalVersion) continue
      const data = await this.load(z, original)
      this.loaded.set(z.id, { version: z.version, originalVersion, serial: z.serial })
      // RFC 1996 §3.5: tell the secondaries when the serial moves, and when a zone served
      // before comes back (unsuspend); not on the first load after start.
      const changed = known !== undefined ? known.serial !== z.serial : this.everServed.has(z.id)
      this.everServed.add(z.id)
      if (changed && data !== undefined) this.onSerialChange?.(data, z)
      reloaded++
      if (this.stopped) return
    }
    for (const [id] of this.loaded) {
      if (seen.has(id)) continue
      this.loaded.delete(id)
    }
    // Drop zones no longer served (deleted, suspended) from the index.
    const names = new Set(zones.filter(z => z.status === 'ACTIVE').map(z => z.name))
    for (const origin of this.index.origins()) if (!names.has(origin)) this.index.delete(parseName(origin))
    if (reloaded > 0) this.logger.info({ reloaded, served: this.index.size }, 'DNS zones loaded')
  }

  private async load (zone: ZoneVersion, original: ZoneVersion | undefined): Promise<ZoneData | undefined> {
    const origin = parseName(zone.name)
    if (zone.zone_type === 'ALIAS' && original === undefined) return undefined
    const source = zone.zone_type === 'ALIAS' ? original! : zone
    const from = parseName(source.name)
    const records: ZoneRecord[] = []
    const orders = new Map<string, ServedRrset['order']>()
    let after: { ownerKey: string, type: number } | undefined
    for (;;) {
      const page = await this.store.rrsets.list(source.id, 1000, after)
      for (const rrset of page) {
        const stored = parseName(rrset.ownerName)
        const owner = source === zone ? stored : renameUnder(stored, from, origin)
        const order = poolOrder(rrset.profile)
        if (order !== undefined) orders.set(`${wireKey(owner)}/${rrset.type}`, order)
        for (const rdata of rrset.rdata) {
          const r = { owner: stored, type: rrset.type, ttl: rrset.ttl, rdata }
          records.push(source === zone ? r : renameRecord(r, from, origin))
        }
      }
      if (page.length < 1000) break
      const last = page[page.length - 1]!
      after = { ownerKey: last.ownerKey, type: last.type }
    }
    const data = ZoneData.from(origin, zone.serial, zone.version, records, orders)
    const row = await this.store.zones.findById(zone.id)
    if (row !== undefined) {
      data.transfer = transferPolicy(row, this.secrets)
      data.notify = (row.notify_addresses === null ? [] : JSON.parse(row.notify_addresses) as { notifyAddress: string }[])
        .map(n => parseServerAddress(n.notifyAddress))
        .filter((t): t is { host: string, port: number } => t !== undefined)
    }
    this.index.set(data)
    return data
  }
}
