import type { SecretBox } from '../../../auth/secrets.ts'
import type { ListedZone, Store, ZoneWithAccount } from '../../../store/store.ts'
import { canonicalSortKey, parseName } from '../../../zone/name.ts'
import type { SealedSecret, TransferState, ZoneSettings } from '../../../zone/settings.ts'
import { notifyDocument, primaryNameServersDocument, restrictListDocument, tsigDocument, type SecretView } from '../../../zones/sections.ts'

/**
 * The UltraDNS DTOs of zones, from the service's zones: one mapping per shape (properties for
 * lists and single zones, the Zone DTO of each type, its sections). The sections' spelling is
 * shared with the zone use cases (`zones/sections.ts`), which read and patch the same documents.
 */

/** Shown instead of a TSIG secret to callers without write permission on the zone. */
export const MASKED_SECRET = '<TSIG_KEY_VALUE>'

/** `yyyy-MM-ddTHH:mmZ` in UTC, the spec's shape of lastModifiedDateTime. */
export function formatModified (iso: string): string {
  return iso.slice(0, 16) + 'Z'
}

export interface ZonePropertiesDto {
  name: string
  accountName: string
  type: string
  dnssecStatus: string
  status: string
  owner: string
  lastModifiedDateTime: string
  recordCount?: number
  resourceRecordCount: number
  mailMonitor?: boolean
  certEnabled?: boolean
  valimailMonitor?: boolean
  network2?: boolean
}

/**
 * The `properties` object of a zone (spec "Zone properties"): `recordCount` in single-zone
 * responses (and `resourceRecordCount`, which real responses carry, everywhere), `network2` in
 * lists, mailMonitor, certEnabled and valimailMonitor on primaries (octoDNS reads
 * valimailMonitor from the list). Alias zones count the records of their primary.
 */
