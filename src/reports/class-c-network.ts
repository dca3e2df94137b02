import { countryFilter } from './client-ip.ts'
import type { ReportDefinition } from './requests/definition.ts'
import { directionalReportDays, optionalText, reportAccounts, section, zoneOfAccounts } from './requests/validate.ts'

export interface ClassCNetworkParams {
  from: string
  to: string
  zone?: string
  /** As stored: a lower-case name. */
  country?: string
}

/**
 * Class C network directional response counts, a Zonal extension (no real API report ranks
 * networks; the client IP report needs one given): the responses to the clients of each class C
 * network (IPv4 /24 `a.b.c.0`, IPv6 /48) over the zones of the accounts (the one named, else
 * every account the caller may read) or one zone, summed over the days of the range; most
 * responses first, then by network. The same date rules and spellings as the client IP and
 * country code reports; `country` keeps the clients placed in one country (name or ISO code).
 * Responses counted past the capture's bound of distinct clients (the overflow row, no network)
 * are in no row.
 */
export const classCNetworkReport: ReportDefinition<ClassCNetworkParams> = {
  prefix: 'CNDRC',
  path: 'reports/dns_resolution/directional_response_counts/class_c_network',
  summary: 'Zonal extension: request the class C network directional response counts report (responses per client network, most first)',
  limit: { default: 1000, max: 100_000 },
  columns: ['accountName', 'reportStartDate', 'reportEndDate', 'classCNetwork', 'responseCount'],
  async parse (input) {
    const s = section(input.body, 'classCNetworkDirectionalResponseCounts')
    const accounts = reportAccounts(input, optionalText(s, 'accountName'))
    const { from, to } = directionalReportDays(s, input.now)
    const zoneName = optionalText(s, 'zoneName')
    const zone = zoneName === undefined ? undefined : await zoneOfAccounts(input, zoneName, accounts)
    const country = countryFilter(optionalText(s, 'country'))
    return { accounts, params: { from, to, ...(zone === undefined ? {} : { zone }), ...(country === undefined ? {} : { country }) } }
  },
  async compute ({ store, params, accounts, offset, limit }) {
    const names = new Map(accounts.map(a => [a.id, a.name]))
    const rows = await store.clientResponses.networks({ accountIds: accounts.map(a => a.id), ...params, offset, limit })
    return rows.map(r => ({
      accountName: names.get(r.accountId) ?? '',
      reportStartDate: r.firstDay,
      reportEndDate: r.lastDay,
      classCNetwork: r.classC,
      responseCount: r.responses
    }))
  }
}
