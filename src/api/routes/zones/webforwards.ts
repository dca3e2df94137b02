import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import fastJsonPatch from 'fast-json-patch'
import type { Operation } from 'fast-json-patch'
import { Type } from 'typebox'
import { ZonalError } from '../../../errors/catalog.ts'
import type { StoredWebForward } from '../../../store/store.ts'
import type { ZoneDeps } from '../../../zones/context.ts'
import { createWebForward, deleteWebForward, getWebForward, listWebForwards, updateWebForward, type WebForwardInput } from '../../../zones/web-forwards.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { WebForwardBody, WebForwardCreated, WebForwardDto, WebForwardList, WebForwardListQuerystring, WebForwardParams, WebForwardZoneParams } from '../../schemas/webforwards.ts'
import { callerOf } from './index.ts'
import { webForwardDto, webForwardInput } from './webforward-dto.ts'
import { webForwardPage, webForwardQueryOf } from './webforward-list.ts'

type Json = Record<string, unknown>

const isJsonPatch = (request: FastifyRequest): boolean => (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json-patch+json')

/** The fields of the WebForward DTO a PATCH may change. */
const PATCHABLE = new Set(['requestTo', 'defaultRedirectTo', 'defaultForwardType', 'relativeForwardType', 'records', 'changeComment'])
const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test'])

/** The forward's document without its guid (what PUT and PATCH write). */
function documentOf (f: StoredWebForward): Json {
  const { guid: _guid, ...rest } = webForwardDto(f)
  return rest as Json
}

/** A body's `guid`, when given, must name the forward of the path. */
function checkGuid (body: unknown, guid: string): void {
  const given = typeof body === 'object' && body !== null ? (body as { guid?: unknown }).guid : undefined
  if (given !== undefined && given !== null && String(given).toUpperCase() !== guid.toUpperCase()) {
    throw new ZonalError('WEB_FORWARD_FIELD_INVALID', `guid ${JSON.stringify(given)} in the body is not the guid of the path (${guid})`)
  }
}

/** PATCH (merge): each field given replaces the stored one; `null` removes relativeForwardType or records. */
function merged (current: StoredWebForward, body: unknown): WebForwardInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ZonalError('WEB_FORWARD_FIELD_INVALID', 'the body must be a JSON object (a WebForward DTO)')
  const doc = documentOf(current)
  for (const [key, value] of Object.entries(body as Json)) {
    if (key === 'guid') continue
    if (value === null) delete doc[key]
    else doc[key] = value
  }
  return webForwardInput(doc)
}

/** JSON Patch (RFC 6902) on the forward's document, then read as a PUT of the result. */
function patched (current: StoredWebForward, input: unknown): WebForwardInput {
  if (!Array.isArray(input) || input.length === 0) throw new ZonalError('JSON_PATCH_INVALID', 'The body must be a non-empty list of operations.')
  for (const op of input as unknown[]) {
    const o = op as { op?: unknown, path?: unknown, from?: unknown }
    if (typeof op !== 'object' || op === null || typeof o.op !== 'string' || typeof o.path !== 'string') throw new ZonalError('JSON_PATCH_INVALID', 'Each operation needs "op" and "path".')
    if (!OPS.has(o.op)) throw new ZonalError('JSON_PATCH_UNSUPPORTED_OP', o.op)
    for (const pointer of [o.path, o.from]) {
      if (pointer === undefined) continue
      if (typeof pointer !== 'string' || !PATCHABLE.has(pointer.split('/')[1] ?? '')) {
        throw new ZonalError('JSON_PATCH_FAILED', `path ${String(pointer)} cannot be patched; a web forward has ${[...PATCHABLE].filter(p => p !== 'changeComment').join(', ')}`)
      }
    }
  }
  let doc: Json
  try {
    doc = fastJsonPatch.applyPatch(structuredClone(documentOf(current)), input as Operation[], true, false, true).newDocument
  } catch (err) {
    throw new ZonalError('JSON_PATCH_FAILED', (err as Error).message.split('\n')[0] ?? 'invalid operation')
  }
  return webForwardInput(doc)
}

/**
 * Web forwards (the real API's "Web Forwards" page, issue 21): list, create, get, replace, patch
 * (merge or JSON Patch) and delete the forwards of a primary zone. The rules live in
 * `src/zones/web-forwards.ts`; the DTO and the list language in `webforward-dto.ts` and
 * `webforward-list.ts`.
 */
export const webForwardRoutes: FastifyPluginAsyncTypebox<{ zones: ZoneDeps }> = async (app, { zones }) => {
  const tags = ['web forwards']

  app.get('/zones/:zoneName/webforwards', {
    schema: { tags, summary: 'List the web forwards of a zone', params: WebForwardZoneParams, querystring: WebForwardListQuerystring, response: { 200: WebForwardList, '4xx': ErrorBody } }
  }, async (request) => {
    const query = webForwardQueryOf(request.query)
    const { forwards } = await listWebForwards(zones, callerOf(request), request.params.zoneName)
    const { page, total } = webForwardPage(forwards, query)
    return {
      queryInfo: { ...(query.q === '' ? {} : { q: query.q }), sort: query.sort, reverse: query.reverse, limit: query.limit },
      resultInfo: { totalCount: total, offset: query.offset, returnedCount: page.length },
      webForwards: page.map(webForwardDto)
    }
  })

  app.post('/zones/:zoneName/webforwards', {
    schema: { tags, summary: 'Create a web forward', params: WebForwardZoneParams, body: WebForwardBody, response: { 201: WebForwardCreated, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const created = await createWebForward(zones, callerOf(request), request.params.zoneName, webForwardInput(request.body))
    return await reply.code(201).send({ guid: created.id })
  })

  app.get('/zones/:zoneName/webforwards/:guid', {
    schema: { tags, summary: 'Get one web forward', params: WebForwardParams, response: { 200: WebForwardDto, '4xx': ErrorBody } }
  }, async (request) => webForwardDto(await getWebForward(zones, callerOf(request), request.params.zoneName, request.params.guid)))

  app.put('/zones/:zoneName/webforwards/:guid', {
    schema: { tags, summary: 'Replace a web forward', params: WebForwardParams, body: WebForwardBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const { zoneName, guid } = request.params
    checkGuid(request.body, guid)
    const input = webForwardInput(request.body)
    await updateWebForward(zones, callerOf(request), zoneName, guid, () => input)
    return await reply.code(200).send({ message: 'Successful' })
  })

  app.patch('/zones/:zoneName/webforwards/:guid', {
    schema: { tags, summary: 'Update part of a web forward (merge, or JSON Patch with application/json-patch+json)', params: WebForwardParams, body: WebForwardBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const { zoneName, guid } = request.params
    const body = request.body
    if (isJsonPatch(request)) await updateWebForward(zones, callerOf(request), zoneName, guid, (current) => patched(current, body))
    else {
      checkGuid(body, guid)
      await updateWebForward(zones, callerOf(request), zoneName, guid, (current) => merged(current, body))
    }
    return await reply.code(200).send({ message: 'Successful' })
  })

  app.delete('/zones/:zoneName/webforwards/:guid', {
    config: { bodyOptional: true },
    schema: { tags, summary: 'Delete a web forward', params: WebForwardParams, body: WebForwardBody, response: { 204: Type.Null(), '4xx': ErrorBody } }
  }, async (request, reply) => {
    await deleteWebForward(zones, callerOf(request), request.params.zoneName, request.params.guid, request.body)
    return await reply.code(204).send(null)
  })
}
