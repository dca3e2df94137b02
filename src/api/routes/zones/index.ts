import '@fastify/multipart'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { createZone } from '../../../zones/create.ts'
import { zoneWithApexNs, type Caller, type ZoneDeps } from '../../../zones/context.ts'
import { convertZone, deleteZone, suspendZone, unaliasZone } from '../../../zones/actions.ts'
import { requestZoneTransfer } from '../../../zones/secondary-transfer.ts'
import { jsonPatchZone, updateZone } from '../../../zones/update.ts'
import { principalOf } from '../../plugins/auth.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { JsonPatchBody, ZoneActionBody, ZoneConvertBody, ZoneCreateBody, ZoneDto, ZoneParams, ZoneUpdateBody, ZoneUploadBody } from '../../schemas/zones.ts'
import { zoneDto } from './dto.ts'
import { createUploadTask, readUpload, uploadFitsRequest } from './upload.ts'
import { zoneValidationError } from './validation.ts'

/** Route config of every zone route: its body schema errors keep the use cases' codes; `bodyOptional` marks an optional body in the OpenAPI document. */
const config = { validationError: zoneValidationError }
const optionalBody = { ...config, bodyOptional: true }

/** The caller of a request: principal for permissions, user and address for the audit log. */
export function callerOf (request: FastifyRequest): Caller {
  const principal = principalOf(request)
  return { principal, actor: { user: principal.username, ipAddress: request.ip } }
}

function zoneUrl (request: FastifyRequest, name: string): string {
  return `${request.protocol}://${request.host}/v3/zones/${name.replace(/\//g, '%2F')}`
}

function ok (reply: FastifyReply, status: number): FastifyReply {
  return reply.code(status).send({ message: 'Successful' })
}

/**
 * Zone operations 1–3 and 5–9 of the spec: create (JSON or multipart upload), read, full and
 * partial update (merge or JSON Patch), delete, convert, unalias, suspend. The rules live in
 * `src/zones/`; this file maps HTTP to them.
 */
export const zoneRoutes: FastifyPluginAsyncTypebox<{ zones: ZoneDeps, tasks?: { wake (): void } }> = async (app, { zones, tasks }) => {
  const tags = ['zones']

  app.post('/zones', {
    config,
    schema: {
      tags,
      operationId: 'createZone',
      summary: 'Create a zone (JSON, or multipart with a `zone` JSON part and a `file` BIND part; large files as a task)',
      body: { content: { 'application/json': { schema: ZoneCreateBody }, 'multipart/form-data': { schema: ZoneUploadBody } } },
      response: { 201: MessageBody, 202: MessageBody, '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const upload = request.isMultipart() ? await readUpload(request, ZoneCreateBody) : undefined
    if (upload !== undefined && !await uploadFitsRequest(zones, upload.file)) {
      const task = await createUploadTask(zones, callerOf(request), upload)
      tasks?.wake()
      reply.header('x-task-id', task.id)
      return await reply.code(202).send({ message: 'Pending' })
    }
    const zone = await createZone(zones, callerOf(request), upload?.zone ?? request.body, upload?.file)
    reply.header('location', zoneUrl(request, zone.name))
    return ok(reply, 201)
  })

  app.get('/zones/:zoneName', {
    schema: { tags, operationId: 'getZone', summary: 'Get a zone', params: ZoneParams, response: { 200: ZoneDto, '4xx': ErrorBody } }
  }, async (request) => {
    const caller = callerOf(request)
    const { zone, apexNs } = await zoneWithApexNs(zones, caller, request.params.zoneName, 'read')
    // The DTO is typed by zone type in the schema (properties.type), as a plain string here.
    return await zoneDto(zones, zone, caller.principal.can(zone.account_id, 'write'), { apexNs }) as Static<typeof ZoneDto>
  })

  app.put('/zones/:zoneName', {
    config,
    schema: { tags, operationId: 'replaceZone', summary: 'Replace the transfer settings of a zone', params: ZoneParams, body: ZoneUpdateBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    await updateZone(zones, callerOf(request), request.params.zoneName, request.body, 'PUT')
    return ok(reply, 200)
  })

  app.patch('/zones/:zoneName', {
    config,
    schema: {
      tags,
      operationId: 'updateZone',
      summary: 'Update part of a zone (merge, or JSON Patch with application/json-patch+json)',
      params: ZoneParams,
      body: { content: { 'application/json': { schema: ZoneUpdateBody }, 'application/json-patch+json': { schema: JsonPatchBody } } },
      response: { 200: MessageBody, '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const isJsonPatch = (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json-patch+json')
    if (isJsonPatch) await jsonPatchZone(zones, callerOf(request), request.params.zoneName, request.body)
    else await updateZone(zones, callerOf(request), request.params.zoneName, request.body, 'PATCH')
    return ok(reply, 200)
  })

  app.delete('/zones/:zoneName', {
    config: optionalBody,
    schema: { tags, operationId: 'deleteZone', summary: 'Delete a zone', params: ZoneParams, body: ZoneActionBody, response: { 204: Type.Null({ description: 'Deleted' }), '4xx': ErrorBody } }
  }, async (request, reply) => {
    await deleteZone(zones, callerOf(request), request.params.zoneName, request.body)
    return await reply.code(204).send(null)
  })

  app.post('/zones/:zoneName/convert', {
    config: optionalBody,
    schema: { tags, operationId: 'convertZone', summary: 'Convert a secondary zone to a primary', params: ZoneParams, body: ZoneConvertBody, response: { 201: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    await convertZone(zones, callerOf(request), request.params.zoneName, request.body)
    return ok(reply, 201)
  })

  app.post('/zones/:zoneName/unalias', {
    config: optionalBody,
    schema: { tags, operationId: 'unaliasZone', summary: 'Turn an alias zone into an independent primary', params: ZoneParams, body: ZoneActionBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    await unaliasZone(zones, callerOf(request), request.params.zoneName, request.body)
    return ok(reply, 200)
  })

  app.post('/zones/:zoneName/transfer', {
    config: optionalBody,
    schema: { tags, operationId: 'transferZone', summary: 'Request a zone transfer of a secondary zone from its primary name servers now', params: ZoneParams, body: ZoneActionBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    await requestZoneTransfer(zones, callerOf(request), request.params.zoneName)
    return ok(reply, 200)
  })

  app.post('/zones/:zoneName/suspend', {
    config: optionalBody,
    schema: { tags, operationId: 'suspendZone', summary: 'Suspend a zone (Owner, Administrators, DNSAdministrators)', params: ZoneParams, body: ZoneActionBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    await suspendZone(zones, callerOf(request), request.params.zoneName, request.body)
    return ok(reply, 200)
  })
}
