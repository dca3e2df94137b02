import { ZonalError } from '../errors/catalog.ts'
import type { CountSortKey } from '../store/store.ts'
import { normalizeZoneName } from '../zone/name.ts'
import type { ReportDefinition, ReportInput } from './requests/definition.ts'
import {
  checkHistoryDays, checkNotFuture, checkSpanDays, dayOf, monthOf, optionalDate, optionalText, reportAccounts,
  section, sortFieldsOf, zoneOfAccounts
} from './requests/validate.ts'
import { VOLUME_FIELDS, volumeFields } from './volume-fields.ts'

/**
 * The host query volume report and, on the same path, the advanced NXDOMAIN report
 * (`?advance=true&reportType=ADVANCED_NXDOMAINS`, what the Python client's
 * `create_advanced_nxdomain_report` sends), both from the per-host counts (`host_volume`).
 */
export type HostQueryVolumeParams =
  | { kind: 'volume', zone: string, host?: string, from: string, to: string, sort: Array<[CountSortKey, 'ASC' | 'DESC']> }
  | { kind: 'nxdomains', zones?: string[], from: string, to: string, sort: Array<[CountSortKey, 'ASC' | 'DESC']> }

const VOLUME_SORTABLE: Readonly<Record<string, CountSortKey>> = { hostName: 'host', startDate: 'start', endDate: 'end', rspTotal: 'total' }
const NXDOMAIN_SORTABLE: Readonly<Record<string, CountSortKey>> = { nxdomainCount: 'nxdomain', rspTotal: 'total', zoneName: 'zone', hostName: 'host', startDate: 'start', endDate: 'end' }

const VOLUME_COLUMNS = ['zoneName', 'hostName', 'accountName', 'startDate', 'endDate', ...VOLUME_FIELDS]
const NXDOMAIN_COLUMNS = ['zoneName', 'hostName', 'accountName', 'startDate', 'endDate', 'nxdomainCount', 'rspTotal']

/** Days back the per-host counts are kept (store/analytics-tables.ts), so how far back a request may start. */
const HISTORY_DAYS = 90

/**
 * startDate and endDate: both or neither (the page: 400 "when any one of startDate and endDate
 * is not provided"); neither means the 1st to the 7th of the previous calendar month. Not in
 * the future, in order, within the history and at most `spanDays` days, both counted.
 */
function dateRange (s: Record<string, unknown>, input: ReportInput, spanDays: number): { from: string, to: string } {
  const start = optionalDate(s, 'startDate')
  const end = optionalDate(s, 'endDate')
  if ((start === undefined) !== (end === undefined)) throw new ZonalError('REPORT_DATES_BOTH')
  const first = monthOf(dayOf(input.now), -1).first
  const from = start ?? first
  const to = end ?? `${first.slice(0, 8)}07`
  checkNotFuture(from, to, input.now)
  if (to < from) throw new ZonalError('REPORT_DATE_ORDER_VOLUME')
  checkHistoryDays(from, input.now, HISTORY_DAYS)
  checkSpanDays('startDate', 'endDate', from, to, spanDays)
  return { from, to }
}

/**
 * A host filter: a name in the zone, trailing dot optional, any case; a name not ending in the
 * zone's is taken as relative to it (`www` in `example.org.` is `www.example.org.`).
 */
function hostIn (text: string, zone: string): string {
  let name: string
  try {
    name = normalizeZoneName(text)
  } catch {
    throw new ZonalError('REPORT_BODY_INVALID', `hostName '${text.slice(0, 255)}' is not a valid name`)
  }
  if (name === zone || name.endsWith(`.${zone}`)) return name
  return normalizeZoneName(`${name}${zone}`)
}

async function parseVolume (input: ReportInput): Promise<{ accounts: Array<{ id: string, name: string }>, params: HostQueryVolumeParams }> {
  const s = section(input.body, 'hostQueryVolume')
  const accounts = reportAccounts(input, optionalText(s, 'accountName'))
  const zoneName = optionalText(s, 'zoneName')
  if (zoneName === undefined) throw new ZonalError('REPORT_ZONE_REQUIRED')
  const { from, to } = dateRange(s, input, 7)
  const zone = await zoneOfAccounts(input, zoneName, accounts)
  const hostName = optionalText(s, 'hostName')
  const sort = sortFieldsOf(input.body, VOLUME_SORTABLE)
  return {
    accounts,
    params: { kind: 'volume', zone, ...(hostName === undefined ? {} : { host: hostIn(hostName, zone) }), from, to, sort: sort.length > 0 ? sort : [['host', 'ASC'], ['end', 'ASC']] }
  }
}

