import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { percent, probeResultDetails, probeResultSummary, reportPoolType, type ProbeReportPage } from '../../../reports/probe-results.ts'
import type { Store } from '../../../store/store.ts'
import type { Clock } from '../../../util/time.ts'
import { typeName } from '../../../zone/rrtype.ts'
import { principalOf } from '../../plugins/auth.ts'
import { ErrorBody } from '../../schemas/common.ts'
import { ProbeDetailsReport, ProbeReportQuery, ProbeSummaryReport } from '../../schemas/traffic.ts'

const BASE = '/v2/reports/traffic_services/probe_result'

/** `Link` of a page: the query's parameters, then cursor, cursorOperation and limit. */
function setLink (reply: FastifyReply, path: string, page: ProbeReportPage<unknown>): void {
  const link = (cursor: string, operation: 'NEXT' | 'PREVIOUS', rel: string): string => {
    const params = new URLSearchParams(page.params)
    params.set('cursor', cursor)
    params.set('cursorOperation', operation)
    params.set('limit', String(page.limit))
    return `<${BASE}/${path}?${params.toString()}>; rel="${rel}"`
  }
  const parts: string[] = []
  if (page.next !== undefined) parts.push(link(page.next, 'NEXT', 'next'))
  if (page.previous !== undefined) parts.push(link(page.previous, 'PREVIOUS', 'previous'))
  if (parts.length > 0) reply.header('link', parts.join(', '))
}

/**
 * The probe result reports v2 (immediate): `GET /v2/reports/traffic_services/probe_result/summary`
 * and `…/details`, from the probe runs the service recorded (`store.traffic`).
 */
export const probeResultRoutes: FastifyPluginAsyncTypebox<{ store: Store, clock: Clock }> = async (app, { store, clock }) => {
  const description = 'accountName required; zoneName, poolName, trafficServicePoolType, probeResultType (SUCCESS, FAILURE, ALL), poolRecord, poolRecordType, poolProbeRegion; reportStartDateTime and reportEndDateTime (ISO 8601 UTC; default the last 24 hours; span at most 7 days; start within 3 months); limit 1–1000 (default 1000). Header Link: rel next and previous.'

  app.get('/reports/traffic_services/probe_result/summary', {
    schema: { tags: ['reports'], summary: 'Probe result summary (v2): probe runs counted per pool record and region', description, querystring: ProbeReportQuery, response: { 200: ProbeSummaryReport, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const page = await probeResultSummary(store, principalOf(request), request.query, clock())
    setLink(reply, 'summary', page)
    const rows = page.rows.map(r => {
      const total = r.successes + r.failures
      return {
        accountName: page.accountName,
        zoneName: r.zoneName,
        poolName: r.poolName,
        poolRecord: r.record,
        poolRecordType: typeName(r.rrtype),
        poolProbeRegion: r.region,
        successes: r.successes,
        failures: r.failures,
        // Warning and critical levels are not evaluated (docs/decisions.md "Traffic services").
        warnings: 0,
        critical: 0,
        total,
        successPercentage: percent(r.successes, total),
        failurePercentage: percent(r.failures, total),
        warningPercentage: 0,
        criticalPercentage: 0,
        reportStartDateTime: page.start,
        reportEndDateTime: page.end,
        trafficServicePoolType: reportPoolType(r.poolKind)
      }
    })
    return { sbtcprobeSummaryRow: rows, sbtcprobeSummaryCount: rows.length }
  })

  app.get('/reports/traffic_services/probe_result/details', {
    schema: { tags: ['reports'], summary: 'Probe result details (v2): every probe run, oldest first', description, querystring: ProbeReportQuery, response: { 200: ProbeDetailsReport, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const page = await probeResultDetails(store, principalOf(request), request.query, clock())
    setLink(reply, 'details', page)
    const rows = page.rows.map(r => ({
      accountName: page.accountName,
      zoneName: r.zoneName,
      poolName: r.poolName,
      trafficServicePoolType: reportPoolType(r.poolKind),
      probeResultType: page.resultType,
      poolRecord: r.record,
      poolRecordType: typeName(r.rrtype),
      poolProbeRegion: r.region,
      probeLogTime: r.at,
      probeResult: `${r.ok ? 'SUCCESS' : 'FAILURE'}: ${r.message}`,
      probeType: r.probeType,
      statusCount: 1
    }))
    return { sbTcProbeDetailsRow: rows, sbTcprobeDetailsCount: rows.length }
  })
}
