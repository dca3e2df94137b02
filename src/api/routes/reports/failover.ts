import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from 'typebox'
import { failoverReport, type FailoverPage } from '../../../reports/failover.ts'
import type { FailoverEvent, Store } from '../../../store/store.ts'
import type { Clock } from '../../../util/time.ts'
import { principalOf } from '../../plugins/auth.ts'
import { ErrorBody } from '../../schemas/common.ts'
import { FailoverRecord, FailoverReport, FailoverReportQuery } from '../../schemas/traffic.ts'

/** Where the Link header points: path-absolute with `/v1`, as the other reports' links. */
const LINK_PATH = '/v1/reports/traffic_services/failover_report'

/** A failover record in the spec's spelling. */
function recordDto (e: FailoverEvent): Static<typeof FailoverRecord> {
  return {
    failoverTime: e.at,
    accountName: e.accountName,
    zoneName: e.zoneName,
    poolName: e.poolName,
    poolRecord: e.poolRecord,
    poolRecordType: e.recordType,
    poolRecordState: e.newState,
    // The record's probe status after the change: ok when it passes, failed when it does not.
    poolRecordStatus: e.newState === 'ACTIVE' ? 'ok' : 'failed',
    failoverReason: e.reason,
    allFailRecord: e.allFail,
    trafficServicePoolType: e.poolType
  }
}

/** `Link`: the query's parameters, then cursor, cursorOperation and limit. */
function linkHeader (page: FailoverPage): string | undefined {
  const link = (cursor: string, operation: 'NEXT' | 'PREVIOUS', rel: string): string => {
    const params = new URLSearchParams(page.params)
    params.set('cursor', cursor)
    params.set('cursorOperation', operation)
    params.set('limit', String(page.limit))
    return `<${LINK_PATH}?${params.toString()}>; rel="${rel}"`
  }
  const parts: string[] = []
  if (page.next !== undefined) parts.push(link(page.next, 'NEXT', 'next'))
  if (page.previous !== undefined) parts.push(link(page.previous, 'PREVIOUS', 'previous'))
  return parts.length === 0 ? undefined : parts.join(', ')
}

/**
 * The failover report (spec "Failover report"): `GET /reports/traffic_services/failover_report`,
 * immediate, the pool record state changes of one account that the probes decided.
 */
export const failoverRoutes: FastifyPluginAsyncTypebox<{ store: Store, clock: Clock }> = async (app, { store, clock }) => {
  app.get('/reports/traffic_services/failover_report', {
    schema: {
      tags: ['reports'],
      summary: 'Failover report: the state changes of the probed pool records of an account, oldest first, cursor pages',
      description: 'accountName required; zoneName, poolName, poolRecord, poolRecordType (A, AAAA, CNAME, ALL), trafficServicePoolType (SITE_BACKER, TRAFFIC_CONTROLLER, FAILOVER_POOL, SIMPLE_LOAD_BALANCING, ALL); reportStartDateTime and reportEndDateTime (ISO 8601 UTC; default the last 24 hours; span at most 30 days; start within 3 months); limit 1–1000 (default 1000). Header Link: rel next and previous.',
      querystring: FailoverReportQuery,
      response: { 200: FailoverReport, '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const page = await failoverReport(store, principalOf(request), request.query, clock())
    const link = linkHeader(page)
    if (link !== undefined) reply.header('link', link)
    const records = page.events.map(recordDto)
    return { failoverRecordCount: records.length, failoverRecords: records, probeResultDetailsCount: records.length, probeResultDetails: records }
  })
}
