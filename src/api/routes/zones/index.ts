import '@fastify/multipart'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { createZone } from '../../../zones/create.ts'
import { zoneFor, type Caller, type ZoneDeps } from '../../../zones/context.ts'
import { convertZone, deleteZone, suspendZone, unaliasZone } from '../../../zones/actions.ts'
import { requestZoneTransfer } from '../../../zones/secondary-transfer.ts'
import { jsonPatchZone, updateZone } from '../../../zones/update.ts'
import { principalOf } from '../../plugins/auth.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { zoneDto } from './dto.ts'
import { createUploadTask, readUpload, UPLOAD_SYNC_LIMIT } from './upload.ts'

const ZoneParams = Type.Object({ zoneName: Type.String({ minLength: 1, maxLength: 1024 }) })
const AnyBody = Type.Unknown({ description: 'Zone Create DTO (see the spec); validated by the service with UltraDNS error codes' })

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
    schema: { tags, summary: 'Create a zone (JSON, or multipart with a `zone` JSON part and a `file` BIND part; large files as a task)', body: AnyBody, response: { 201: MessageBody, 202: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const upload = request.isMultipart() ? await readUpload(request) : undefined
    if (upload !== undefined && upload.file.length > UPLOAD_SYNC_LIMIT) {
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
    schema: { tags, summary: 'Get a zone', params: ZoneParams, response: { 200: Type.Unknown({ description: 'Zone DTO by type (spec "Zone DTO")' }), '4xx': ErrorBody } }
  }, async (request) => {
    const caller = callerOf(request)
    const zone = await zoneFor(zones, caller, request.params.zoneName, 'read')
    return await zoneDto(zones, zone, caller.principal.can(zone.account_id, 'write'))
  })

  app.put('/zones/:zoneName', {
    schema: { tags, summary: 'Replace the transfer settings of a zone', params: ZoneParams, body: AnyBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    await updateZone(zones, callerOf(request), request.params.zoneName, request.body, 'PUT')
    return ok(reply, 200)
  })

  app.patch('/zones/:zoneName', {
    schema: { tags, summary: 'Update part of a zone (merge, or JSON Patch with application/json-patch+json)', params: ZoneParams, body: AnyBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const isJsonPatch = (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json-patch+json')
    if (isJsonPatch) await jsonPatchZone(zones, callerOf(request), request.params.zoneName, request.body)
    else await updateZone(zones, callerOf(request), request.params.zoneName, request.body, 'PATCH')
    return ok(reply, 200)
  })

  app.delete('/zones/:zoneName', {
    schema: { tags, summary: 'Delete a zone', params: ZoneParams, body: AnyBody, response: { 204: Type.Null(), '4xx': ErrorBody } }
  }, async (request, reply) => {
    await deleteZone(zones, callerOf(request), request.params.zoneName, request.body)
    return await reply.code(204).send(null)
  })

  app.post('/zones/:zoneName/convert', {
    schema: { tags, summary: 'Convert a secondary zone to a primary', params: ZoneParams, body: AnyBody, response: { 201: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    await convertZone(zones, callerOf(request), request.params.zoneName, request.body)
    return ok(reply, 201)
  })

  app.post('/zones/:zoneName/unalias', {
    schema: { tags, summary: 'Turn an alias zone into an independent primary', params: ZoneParams, body: AnyBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    await unaliasZone(zones, callerOf(request), request.params.zoneName, request.body)
    return ok(reply, 200)
  })

  app.post('/zones/:zoneName/transfer', {
    schema: { tags, summary: 'Request a zone transfer of a secondary zone from its primary name servers now', params: ZoneParams, body: AnyBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    await requestZoneTransfer(zones, callerOf(request), request.params.zoneName)
    return ok(reply, 200)
  })

  app.post('/zones/:zoneName/suspend', {
    schema: { tags, summary: 'Suspend a zone (Owner, Administrators, DNSAdministrators)', params: ZoneParams, body: AnyBody, response: { 200: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    await suspendZone(zones, callerOf(request), request.params.zoneName, request.body)
    return ok(reply, 200)
  })
}
