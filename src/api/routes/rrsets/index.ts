import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Static } from 'typebox'
import { Type } from 'typebox'
import type { ZoneDeps } from '../../../zones/context.ts'
import { createRrset, deleteRrset, jsonPatchRrset, listRrsets, updateRrset } from '../../../zones/rrsets.ts'
import type { RrsetTarget } from '../../../zones/rrset-target.ts'
import { typeName } from '../../../zone/rdata/index.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { RrsetBody, RrsetCreateBody, RrsetList, RrsetListQuerystring, RrsetParams, RrsetTypeParams, RrsetZoneParams } from '../../schemas/rrsets.ts'
import { callerOf } from '../zones/index.ts'
import { rrsetDto } from './dto.ts'
import { rrsetQueryOf } from './query.ts'
import { isProbedPool, poolHealthKey, zonePoolHealth } from '../../../traffic/live-status.ts'

type RrsetListBody = Static<typeof RrsetList>

/** A path segment with `/` written `%2F` (classless reverse zones, RFC 2317), as the API takes it. */
const segment = (name: string): string => encodeURIComponent(name).replace(/%40/g, '@')

/** Where a created rrset lives: `…/zones/{zone}/rrsets/{TYPE}/{absolute owner}`. */
function rrsetUrl (request: FastifyRequest, t: RrsetTarget): string {
  return `${request.protocol}://${request.host}/zones/${segment(t.zone.name)}/rrsets/${typeName(t.type)}/${segment(t.ownerName)}`
}

function ok (reply: FastifyReply, status: number): FastifyReply {
  return reply.code(status).send({ message: 'Successful' })
}

const isJsonPatch = (request: FastifyRequest): boolean => (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json-patch+json')

/**
 * The rrsets resource (reference notes §7 "RRSets", issue 5): list a zone's rrsets, by type, by
 * type and owner; create, replace, patch (merge or JSON Patch) and delete one. The rules live in
 * `src/zones/rrset*.ts`; this file maps HTTP to them.
 *
 * Errors: 1801 for a zone the caller cannot see (every operation), 403 without the permission
 * (read for GET, update for writes), 404 70002 for a missing rrset, 400 70005 for a body without
 * rdata and profile, 53005 for a bad q key (`Invalid input: q.<key>`), type, owner, ttl or rdata,
 * 70004 for a bad sort, 2111 when POST finds the rrset, 230000/53001/1813 for alias, secondary
 * and suspended zones, 1700xx for JSON Patch.
 */
export const rrsetRoutes: FastifyPluginAsyncTypebox<{ zones: ZoneDeps }> = async (app, { zones }) => {
  const tags = ['rrsets']

  async function list (request: FastifyRequest, path: { zoneName: string, rrType?: string, ownerName?: string }, qs: Static<typeof RrsetListQuerystring>): Promise<RrsetListBody> {
    const query = rrsetQueryOf(qs)
    const caller = callerOf(request)
    const page = await listRrsets(zones, caller, path, query)
    const q = qs.q ?? ''
    // Pools that probes watch show their live state (traffic/live-status.ts).
    const health = page.rrSets.some(r => isProbedPool(r.profile)) ? await zonePoolHealth(zones.store, caller.principal.scope('read'), page.zoneName) : undefined
    return {
      zoneName: page.zoneName,
      rrSets: page.rrSets.map(r => rrsetDto(r, health === undefined ? undefined : (type) => health.get(poolHealthKey(r.ownerName, page.zoneName, type)) ?? new Map())),
      queryInfo: { ...(q === '' ? {} : { q }), sort: query.sort, reverse: query.reverse, limit: query.limit },
      resultInfo: { totalCount: page.totalCount, offset: query.offset, returnedCount: page.rrSets.length }
    }
  }

  const listSchema = { querystring: RrsetListQuerystring, response: { 200: RrsetList, '4xx': ErrorBody } }

  app.get('/zones/:zoneName/rrsets', {
    schema: { tags, summary: 'List the rrsets of a zone', params: RrsetZoneParams, ...listSchema }
  }, async (request) => await list(request, request.params, request.query))

  app.get('/zones/:zoneName/rrsets/:rrType', {
    schema: { tags, summary: 'List the rrsets of a type (ANY: every type)', params: RrsetTypeParams, ...listSchema }
  }, async (request) => await list(request, request.params, request.query))

  app.get('/zones/:zoneName/rrsets/:rrType/:ownerName', {
    schema: { tags, summary: 'Get the rrset of a type and owner (a list of one)', params: RrsetParams, ...listSchema }
  }, async (request) => await list(request, request.params, request.query))

  app.post('/zones/:zoneName/rrsets/:rrType/:ownerName', {
    schema: { tags, summary: 'Create an rrset', params: RrsetParams, body: RrsetCreateBody, response: { 201: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const { zoneName, rrType, ownerName } = request.params
    const t = await createRrset(zones, callerOf(request), zoneName, rrType, ownerName, request.body)
    reply.header('location', rrsetUrl(request, t))
    return ok(reply, 201)
  })

  app.put('/zones/:zoneName/rrsets/:rrType/:ownerName', {
    schema: { tags, summary: 'Replace an rrset', params: RrsetParams, body: RrsetBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const { zoneName, rrType, ownerName } = request.params
    await updateRrset(zones, callerOf(request), zoneName, rrType, ownerName, request.body, 'PUT')
    return ok(reply, 200)
  })

  app.patch('/zones/:zoneName/rrsets/:rrType/:ownerName', {
    schema: { tags, summary: 'Update part of an rrset (merge, or JSON Patch with application/json-patch+json)', params: RrsetParams, body: RrsetBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const { zoneName, rrType, ownerName } = request.params
    if (isJsonPatch(request)) await jsonPatchRrset(zones, callerOf(request), zoneName, rrType, ownerName, request.body)
    else await updateRrset(zones, callerOf(request), zoneName, rrType, ownerName, request.body, 'PATCH')
    return ok(reply, 200)
  })

  app.delete('/zones/:zoneName/rrsets/:rrType/:ownerName', {
    config: { bodyOptional: true },
    schema: { tags, summary: 'Delete an rrset', params: RrsetParams, body: RrsetBody, response: { 204: Type.Null(), '4xx': ErrorBody } }
  }, async (request, reply) => {
    const { zoneName, rrType, ownerName } = request.params
    await deleteRrset(zones, callerOf(request), zoneName, rrType, ownerName, request.body)
    return await reply.code(204).send(null)
  })
}
