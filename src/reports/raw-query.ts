import { QueryFlag } from '../dns/server/query-capture.ts'
import { ZonalError } from '../errors/catalog.ts'
import { typeName } from '../zone/rrtype.ts'
import type { ReportDefinition } from './requests/definition.ts'
import { addDays, checkHistoryDays, dayOf, optionalText, parseReportDateTime, reportAccount, section, zoneOfAccounts } from './requests/validate.ts'

export interface RawQueryParams {
  zone?: string
  /** Packet times from, to (both included): 'YYYY-MM-DDTHH:mm:ss.SSSZ'. */
  from: string
  to: string
}

const DAY_MS = 86_400_000

/** 1 when the bit is set, else 0 (the real API's example shows 0 for false). */
const bit = (flags: number, b: number): number => (flags & b) !== 0 ? 1 : 0

/**
 * The raw query sample report (spec "Raw query sample record"; the real API's "Raw Query Sample
 * Report" page): the sampled responses of the account's zones (or one zone) between two packet
 * times, ordered by packetDatetime then packetId. Dates default to the real page's: 00:00:00.000
 * to 23:59:59.999 of yesterday (UTC). At most 90 days back, a span of at most 90 days.
 *
 * How the fields are made from what the capture stored: resolverIP/resolverPort are the
 * address and port the query came from; clientIp is the request's EDNS Client Subnet address
 * when it had one, else the resolver's, and clientPort the resolver's port;
 * queryResponseIndicator is 'Response' (responses are what is captured), responseMicroSet the
 * time from receipt to the response handed to the socket; ucapPacketErr 0 (a request that
 * could not be parsed is answered FORMERR and sampled with that rcode); tldSldIndicator 'TLD'
 * when the zone is a top-level name (one label), else 'SLD'; the indicator fields are 1 or 0;
 * dnsMsgLength the response's length; qtype the type's name.
 */
export const rawQueryReport: ReportDefinition<RawQueryParams> = {
  prefix: 'RQS',
  path: 'reports/dns_resolution/sample/raw_query',
  summary: 'Request the raw query sample report (sampled responses of the account\'s zones)',
  limit: { default: 1000, max: 10_000 },
  columns: [
    'accountName', 'udpTcpIndicator', 'tldSldIndicator', 'queryResponseIndicator', 'responseMicroSet', 'ucapPacketErr', 'resolverPort', 'resolverIP',
    'truncatedIndicator', 'recursionDesired', 'recursionAvailable', 'rcode', 'qdcount', 'packetId', 'packetDatetime', 'opcode', 'dnsMsgLength', 'dnsId',
    'clientPort', 'clientIp', 'checkingDisabled', 'authenticDataIndicator', 'authenticAnswerIndicator', 'arcount', 'ancount', 'nscount', 'qname', 'qtype',
    'zoneName', 'ipVersion'
  ],
  async parse (input) {
    const s = section(input.body, 'rawQuerySample')
    const account = reportAccount(input, optionalText(s, 'accountName'))
    const startText = optionalText(s, 'packetStartDateTime')
    const endText = optionalText(s, 'packetEndDateTime')
    const yesterday = addDays(dayOf(input.now), -1)
    // Neither: yesterday (the real API's page). A start alone runs to now; an end alone starts a
    // day before it.
    const start = startText === undefined ? undefined : parseReportDateTime(startText)
    const end = endText === undefined ? undefined : parseReportDateTime(endText)
    const from = start ?? (end === undefined ? Date.parse(`${yesterday}T00:00:00.000Z`) : end - DAY_MS + 1)
    const to = end ?? (start === undefined ? Date.parse(`${yesterday}T23:59:59.999Z`) : input.now.getTime())
    if (to < from) throw new ZonalError('REPORT_PACKET_ORDER')
    if (from > input.now.getTime() || to > input.now.getTime()) throw new ZonalError('REPORT_DATE_FUTURE')
    checkHistoryDays(dayOf(from), input.now, 90)
    if (to - from > 90 * DAY_MS) throw new ZonalError('REPORT_SPAN', 'packetStartDateTime', 'packetEndDateTime', '90 days')
    const zoneName = optionalText(s, 'zoneName')
    const zone = zoneName === undefined ? undefined : await zoneOfAccounts(input, zoneName, [account])
    return { accounts: [account], params: { ...(zone === undefined ? {} : { zone }), from: new Date(from).toISOString(), to: new Date(to).toISOString() } }
  },
  async compute ({ store, params, accounts, offset, limit }) {
    const rows = await store.rawQueries.report({
      accountIds: accounts.map(a => a.id),
      ...(params.zone === undefined ? {} : { zone: params.zone }),
      from: params.from,
      to: params.to,
      offset,
      limit
    })
    return rows.map(r => ({
      accountName: r.accountName,
      udpTcpIndicator: r.transport === 'tcp' ? 'TCP' : 'UDP',
      tldSldIndicator: r.zone.split('.').filter(l => l !== '').length <= 1 ? 'TLD' : 'SLD',
      queryResponseIndicator: 'Response',
      responseMicroSet: r.responseMicros,
      ucapPacketErr: 0,
      resolverPort: r.port,
      resolverIP: r.address,
      truncatedIndicator: bit(r.flags, QueryFlag.TC),
      recursionDesired: bit(r.flags, QueryFlag.RD),
      recursionAvailable: bit(r.flags, QueryFlag.RA),
      rcode: r.rcode,
      qdcount: r.qdcount,
      packetId: r.packetId,
      packetDatetime: r.time,
      opcode: r.opcode,
      dnsMsgLength: r.responseSize,
      dnsId: r.dnsId,
      clientPort: r.port,
      clientIp: r.ecsAddress === '' ? r.address : r.ecsAddress,
      checkingDisabled: bit(r.flags, QueryFlag.CD),
      authenticDataIndicator: bit(r.flags, QueryFlag.AD),
      authenticAnswerIndicator: bit(r.flags, QueryFlag.AA),
      arcount: r.arcount,
      ancount: r.ancount,
      nscount: r.nscount,
      qname: r.qname,
      qtype: typeName(r.qtype),
      zoneName: r.zone,
      ipVersion: r.ipVersion
    }))
  }
}
