import { countryCode } from '../analytics/geoip.ts'
import type { ReportColumn, ReportDefinition } from './requests/definition.ts'
import { directionalReportDays, optionalText, reportAccounts, section, zoneOfAccounts } from './requests/validate.ts'

/**
 * The country codes the real report lists ("Country Code Directional Response Counts - Country
 * Codes"), each a key of every row's `responseCountByCountryCode`, in this order. Places of other
 * codes count in `responseCountOther`.
 */
export const REPORT_COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AN AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR ' +
  'BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC ' +
  'EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK ' +
  'HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB ' +
  'LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ ' +
  'NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU ' +
  'RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN ' +
  'TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ')

const LISTED = new Set(REPORT_COUNTRY_CODES)

export interface CountryCodeParams {
  from: string
  to: string
  zone?: string
}

/**
 * A zone's responses by stored country name as the report's fields: the total, the listed codes
 * (each present, 0 when none) and the rest (unknown places, codes not listed) as "other".
 */
export function countryCounts (countries: ReadonlyArray<{ country: string, responses: number }>): { total: number, other: number, byCode: Record<string, number> } {
  const byCode: Record<string, number> = {}
  for (const code of REPORT_COUNTRY_CODES) byCode[code] = 0
  let total = 0
  let other = 0
  for (const { country, responses } of countries) {
    total += responses
    const code = countryCode(country)
    if (LISTED.has(code)) byCode[code]! += responses
    else other += responses
  }
  return { total, other, byCode }
}

const COLUMNS: readonly ReportColumn[] = [
  'accountName', 'reportStartDate', 'reportEndDate', 'zoneName', 'responseCountTotal', 'responseCountOther',
  ...REPORT_COUNTRY_CODES.map(code => ({ key: `responseCountByCountryCode.${code}`, header: code }))
]

/**
 * Country code directional response counts (the real API's page; the spec is silent): per zone
 * of the accounts (the one named, else every account the caller may read) with responses in the
 * range, the responses by the client's country as ISO codes. Countries are stored by name
 * (`analytics/geoip.ts`) and turned back into their codes with the same ICU data; unknown places
 * and codes the page does not list are `responseCountOther`. reportStartDate and reportEndDate
 * are the zone's first and last day with responses in the range (as the client IP report's
 * rows). Dates default to yesterday; at most 90 days back and a 90-day span. Sorted by zone name.
 * CSV: one column per listed code after Total and Other, headed by the code (the page's CSV).
 */
export const countryCodeReport: ReportDefinition<CountryCodeParams> = {
  prefix: 'CCDRC',
  path: 'reports/dns_resolution/directional_response_counts/country_code',
  summary: 'Request the country code directional response counts report (responses per zone by the client\'s country; places: IP Geolocation by DB-IP, https://db-ip.com)',
  limit: { default: 1000, max: 100_000 },
  columns: COLUMNS,
  async parse (input) {
    const s = section(input.body, 'countryCodeDirectionalResponseCounts')
    const accounts = reportAccounts(input, optionalText(s, 'accountName'))
    const { from, to } = directionalReportDays(s, input.now)
    const zoneName = optionalText(s, 'zoneName')
    const zone = zoneName === undefined ? undefined : await zoneOfAccounts(input, zoneName, accounts)
    return { accounts, params: { from, to, ...(zone === undefined ? {} : { zone }) } }
  },
  async compute ({ store, params, accounts, offset, limit }) {
    const names = new Map(accounts.map(a => [a.id, a.name]))
    const zones = await store.clientResponses.countriesByZone({ accountIds: accounts.map(a => a.id), ...params, offset, limit })
    return zones.map(z => {
      const counts = countryCounts(z.countries)
      return {
        accountName: names.get(z.accountId) ?? '',
        reportStartDate: z.firstDay,
        reportEndDate: z.lastDay,
        zoneName: z.zone,
        responseCountTotal: counts.total,
        responseCountOther: counts.other,
        responseCountByCountryCode: counts.byCode
      }
    })
  }
}