export function zoneProperties (zone: ListedZone, opts: { list: boolean, recordCount?: number }): ZonePropertiesDto {
  const count = opts.recordCount ?? Number(zone.record_count)
  const s = zone.settings
  return {
    name: zone.name,
    accountName: zone.account_name,
    type: zone.zone_type,
    dnssecStatus: zone.dnssec_status,
    status: zone.status,
    owner: zone.owner,
    lastModifiedDateTime: formatModified(zone.updated_at),
    ...(opts.list ? {} : { recordCount: count }),
    resourceRecordCount: count,
    ...(zone.zone_type === 'PRIMARY' ? { mailMonitor: s.mailMonitor, certEnabled: s.certEnabled, valimailMonitor: s.valimailMonitor } : {}),
    ...(opts.list ? { network2: zone.network2 === 1 } : {})
  }
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** A time in the spec's `transferStatusDetails` shape: `11/22/26 03:04:05 PM GMT`. */
export function transferTime (iso: string): string {
  const t = new Date(iso)
  const h = t.getUTCHours()
  const hour12 = h % 12 === 0 ? 12 : h % 12
  return `${pad(t.getUTCMonth() + 1)}/${pad(t.getUTCDate())}/${pad(t.getUTCFullYear() % 100)} ${pad(hour12)}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'} GMT`
}

export interface TransferStatusDto {
  lastRefresh?: string
  nextRefresh?: string
  lastRefreshStatus?: 'IN_PROGRESS' | 'SUCCESSFUL' | 'FAILED'
  lastRefreshStatusMessage?: string
}

/** `transferStatusDetails` (spec "Secondary zone"); `{}` before any transfer was asked for. */
export function transferStatusDto (state: TransferState | null): TransferStatusDto {
  if (state === null) return {}
  const p = state.phase
  const [status, message]: [TransferStatusDto['lastRefreshStatus'], string] =
    p.kind === 'requested'
      ? ['IN_PROGRESS', p.full ? 'Full zone transfer requested' : 'Zone transfer requested']
      : p.kind === 'running'
        ? ['IN_PROGRESS', 'Zone transfer in progress']
        : p.kind === 'succeeded'
          ? ['SUCCESSFUL', p.changed ? `Transferred serial ${p.serial}` : `Zone is up to date at serial ${p.serial}`]
          : ['FAILED', p.reason]
  return {
    ...(state.lastRefresh === undefined ? {} : { lastRefresh: transferTime(state.lastRefresh) }),
    ...(state.nextRefresh === undefined ? {} : { nextRefresh: transferTime(state.nextRefresh) }),
    lastRefreshStatus: status,
    lastRefreshStatusMessage: message
  }
}

/** Host names compared without case and trailing dot. */
const hostKey = (name: string): string => name.toLowerCase().replace(/\.$/, '')

export interface RegistrarInfoDto {
  registrar?: string
  whoisExpiration?: string
  nameServers: { ok: string[], missing: string[], incorrect: string[] }
}

/**
 * `registrarInfo` of a primary: what is stored of the registration, and the zone's name servers
 * (those the parent delegates it to, as the newest health check found them; the apex NS names
 * until a check did) against this service's name servers (`ZONAL_NAMESERVERS`): `ok` are among
 * them, `missing` are ours but absent, `incorrect` are listed but not ours.
 */
export function registrarInfoDto (registrar: ZoneSettings['registrar'], apexNs: readonly string[], ours: readonly string[]): RegistrarInfoDto {
  const mine = new Set(ours.map(hostKey))
  const apex = new Set(apexNs.map(hostKey))
  const expires = registrar?.whoisExpiration
  return {
    ...(registrar?.registrar === undefined ? {} : { registrar: registrar.registrar }),
    ...(expires === undefined ? {} : { whoisExpiration: `${expires.slice(0, 10)} ${expires.slice(11, 19)}` }),
    nameServers: {
      ok: apexNs.filter(n => mine.has(hostKey(n))),
      missing: ours.filter(n => !apex.has(hostKey(n))),
      incorrect: apexNs.filter(n => !mine.has(hostKey(n)))
    }
  }
}

export interface ZoneDto {
  properties: ZonePropertiesDto
  registrarInfo?: RegistrarInfoDto
  restrictIpList?: Record<string, unknown>[]
  tsig?: Record<string, unknown>
  notifyAddresses?: Record<string, unknown>[]
  primaryNameServers?: { nameServerIpList: Record<string, unknown> }
  transferStatusDetails?: TransferStatusDto
  notificationEmailAddress?: string
  originalZoneName?: string
}

/** What the Zone DTO reads besides the zone: its records, the secrets, this service's name servers. */
export interface ZoneDtoDeps {
  store: Store
  secrets: SecretBox
  nameservers: readonly string[]
}

/**
 * The Zone DTO by type (spec "Zone DTO"). TSIG secrets are shown to callers who may write the
 * zone (`reveal`), masked for the others. `known.apexNs`: the apex NS rdata when the caller read
 * it with the zone (`zoneWithApexNs`).
 */
export async function zoneDto (deps: ZoneDtoDeps, zone: ZoneWithAccount, reveal: boolean, known?: { apexNs: string[] }): Promise<ZoneDto> {
  const secret: SecretView = (v: SealedSecret) => reveal ? deps.secrets.open(v) : MASKED_SECRET
  const s = zone.settings
  if (zone.zone_type === 'ALIAS') {
    const original = zone.original_zone_id === null ? undefined : await deps.store.zones.findById(zone.original_zone_id)
    return {
      properties: zoneProperties(zone, { list: false, recordCount: Number(original?.record_count ?? 0) }),
      originalZoneName: original?.name ?? ''
    }
  }
  const properties = zoneProperties(zone, { list: false })
  if (zone.zone_type === 'SECONDARY') {
    return {
      properties,
      primaryNameServers: primaryNameServersDocument(s.primaries, secret),
      transferStatusDetails: transferStatusDto(s.transfer),
      ...(s.notificationEmail === null ? {} : { notificationEmailAddress: s.notificationEmail })
    }
  }
  // The delegation at the parent, as the newest health check found it; the apex NS until one did.
  const delegated = await deps.store.healthChecks.delegation(zone.id)
  const apexNs = delegated ?? known?.apexNs ?? (await deps.store.rrsets.get(zone.id, canonicalSortKey(parseName(zone.name)), 2))?.rdataText ?? []
  return {
    properties,
    registrarInfo: registrarInfoDto(s.registrar, apexNs, deps.nameservers),
    restrictIpList: restrictListDocument(s.restrictList),
    ...(s.tsig === null ? {} : { tsig: tsigDocument(s.tsig, secret) }),
    notifyAddresses: notifyDocument(s.notify)
  }
}
