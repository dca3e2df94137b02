import type { ZoneWithAccount } from '../store/store.ts'

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
  network2?: boolean
}

/**
 * The `properties` object of a zone (spec "Zone properties"): `recordCount` in single-zone
 * responses (and `resourceRecordCount`, which real responses carry, everywhere), `network2` in
 * lists, mailMonitor and certEnabled on primaries. Alias zones count the records of their primary.
 */
export function zoneProperties (zone: ZoneWithAccount, opts: { list: boolean, recordCount?: number }): ZonePropertiesDto {
  const count = opts.recordCount ?? zone.record_count
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
    ...(zone.zone_type === 'PRIMARY' ? { mailMonitor: zone.mail_monitor === 1, certEnabled: zone.cert_enabled === 1 } : {}),
    ...(opts.list ? { network2: zone.network2 === 1 } : {})
  }
}
