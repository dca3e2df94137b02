import { countryName } from '../analytics/geoip.ts'
import { canonicalAddress, networkOf } from '../analytics/networks.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { ReportDefinition } from './requests/definition.ts'
import { directionalReportDays, optionalText, reportAccount, section, zoneOfAccounts } from './requests/validate.ts'

/** A country filter as the report shows places (a lower-case name), given by its name (any case) or its ISO code. */
export function countryFilter (text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  return /^[a-z]{2}$/i.test(text) ? countryName(text) : text.toLowerCase()
}

export interface ClientIpParams {
  /** As stored: `a.b.c.0`, an IPv6 /48 compressed. */
  classC: string
  from: string
  to: string
  zone?: string
  clientIp?: string
  country?: string
  region?: string
  city?: string
}

/**
 * Client IP directional response counts (spec "Client IP directional response counts report"):
 * the responses sent to the clients of one class C network (required; IPv4 /24 `a.b.c.0`,
 * IPv6 /48) from the account's zones (or one zone), per client address, place (country, city,
 * region, lower-case names; '' where unknown) and answering node (`authNode`), summed over the
 * zones and days of the range. A row's reportStartDate and reportEndDate are the first and last
 * day in the range with responses (as the real page's example shows). Dates default to
 * yesterday; at most 90 days back and a 90-day span. Sorted by client address (numerically
 * within the /24), then node, country, region, city.
 */
export const clientIpReport: ReportDefinition<ClientIpParams> = {
  prefix: 'CIP',
  path: 'reports/dns_resolution/directional_response_counts/client_ip',
  summary: 'Request the client IP directional response counts report (responses per client of one class C network; places: IP Geolocation by DB-IP, https://db-ip.com)',
  limit: { default: 1000, max: 10_000 },
  columns: ['accountName', 'reportStartDate', 'reportEndDate', 'classCNetwork', 'clientIP', 'country', 'city', 'region', 'authNode', 'responseCount'],
  async parse (input) {
    const s = section(input.body, 'clientIPDirectionalResponseCounts')
    const account = reportAccount(input, optionalText(s, 'accountName'))
    const classText = optionalText(s, 'classCNetwork')
    if (classText === undefined) throw new ZonalError('REPORT_CLASS_C_REQUIRED')
    const classC = networkOf(classText)
    if (classC === undefined) throw new ZonalError('REPORT_BODY_INVALID', `classCNetwork '${classText}' is not an IPv4 /24 (a.b.c.0) or IPv6 /48 network`)
    const { from, to } = directionalReportDays(s, input.now)
    const zoneName = optionalText(s, 'zoneName')
    const zone = zoneName === undefined ? undefined : await zoneOfAccounts(input, zoneName, [account])
    const clientText = optionalText(s, 'clientIP')
    const clientIp = clientText === undefined ? undefined : canonicalAddress(clientText)
    if (clientText !== undefined && clientIp === undefined) throw new ZonalError('REPORT_BODY_INVALID', `clientIP '${clientText}' is not an IP address`)
    // A country by its name (as the report shows it) or by its ISO code.
    const country = countryFilter(optionalText(s, 'country'))
    const region = optionalText(s, 'region')?.toLowerCase()
    const city = optionalText(s, 'city')?.toLowerCase()
    return {
      accounts: [account],
      params: {
        classC,
        from,
        to,
        ...(zone === undefined ? {} : { zone }),
        ...(clientIp === undefined ? {} : { clientIp }),
        ...(country === undefined ? {} : { country }),
        ...(region === undefined ? {} : { region }),
        ...(city === undefined ? {} : { city })
      }
    }
  },
  async compute ({ store, params, accounts, offset, limit }) {
    const names = new Map(accounts.map(a => [a.id, a.name]))
    const rows = await store.clientResponses.report({ accountIds: accounts.map(a => a.id), ...params, offset, limit })
    return rows.map(r => ({
      accountName: names.get(r.accountId) ?? '',
      reportStartDate: r.firstDay,
      reportEndDate: r.lastDay,
      classCNetwork: r.classC,
      clientIP: r.clientIp,
      country: r.country,
      city: r.city,
      region: r.region,
      authNode: r.node,
      responseCount: r.responses
    }))
  }
}
