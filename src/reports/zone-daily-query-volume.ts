import { ZonalError } from '../errors/catalog.ts'
import type { CountSortKey } from '../store/store.ts'
import type { ReportDefinition } from './requests/definition.ts'
import {
  checkHistoryMonths, checkNotFuture, checkSpanDays, dayOf, monthOf, optionalDate, optionalText, reportAccounts,
  section, sortFieldsOf, zoneOfAccounts
} from './requests/validate.ts'
import { VOLUME_FIELDS, volumeFields } from './volume-fields.ts'

export interface ZoneDailyParams {
  zone: string
  from: string
  to: string
  sort: Array<[CountSortKey, 'ASC' | 'DESC']>
}

const SORTABLE: Readonly<Record<string, CountSortKey>> = { date: 'day', rspTotal: 'total' }

/**
 * Zone daily query volume (the real API's "Zone Daily Query Report"): one record per day with
 * responses for one zone. Defaults: the previous calendar month; span at most 60 days; history
 * 13 months; sorted by date unless `sortFields` says otherwise.
 */
export const zoneDailyQueryVolumeReport: ReportDefinition<ZoneDailyParams> = {
  prefix: 'ZDQV',
  path: 'reports/dns_resolution/query_volume/zone/daily',
  summary: 'Request the zone daily query volume report (one zone, per day)',
  limit: { default: 1000, max: 100_000 },
  columns: ['zoneName', 'accountName', 'date', ...VOLUME_FIELDS],
  async parse (input) {
    const s = section(input.body, 'zoneDailyQueryVolume')
    const accounts = reportAccounts(input, optionalText(s, 'accountName'))
    const zoneName = optionalText(s, 'zoneName')
    if (zoneName === undefined) throw new ZonalError('REPORT_ZONE_REQUIRED')
    const today = dayOf(input.now)
    const from = optionalDate(s, 'startDate') ?? monthOf(today, -1).first
    const to = optionalDate(s, 'endDate') ?? monthOf(today, -1).last
    checkNotFuture(from, to, input.now)
    if (to < from) throw new ZonalError('REPORT_DATE_ORDER_VOLUME')
    checkSpanDays('startDate', 'endDate', from, to, 60)
    checkHistoryMonths(from, input.now, 13)
    const zone = await zoneOfAccounts(input, zoneName, accounts)
    const sort = sortFieldsOf(input.body, SORTABLE)
    return { accounts, params: { zone, from, to, sort: sort.length > 0 ? sort : [['day', 'ASC']] } }
  },
  async compute ({ store, params, accounts, offset, limit }) {
    const rows = await store.queryCounts.volumeByDay({ accountIds: accounts.map(a => a.id), zone: params.zone, from: params.from, to: params.to, sort: params.sort, offset, limit })
    return rows.map(r => ({ zoneName: r.zone, accountName: r.accountName, date: r.start, ...volumeFields(r.counts) }))
  }
}
