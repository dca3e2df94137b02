import { ZonalError } from '../errors/catalog.ts'
import type { ReportDefinition } from './requests/definition.ts'
import {
  addDays, checkHistoryDays, checkNotFuture, checkSpanDays, dayOf, optionalDate, optionalText, reportAccount, section, zoneOfAccounts
} from './requests/validate.ts'

export interface AdvancedResponseCodesParams {
  zone?: string
  from: string
  to: string
}

/**
 * Advanced response codes (spec "Advanced response codes report"): per zone of the account,
 * responses by rcode over the range; responseCount is the sum of the six counts (other rcodes,
 * BADVERS say, are in none of them). Dates default to yesterday; at most 90 days back and a
 * 90-day span (the real API's page); sorted by zone name.
 */
export const advancedResponseCodesReport: ReportDefinition<AdvancedResponseCodesParams> = {
  prefix: 'ARC',
  path: 'reports/dns_resolution/advanced_response_codes',
  summary: 'Request the advanced response codes report (per zone, by rcode)',
  limit: { default: 1000, max: 10_000 },
  columns: ['responseCount', 'reportStartDate', 'reportEndDate', 'refusedCount', 'notimpCount', 'nxdomainCount', 'servfailCount', 'formerrCount', 'noerrorCount', 'accountName', 'zoneName'],
  async parse (input) {
    const s = section(input.body, 'advancedResponseCodes')
    const account = reportAccount(input, optionalText(s, 'accountName'))
    const yesterday = addDays(dayOf(input.now), -1)
    const from = optionalDate(s, 'reportStartDate') ?? yesterday
    const to = optionalDate(s, 'reportEndDate') ?? yesterday
    checkNotFuture(from, to, input.now)
    if (to < from) throw new ZonalError('REPORT_DATE_ORDER')
    checkHistoryDays(from, input.now, 90)
    checkSpanDays('reportStartDate', 'reportEndDate', from, to, 90)
    const zoneName = optionalText(s, 'zoneName')
    const zone = zoneName === undefined ? undefined : await zoneOfAccounts(input, zoneName, [account])
    return { accounts: [account], params: { ...(zone === undefined ? {} : { zone }), from, to } }
  },
  async compute ({ store, params, accounts, offset, limit }) {
    const rows = await store.queryCounts.responseCodesByZone({
      accountIds: accounts.map(a => a.id),
      ...(params.zone === undefined ? {} : { zone: params.zone }),
      from: params.from,
      to: params.to,
      sort: [['zone', 'ASC']],
      offset,
      limit
    })
    return rows.map(r => {
      const c = r.counts
      const counts = {
        refusedCount: c.refused ?? 0,
        notimpCount: c.notimp ?? 0,
        nxdomainCount: c.nxdomain ?? 0,
        servfailCount: c.servfail ?? 0,
        formerrCount: c.formerr ?? 0,
        noerrorCount: c.noerror ?? 0
      }
      const responseCount = Object.values(counts).reduce((a, b) => a + b, 0)
      return { responseCount, reportStartDate: params.from, reportEndDate: params.to, ...counts, accountName: r.accountName, zoneName: r.zone }
    })
  }
}
