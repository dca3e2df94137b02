import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from 'typebox'
import { Type } from 'typebox'
import type { ProbeDefinition } from '../../../store/store.ts'
import { createProbe, deleteProbe, getProbe, listProbes, updateProbe } from '../../../traffic/probes.ts'
import type { ZoneDeps } from '../../../zones/context.ts'
import { typeName } from '../../../zone/rdata/index.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { RrsetParams } from '../../schemas/rrsets.ts'
import { ProbeCreated, ProbeInfo, ProbeInfoBody, ProbeInfoList, ProbeListQuery, ProbeParams } from '../../schemas/traffic.ts'
import { callerOf } from '../zones/index.ts'

/** A probe in the real API's spelling: `headers` beside `details`, `poolRecord` for a record-level probe. */
function probeDto (p: ProbeDefinition): Static<typeof ProbeInfo> {
  const { headers, ...details } = (p.details ?? {}) as Record<string, unknown>
  return {
    id: p.id,
    ...(p.poolRecord === null ? {} : { poolRecord: p.poolRecord }),
    type: p.probeType,
    interval: p.interval,
    agents: p.agents,
    threshold: p.threshold,
    ...(headers === undefined ? {} : { headers }),
    details
  }
}

const segment = (name: string): string => encodeURIComponent(name).replace(/%40/g, '@')

/**
 * Probes of SiteBacker and Traffic Controller pools (the real API's "Pool Probes" page):
 * `/zones/{zoneName}/rrsets/{rrType}/{ownerName}/probes` (POST, GET) and `…/probes/{guid}` (GET,
 * PUT, PATCH, DELETE). The rules live in `src/traffic/probes.ts`.
 */
export const probeRoutes: FastifyPluginAsyncTypebox<{ zones: ZoneDeps }> = async (app, { zones }) => {
  const tags = ['probes']
  const base = '/zones/:zoneName/rrsets/:rrType/:ownerName/probes'

  app.post(base, {
    schema: { tags, summary: 'Create a probe of an SB or TC pool (or of one of its records, with poolRecord)', params: RrsetParams, body: ProbeInfoBody, response: { 201: ProbeCreated, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const { probe, target } = await createProbe(zones, callerOf(request), request.params, request.body)
    reply.header('location', `${request.protocol}://${request.host}/zones/${segment(target.zone.name)}/rrsets/${typeName(target.type)}/${segment(target.ownerName)}/probes/${probe.id}`)
    return reply.code(201).send({ message: 'Successful', id: probe.id })
  })

  app.get(base, {
    schema: { tags, summary: 'List the probes of an SB or TC pool (q: type:POOL|RECORD|ALL, poolRecord:<address>)', params: RrsetParams, querystring: ProbeListQuery, response: { 200: ProbeInfoList, '4xx': ErrorBody } }
  }, async (request) => {
    const probes = await listProbes(zones, callerOf(request), request.params, request.query.q)
    return {
      probes: probes.map(probeDto),
      queryInfo: { q: request.query.q ?? '', sort: 'type', reverse: false, limit: probes.length },
      resultInfo: { totalCount: probes.length, offset: 0, returnedCount: probes.length }
    }
  })

  app.get(`${base}/:guid`, {
    schema: { tags, summary: 'Get a probe', params: ProbeParams, response: { 200: ProbeInfo, '4xx': ErrorBody } }
  }, async (request) => probeDto(await getProbe(zones, callerOf(request), request.params, request.params.guid)))

  app.put(`${base}/:guid`, {
    schema: { tags, summary: 'Replace a probe\'s settings', params: ProbeParams, body: ProbeInfoBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request) => {
    await updateProbe(zones, callerOf(request), request.params, request.params.guid, request.body, false)
    return { message: 'Successful' }
  })

  app.patch(`${base}/:guid`, {
    schema: { tags, summary: 'Change some of a probe\'s settings', params: ProbeParams, body: ProbeInfoBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request) => {
    await updateProbe(zones, callerOf(request), request.params, request.params.guid, request.body, true)
    return { message: 'Successful' }
  })

  app.delete(`${base}/:guid`, {
    schema: { tags, summary: 'Delete a probe', params: ProbeParams, response: { 204: Type.Null(), '4xx': ErrorBody } }
  }, async (request, reply) => {
    await deleteProbe(zones, callerOf(request), request.params, request.params.guid)
    return await reply.code(204).send(null)
  })
}
