import type { CountSortKey } from '../store/store.ts'
import type { ReportDefinition } from './requests/definition.ts'
import {
  checkHistoryMonths, checkNotFuture, checkSpanMonths, dayOf, monthOf, optionalBoolean, optionalDate, optionalText,
  reportAccounts, section, sortFieldsOf, zoneOfAccounts
} from './requests/validate.ts'
import { ZonalError } from '../errors/catalog.ts'
import { VOLUME_FIELDS, volumeFields } from './volume-fields.ts'

export interface ZoneQueryVolumeParams {
  zone?: string
  from: string
  to: string
  /** `network2: true` (`ultra2` in the Python client): zones on the second network only, which this service does not have. */
  secondNetworkOnly: boolean
  sort: Array<[CountSortKey, 'ASC' | 'DESC']>
}

const SORTABLE: Readonly<Record<string, CountSortKey>> = { zoneName: 'zone', startDate: 'start', endDate: 'end', rspTotal: 'total' }

/**
 * Zone query volume (spec "Zone query volume report"): one record per zone and calendar month
 * with responses in the range, startDate and endDate the first and last day with responses in
 * that month. Defaults: the previous calendar month, every zone of the caller's accounts (or of
 * `accountName`); span at most 13 months, nothing in the future; sorted by zoneName then
 * endDate unless `sortFields` says otherwise.
 */
export const zoneQueryVolumeReport: ReportDefinition<ZoneQueryVolumeParams> = {
  prefix: 'PQV',
  path: 'reports/dns_resolution/query_volume/zone',
  summary: 'Request the zone query volume report (per zone and month)',
  limit: { default: 1000, max: 100_000 },
  columns: ['zoneName', 'accountName', 'startDate', 'endDate', ...VOLUME_FIELDS],
  async parse (input) {
    const s = section(input.body, 'zoneQueryVolume')
    const accounts = reportAccounts(input, optionalText(s, 'accountName'))
    const today = dayOf(input.now)
    const from = optionalDate(s, 'startDate') ?? monthOf(today, -1).first
    const to = optionalDate(s, 'endDate') ?? monthOf(today, -1).last
    checkNotFuture(from, to, input.now)
    if (to < from) throw new ZonalError('REPORT_DATE_ORDER_VOLUME')
    checkSpanMonths('startDate', 'endDate', from, to, 13)
    checkHistoryMonths(from, input.now, 13)
    const zoneName = optionalText(s, 'zoneName')
    const zone = zoneName === undefined ? undefined : await zoneOfAccounts(input, zoneName, accounts)
    const network2 = optionalBoolean(s, 'network2') ?? optionalBoolean(s, 'ultra2')
    const sort = sortFieldsOf(input.body, SORTABLE)
    return {
      accounts,
      params: { ...(zone === undefined ? {} : { zone }), from, to, secondNetworkOnly: network2 === true, sort: sort.length > 0 ? sort : [['zone', 'ASC'], ['end', 'ASC']] }
    }
  },
  async compute ({ store, params, accounts, offset, limit }) {
    if (params.secondNetworkOnly) return []
    const rows = await store.queryCounts.volumeByMonth({
      accountIds: accounts.map(a => a.id),
      ...(params.zone === undefined ? {} : { zone: params.zone }),
      from: params.from,
      to: params.to,
      sort: params.sort,
      offset,
      limit
    })
    return rows.map(r => ({ zoneName: r.zone, accountName: r.accountName, startDate: r.start, endDate: r.end, ...volumeFields(r.counts) }))
  }
}
