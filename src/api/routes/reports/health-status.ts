import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from 'typebox'
import { healthStatusDetail, healthStatusSummary, type DetailPage, type HealthStatusRow } from '../../../reports/health-status.ts'
import type { StatusCounts } from '../../../health/score.ts'
import type { Store } from '../../../store/store.ts'
import { principalOf } from '../../plugins/auth.ts'
import { ErrorBody } from '../../schemas/common.ts'
import { accountHealth } from '../../../reports/account-health.ts'
import { AccountHealthReport, HealthStatusDetailQuery, HealthStatusDetailReport, HealthStatusSummaryQuery, HealthStatusSummaryReport, type HealthStatusRecord } from '../../schemas/health.ts'

/** Where the Link header points: path-absolute with `/v1`, as the audit log's links. */
const DETAIL_PATH = '/v1/dns_configuration/health_status/detail'

/** Counts in the real API's spelling. */
function countsDto (r: StatusCounts): Static<typeof HealthStatusSummaryReport> {
  return {
    okCount: r.ok,
    errorCount: r.error,
    warningCount: r.warning,
    bestPracticeViolationCount: r.bestPractice,
    infoCount: r.info,
    naCount: r.na
  }
}

/** A HealthStatusRecord in the real API's spelling. */
function recordDto (r: HealthStatusRow): Static<typeof HealthStatusRecord> {
  return {
    zoneName: r.zoneName,
    accountName: r.accountName,
    okCount: r.ok,
    errorCount: r.error,
    warningCount: r.warning,
    bestPracticeViolationCount: r.bestPractice,
    infoCount: r.info,
    naCount: r.na,
    healthScore: r.healthScore
  }
}

/** `Link` of a page: the real API's parameters q, cursorOperation, cursor and limit (the cursor holds the order and category). */
function linkHeader (page: DetailPage): string | undefined {
  const link = (cursor: string, operation: 'NEXT' | 'PREVIOUS', rel: string): string => {
    const params = new URLSearchParams()
    if (page.q !== undefined) params.set('q', page.q)
    params.set('cursorOperation', operation)
    params.set('cursor', cursor)
    params.set('limit', String(page.limit))
    return `<${DETAIL_PATH}?${params.toString()}>; rel="${rel}"`
  }
  const parts: string[] = []
  if (page.next !== undefined) parts.push(link(page.next, 'NEXT', 'next'))
  if (page.previous !== undefined) parts.push(link(page.previous, 'PREVIOUS', 'previous'))
  return parts.length === 0 ? undefined : parts.join(', ')
}

/**
 * The health status reports, immediate, also under `/v1`: the detail report (`GET
 * /dns_configuration/health_status/detail`), one record per zone of the caller's accounts with
 * a completed health check, and the summary (`…/summary`), their counts added up.
 */
export const healthStatusRoutes: FastifyPluginAsyncTypebox<{ store: Store }> = async (app, { store }) => {
  app.get('/dns_configuration/health_status/detail', {
    schema: {
      tags: ['reports'],
      summary: 'Health status detail: result counts and health score per zone (newest completed health check), cursor pages',
      description: 'q matches the zone or account name (OR, substring, any case); sort healthScore (default), zoneName or accountName; order ASC (default) or DESC; category ALL (default), NS, SOA, MX, DNSSEC or DOMAIN; limit 1–1000 (default 1000). Header Link: rel next and previous.',
      querystring: HealthStatusDetailQuery,
      response: { 200: HealthStatusDetailReport, '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const page = await healthStatusDetail(store, principalOf(request), request.query)
    const link = linkHeader(page)
    if (link !== undefined) reply.header('link', link)
    return { healthStatusRecordsList: page.rows.map(recordDto) }
  })

  app.get('/dns_configuration/health_status/summary', {
    schema: {
      tags: ['reports'],
      summary: 'Health status summary: the results of every zone\'s newest completed health check, counted by status',
      description: 'q matches the zone or account name (OR, substring, any case); category ALL (default), NS, SOA, MX, DNSSEC or DOMAIN.',
      querystring: HealthStatusSummaryQuery,
      response: { 200: HealthStatusSummaryReport, '4xx': ErrorBody }
    }
  }, async (request) => countsDto(await healthStatusSummary(store, principalOf(request), request.query)))

  // A static segment wins over `/accounts/:accountName` (docs/decisions.md, "Zone health").
  app.get('/accounts/healthchecks', {
    schema: {
      tags: ['reports'],
      summary: 'Account health: best-practice checks of each account you can read (DNSSEC on its zones, its zones\' DNS health checks), OK or WARNING',
      response: { 200: AccountHealthReport, '4xx': ErrorBody }
    }
  }, async (request) => await accountHealth(store, principalOf(request)))
}
