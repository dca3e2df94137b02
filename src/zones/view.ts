import type { SecretBox } from '../auth/secrets.ts'
import type { Store, ZoneWithAccount } from '../store/store.ts'
import { zoneProperties, type ZonePropertiesDto } from './properties.ts'
import type { NotifyAddress, PrimaryNameServers, RestrictIp, Tsig } from './sections.ts'

/** Shown instead of a TSIG secret to callers without write permission on the zone. */
export const MASKED_SECRET = '<TSIG_KEY_VALUE>'

export interface ZoneDto {
  properties: ZonePropertiesDto
  registrarInfo?: { nameServers: Record<string, string[]> }
  restrictIpList?: RestrictIp[]
  tsig?: Tsig
  notifyAddresses?: NotifyAddress[]
  primaryNameServers?: { nameServerIpList: PrimaryNameServers }
  transferStatusDetails?: Record<string, unknown>
  notificationEmailAddress?: string
  originalZoneName?: string
}

export function parseJson<T> (text: string | null, fallback: T): T {
  return text === null ? fallback : JSON.parse(text) as T
}

/** The stored sections with secrets opened (for writers) or masked (for readers). */
export function zoneSections (zone: ZoneWithAccount, secrets: SecretBox, reveal: boolean): {
  restrictIpList: RestrictIp[]
  tsig: Tsig | undefined
  notifyAddresses: NotifyAddress[]
  primaryNameServers: PrimaryNameServers | undefined
} {
  const secret = (v: string): string => reveal ? secrets.open(v) : MASKED_SECRET
  const tsig = parseJson<Tsig | undefined>(zone.tsig, undefined)
  const servers = parseJson<PrimaryNameServers | undefined>(zone.primary_name_servers, undefined)
  return {
    restrictIpList: parseJson<RestrictIp[]>(zone.restrict_ip_list, []),
    tsig: tsig === undefined ? undefined : { ...tsig, tsigKeyValue: secret(tsig.tsigKeyValue) },
    notifyAddresses: parseJson<NotifyAddress[]>(zone.notify_addresses, []),
    primaryNameServers: servers === undefined
      ? undefined
      : Object.fromEntries(Object.entries(servers).map(([k, s]) => [k, s.tsigKeyValue === undefined ? s : { ...s, tsigKeyValue: secret(s.tsigKeyValue) }]))
  }
}

/** Host names of the apex NS records (the first rrsets in canonical order). */
async function apexNameServers (store: Store, zone: ZoneWithAccount): Promise<string[]> {
  const first = await store.rrsets.list(zone.id, 8)
  const apex = first[0]?.ownerKey
  return first.filter(r => r.ownerKey === apex && r.type === 2).flatMap(r => r.rdataText)
}

/**
 * The Zone DTO by type (spec "Zone DTO"). `registrarInfo.nameServers` lists the zone's own NS
 * names under `unknown`: Zonal does not query registries, so it cannot say they are `ok`.
 */
export async function zoneDto (store: Store, secrets: SecretBox, zone: ZoneWithAccount, canWrite: boolean): Promise<ZoneDto> {
  const sections = zoneSections(zone, secrets, canWrite)
  if (zone.zone_type === 'ALIAS') {
    const original = zone.original_zone_id === null ? undefined : await store.zones.findById(zone.original_zone_id)
    return {
      properties: zoneProperties(zone, { list: false, recordCount: original?.record_count ?? 0 }),
      originalZoneName: original?.name ?? ''
    }
  }
  const properties = zoneProperties(zone, { list: false })
  if (zone.zone_type === 'SECONDARY') {
    return {
      properties,
      primaryNameServers: { nameServerIpList: sections.primaryNameServers ?? {} },
      transferStatusDetails: parseJson<Record<string, unknown>>(zone.transfer_status, {}),
      ...(zone.notification_email === null ? {} : { notificationEmailAddress: zone.notification_email })
    }
  }
  return {
    properties,
    registrarInfo: { nameServers: { unknown: await apexNameServers(store, zone) } },
    restrictIpList: sections.restrictIpList,
    ...(sections.tsig === undefined ? {} : { tsig: sections.tsig }),
    notifyAddresses: sections.notifyAddresses
  }
}
