import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { stringify } from 'csv-stringify/sync'
import { ZonalError } from '../../../errors/catalog.ts'
import { dailyUsage, monthlyUsage, type UsagePeriod } from '../../../reports/usage-summary.ts'
import type { Store } from '../../../store/store.ts'
import type { Clock } from '../../../util/time.ts'
import { principalOf } from '../../plugins/auth.ts'
import { ErrorBody } from '../../schemas/common.ts'
import { UsageDailyList, UsageQuerystring, UsageSummaryList } from '../../schemas/usage.ts'
import { wantsCsv } from './csv.ts'

/** The counts of a month or day in the spec's spelling (spec "Usage summary record"). */
function counts (p: UsagePeriod) {
  return {
    domainsCount: p.peaks.domains,
    recordsCount: p.peaks.records,
    queryResponsesCount: p.queryResponses,
    urlForwardCount: p.peaks.urlForwards,
    failoverPoolRecordsCount: p.peaks.failoverRecords,
    trafficControllerRecordsCount: p.peaks.tcRecords,
    directionalRecordsCount: p.peaks.dirRecords
  }
}

/** CSV columns: the real API's headers (the failover pool column named as the spec's field). */
const MONTHLY_COLUMNS = [
  { key: 'accountName', header: 'Account Name' },
  { key: 'month', header: 'Month' },
  { key: 'domainsCount', header: 'Domains Count' },
  { key: 'recordsCount', header: 'Records Count' },
  { key: 'queryResponsesCount', header: 'Query Responses Count' },
  { key: 'urlForwardCount', header: 'URLForward Count' },
  { key: 'failoverPoolRecordsCount', header: 'Failover Pool Records Count' },
  { key: 'trafficControllerRecordsCount', header: 'TrafficController Records Count' },
  { key: 'directionalRecordsCount', header: 'Directional Records Count' }
]

const DAILY_COLUMNS = [
  { key: 'month', header: 'Month' },
  { key: 'date', header: 'Date' },
  { key: 'domainsCount', header: 'Domains' },
  { key: 'recordsCount', header: 'Records' },
  { key: 'queryResponsesCount', header: 'Query Responses' },
  { key: 'urlForwardCount', header: 'URL Forward' },
  { key: 'emailForwardCount', header: 'Email Forward' },
  { key: 'failoverPoolRecordsCount', header: 'Failover Pool Records' },
  { key: 'trafficControllerRecordsCount', header: 'TC Records' },
  { key: 'directionalRecordsCount', header: 'Directional Records' }
]

async function sendCsv (reply: FastifyReply, rows: Array<Record<string, unknown>>, columns: typeof MONTHLY_COLUMNS): Promise<FastifyReply> {
  const text = stringify(rows, { header: true, columns, record_delimiter: 'windows', escape_formulas: true })
  // A Buffer is sent as it is (the JSON schema of the 200 response does not apply to CSV).
  return await reply.header('content-type', 'text/csv; charset=utf-8').send(Buffer.from(text))
}

/**
 * The JSON body of a GET (`/usage_summary/daily` takes one, as the real API's does): Fastify
 * parses no body for GET, so it is read here, within the body limit. Nothing, or only
 * white space, is no body.
 * @throws ZonalError BODY_TOO_LARGE, MALFORMED_BODY
 */
async function getBody (request: FastifyRequest): Promise<unknown> {
  const length = request.headers['content-length']
  if (request.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return undefined
  const limit = request.routeOptions.bodyLimit ?? 0
  if (length !== undefined && Number(length) > limit) throw new ZonalError('BODY_TOO_LARGE', limit)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request.raw) {
    const b = chunk as Buffer
    size += b.length
    if (size > limit) throw new ZonalError('BODY_TOO_LARGE', limit)
    chunks.push(b)
  }
  const text = Buffer.concat(chunks).toString('utf8').trim()
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new ZonalError('MALFORMED_BODY', 'JSON')
  }
}

/**
 * The usage summary reports (spec "Usage summary report"): `GET /reports/dns/usage_summary`
 * (36 months of one account) and `GET /reports/dns/usage_summary/daily` (the days of a month of
 * the last 13, a JSON body `{month, accountNames}`); JSON, or CSV with `Accept: text/csv`.
 * Immediate answers from the usage the store recorded (`store.usage`).
 */
export const usageRoutes: FastifyPluginAsyncTypebox<{ store: Store, clock: Clock }> = async (app, { store, clock }) => {
  const tags = ['reports']

  app.get('/reports/dns/usage_summary', {
    schema: {
      tags,
      summary: 'Usage summary: peaks of domains, records and pool records, and query responses, per month of the last 36',
      description: 'The current month (so far) first. Accept: text/csv gives CSV with a header row.',
      querystring: UsageQuerystring,
      response: { 200: UsageSummaryList, '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const usage = await monthlyUsage(store, principalOf(request), request.query.accountName, clock())
    const rows = usage.months.map(m => ({ accountName: usage.accountName, month: m.month, ...counts(m) }))
    if (wantsCsv(request)) return await sendCsv(reply as FastifyReply, rows, MONTHLY_COLUMNS)
    return { usageSummary: rows }
  })

  app.get('/reports/dns/usage_summary/daily', {
    schema: {
      tags,
      summary: 'Usage summary per day of a month of the last 13',
      description: 'A GET with a JSON body {"month": "March 2023", "accountNames": ["example"]} (the query\'s accountName is also taken); ' +
        'several accounts are summed per day. Days up to today. Accept: text/csv gives CSV with a header row.',
      querystring: UsageQuerystring,
      response: { 200: UsageDailyList, '4xx': ErrorBody }
    },
    preValidation: async (request) => {
      const body = await getBody(request)
      if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw new ZonalError('REPORT_BODY_INVALID', 'the body is a JSON object {month, accountNames}.')
      request.body = body ?? {}
    }
  }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    const days = await dailyUsage(store, principalOf(request), { month: body.month, accountNames: body.accountNames, accountName: request.query.accountName }, clock())
    const rows = days.map(d => ({ month: d.month, date: d.date!, ...counts(d), emailForwardCount: d.peaks.emailForwards }))
    if (wantsCsv(request)) return await sendCsv(reply as FastifyReply, rows, DAILY_COLUMNS)
    return { usageSummary: rows }
  })
}
