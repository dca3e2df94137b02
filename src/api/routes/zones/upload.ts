import '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { ZonalError } from '../../../errors/catalog.ts'
import type { TaskRow } from '../../../store/schema.ts'
import { UPLOAD_ZONE, type UploadZonePayload } from '../../../tasks/jobs/upload-zone.ts'
import { limitsOf, type Caller, type ZoneDeps } from '../../../zones/context.ts'
import { UPLOAD_SYNC_MAX_CHARS } from '../../../zones/limits.ts'
import { checkUploadSizeOffThread } from '../../../zones/upload-records.ts'

/**
 * Whether an upload is created within the request (false: by a task, 202 + X-Task-Id): its
 * records are counted first (split into entries, `$GENERATE` ranges counted, in the worker pool;
 * nothing parsed or expanded), and a file over the zone's record limit or the `$GENERATE` limit
 * is refused at once. A file with more records than `ZONAL_UPLOAD_SYNC_MAX_RECORDS`, or more than
 * {@link UPLOAD_SYNC_MAX_CHARS} characters, goes to a task.
 *
 * @throws ZonalError ZONE_FILE_GENERATE_TOO_MANY, ZONE_TOO_MANY_RECORDS (53005)
 */
export async function uploadFitsRequest (zones: ZoneDeps, file: string): Promise<boolean> {
  const limits = limitsOf(zones)
  const count = await checkUploadSizeOffThread(file, { zoneMaxRecords: limits.zoneMaxRecords, generateMaxRecords: limits.generateMaxRecords })
  return file.length <= UPLOAD_SYNC_MAX_CHARS && count.records <= limits.uploadSyncMaxRecords
}

/**
 * Queue an upload as a task. The account is resolved now (the task belongs to it); everything
 * else is checked by the task, with the rules of a synchronous create.
 */
export async function createUploadTask (zones: ZoneDeps, caller: Caller, upload: { zone: unknown, file: string }): Promise<TaskRow> {
  const props = (upload.zone as { properties?: { accountName?: unknown } } | undefined)?.properties
  const named = typeof props?.accountName === 'string' ? caller.principal.membership(props.accountName) : undefined
  const creatable = caller.principal.memberships.filter(m => caller.principal.can(m.accountId, 'create'))
  const account = named ?? (creatable.length === 1 ? creatable[0] : undefined)
  if (account === undefined || !caller.principal.can(account.accountId, 'create')) {
    throw new ZonalError('PERMISSION_DENIED', 'create zones in this account')
  }
  const payload: UploadZonePayload = { userId: caller.principal.userId, ipAddress: caller.actor.ipAddress, body: upload.zone, file: upload.file }
  return await zones.store.tasks.create({ accountId: account.accountId, userId: caller.principal.userId, kind: UPLOAD_ZONE, message: 'Pending', payload })
}

/** A `zone` part that is not JSON (@fastify/multipart parses JSON fields itself and fails with this code). */
const INVALID_JSON_FIELD = 'FST_INVALID_JSON_FIELD_ERROR'

/**
 * The parts of a zone upload: `zone` (the Zone Create DTO as JSON) and `file` (the BIND text),
 * each either a file part or a plain field. Both layouts clients use are read:
 * - the Python client: `zone` with filename "" and Content-Type application/json, `file` with a
 *   filename (application/octet-stream);
 * - curl `-F 'zone=<zone.json;type=application/json' -F file=@example.zone`: `zone` is a field
 *   (no filename) with Content-Type application/json, which @fastify/multipart has already
 *   parsed into a value; a field without that type is JSON text.
 * Both parts are required (70009). The zone part is checked against `schema` (the JSON body
 * schema of `POST /zones`) as a JSON body would be.
 */
export async function readUpload (request: FastifyRequest, schema: TSchema): Promise<{ zone: unknown, file: string }> {
  let zone: unknown
  let file: string | undefined
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const buffer = await part.toBuffer()
        if (part.fieldname === 'file') file = buffer.toString('utf8')
        else if (part.fieldname === 'zone') zone = parseJsonPart(buffer.toString('utf8'))
      } else if (part.fieldname === 'zone') {
        zone = part.mimetype === 'application/json' ? part.value : parseJsonPart(String(part.value))
      } else if (part.fieldname === 'file') {
        file = String(part.value)
      }
    }
  } catch (err) {
    if ((err as { code?: unknown }).code === INVALID_JSON_FIELD) throw new ZonalError('MALFORMED_BODY', 'JSON (the zone part)')
    throw err
  }
  if (zone === undefined || file === undefined) throw new ZonalError('ZONE_FILE_REQUIRED')
  const validate = request.compileValidationSchema(schema, 'body')
  if (validate(zone) !== true) {
    throw Object.assign(new Error('invalid zone part'), { validation: validate.errors ?? [], validationContext: 'body' })
  }
  return { zone, file }
}

function parseJsonPart (text: string): unknown {
  try {
    return JSON.parse(text, (key, value: unknown) => key === '__proto__' ? undefined : value)
  } catch {
    throw new ZonalError('MALFORMED_BODY', 'JSON (the zone part)')
  }
}
