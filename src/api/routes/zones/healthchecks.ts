import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { healthCheckVersions, readHealthCheck, requestHealthCheck } from '../../../health/requests.ts'
import type { HealthChecker } from '../../../health/service.ts'
import type { Store } from '../../../store/store.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { HealthCheckReport, HealthCheckVersions } from '../../schemas/health.ts'
import { callerOf } from './index.ts'
import { versionOf } from './report-version.ts'

const ZoneParams = Type.Object({ zoneName: Type.String({ minLength: 1, maxLength: 1024 }) })

/**
 * DNS health checks (the real API's "DNS Health Check" page): `POST /zones/{zoneName}/healthchecks`
 * starts a check in the background and answers 202 with `Location` naming the new report
 * version; `GET …/healthchecks/{version}`, `…/latest` and `…/versions` read them. The static
 * segments (`latest`, `versions`, and `dangling`, the dangling DNS report's own route) win
 * over `{version}` in Fastify's router.
 */
export const healthCheckRoutes: FastifyPluginAsyncTypebox<{ store: Store, checker: HealthChecker }> = async (app, { store, checker }) => {
  const tags = ['zones']

  app.post('/zones/:zoneName/healthchecks', {
    schema: {
      tags,
      summary: 'Start a DNS health check of a primary or alias zone (202 and Location: the report version)',
      params: ZoneParams,
      body: Type.Unknown({ description: 'Ignored ({} as the clients send it)' }),
      response: { 202: MessageBody, '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const { zone, version } = await requestHealthCheck(store, checker, callerOf(request), request.params.zoneName)
    reply.header('location', `/v1/zones/${encodeURIComponent(zone.name)}/healthchecks/${versionOf(version)}`)
    return await reply.code(202).send({ message: 'Pending' })
  })

  app.get('/zones/:zoneName/healthchecks/versions', {
    schema: { tags, summary: 'The versions of the zone\'s health check report kept (two at most), newest first', params: ZoneParams, response: { 200: HealthCheckVersions, '4xx': ErrorBody } }
  }, async (request) => ({ versions: (await healthCheckVersions(store, callerOf(request), request.params.zoneName)).map(versionOf) }))

  app.get('/zones/:zoneName/healthchecks/:version', {
    schema: {
      tags,
      summary: 'One version of the zone\'s health check report, or the newest (`latest`)',
      params: Type.Object({ zoneName: Type.String({ minLength: 1, maxLength: 1024 }), version: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: HealthCheckReport, '4xx': ErrorBody }
    }
  }, async (request) => {
    const report = await readHealthCheck(store, callerOf(request), request.params.zoneName, request.params.version)
    return { ...report, version: versionOf(report.version) }
  })
}