async function parseNxdomains (input: ReportInput): Promise<{ accounts: Array<{ id: string, name: string }>, params: HostQueryVolumeParams }> {
  const s = section(input.body, 'hostQueryVolume')
  const accounts = reportAccounts(input, optionalText(s, 'accountName'))
  const { from, to } = dateRange(s, input, 30)
  const raw = s.zoneNames ?? (s.zoneName === undefined ? undefined : [s.zoneName])
  let zones: string[] | undefined
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw) || raw.some(z => typeof z !== 'string')) throw new ZonalError('REPORT_BODY_INVALID', 'zoneNames must be a list of zone names')
    zones = []
    for (const z of raw as string[]) zones.push(await zoneOfAccounts(input, z, accounts))
    zones = [...new Set(zones)]
  }
  const sort = sortFieldsOf(input.body, NXDOMAIN_SORTABLE)
  return {
    accounts,
    params: { kind: 'nxdomains', ...(zones === undefined ? {} : { zones }), from, to, sort: sort.length > 0 ? sort : [['nxdomain', 'DESC']] }
  }
}

/**
 * Host query volume (md/host_query_volume_report.md): for one zone (required) and one or every
 * host, the zone query volume fields per host over the range, startDate and endDate the first
 * and last day with responses; at most 7 days, 90 days back; sorted by hostName then endDate
 * unless `sortFields` says otherwise. Request ids `HQV-…`.
 *
 * With `advance=true&reportType=ADVANCED_NXDOMAINS`: the hosts with NXDOMAIN answers in the
 * zones of `zoneNames` (every zone of the accounts when absent), one record per zone and host
 * with nxdomainCount and rspTotal (all its responses), at most 30 days, sorted by
 * nxdomainCount descending by default. Request ids `HQV_NXD-…`.
 */
export const hostQueryVolumeReport: ReportDefinition<HostQueryVolumeParams> = {
  prefix: 'HQV',
  prefixOf: (params) => params.kind === 'nxdomains' ? 'HQV_NXD' : 'HQV',
  path: 'reports/dns_resolution/query_volume/host',
  summary: 'Request the host query volume report (per host of a zone), or with advance=true&reportType=ADVANCED_NXDOMAINS the NXDOMAIN hosts of zones',
  limit: { default: 1000, max: 100_000 },
  columns: VOLUME_COLUMNS,
  columnsOf: (params) => params.kind === 'nxdomains' ? NXDOMAIN_COLUMNS : VOLUME_COLUMNS,
  linkQueryOf: (params) => params.kind === 'nxdomains' ? 'advance=true&reportType=ADVANCED_NXDOMAINS' : undefined,
  async parse (input) {
    const advance = (input.query.advance ?? '').trim().toLowerCase() === 'true'
    const reportType = input.query.reportType?.trim()
    if (!advance) return await parseVolume(input)
    if (reportType !== 'ADVANCED_NXDOMAINS') throw new ZonalError('REPORT_REPORT_TYPE', (reportType ?? '').slice(0, 60))
    return await parseNxdomains(input)
  },
  async compute ({ store, params, accounts, offset, limit }) {
    const common = { accountIds: accounts.map(a => a.id), from: params.from, to: params.to, sort: params.sort, offset, limit }
    if (params.kind === 'nxdomains') {
      const rows = await store.hostVolume.nxdomainsByHost({ ...common, ...(params.zones === undefined ? {} : { zones: params.zones }) })
      return rows.map(r => ({ zoneName: r.zone, hostName: r.host, accountName: r.accountName, startDate: r.start, endDate: r.end, nxdomainCount: r.counts.nxdomain ?? 0, rspTotal: r.counts.rsp_total ?? 0 }))
    }
    const rows = await store.hostVolume.volumeByHost({ ...common, zone: params.zone, ...(params.host === undefined ? {} : { host: params.host }) })
    return rows.map(r => ({ zoneName: r.zone, hostName: r.host, accountName: r.accountName, startDate: r.start, endDate: r.end, ...volumeFields(r.counts) }))
  }
}
