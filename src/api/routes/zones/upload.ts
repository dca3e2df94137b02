import '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { ZonalError } from '../../../errors/catalog.ts'
import { nulAt } from '../../plugins/text-guard.ts'
import type { TaskRow } from '../../../store/schema.ts'
import { UPLOAD_ZONE, type UploadZonePayload } from '../../../tasks/jobs/upload-zone.ts'
import { parseName } from '../../../zone/name.ts'
import { limitsOf, zoneNameFrom, type Caller, type ZoneDeps } from '../../../zones/context.ts'
import { refuseTakenName } from '../../../zones/create.ts'
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
 * Queue an upload as a task. The account is resolved now (the task belongs to it) and a taken
 * name refused (an existing zone, or one inside or above another account's zone); everything
 * else is checked by the task, with the rules of a synchronous create.
 */
export async function createUploadTask (zones: ZoneDeps, caller: Caller, upload: { zone: unknown, file: string }): Promise<TaskRow> {
  const props = (upload.zone as { properties?: { accountName?: unknown, name?: unknown } } | undefined)?.properties
  const named = typeof props?.accountName === 'string' ? caller.principal.membership(props.accountName) : undefined
  const creatable = caller.principal.memberships.filter(m => caller.principal.can(m.accountId, 'create'))
  const account = named ?? (creatable.length === 1 ? creatable[0] : undefined)
  if (account === undefined || !caller.principal.can(account.accountId, 'create')) {
    throw new ZonalError('PERMISSION_DENIED', 'create zones in this account')
  }
  // A taken name is refused now, not after the task has parsed the file.
  const name = typeof props?.name === 'string' && props.name.trim() !== '' ? zoneNameFrom(props.name) : undefined
  if (name !== undefined) await refuseTakenName(zones.store, parseName(name), name, account.accountId)
  const payload: UploadZonePayload = { userId: caller.principal.userId, ipAddress: caller.actor.ipAddress, body: upload.zone, file: upload.file }
  return await zones.store.tasks.create({ accountId: account.accountId, userId: caller.principal.userId, kind: UPLOAD_ZONE, message: 'Pending', payload })
}

/**
 * The most parts a multipart request may have (`@fastify/multipart` limits; app.ts registers
 * them): an upload is a zone part and a file part. A part is at most the body limit in size.
 */
export const MULTIPART_LIMITS = { files: 2, fields: 4, parts: 4 } as const

/**
 * The catalog error for what @fastify/multipart or busboy refused while reading the parts, or
 * undefined for an error of another kind. Busboy's own errors carry no code: whatever it throws
 * is a body that is not multipart/form-data (no boundary, cut short, bad part headers).
 */
function multipartError (err: unknown, request: FastifyRequest): ZonalError | undefined {
  if (err instanceof ZonalError) return err
  const code = (err as { code?: unknown }).code
  switch (code) {
    case 'FST_INVALID_JSON_FIELD_ERROR': return new ZonalError('MALFORMED_BODY', 'JSON (the zone part)')
    case 'FST_PARTS_LIMIT': return new ZonalError('MULTIPART_TOO_MANY_PARTS', MULTIPART_LIMITS.parts, 'parts')
    case 'FST_FILES_LIMIT': return new ZonalError('MULTIPART_TOO_MANY_PARTS', MULTIPART_LIMITS.files, 'file parts')
    case 'FST_FIELDS_LIMIT': return new ZonalError('MULTIPART_TOO_MANY_PARTS', MULTIPART_LIMITS.fields, 'field parts')
    case 'FST_REQ_FILE_TOO_LARGE': return new ZonalError('BODY_TOO_LARGE', request.routeOptions.bodyLimit ?? 0)
    case 'FST_PROTO_VIOLATION': return new ZonalError('INVALID_INPUT', 'a part name is not allowed')
    case 'FST_MP_PREMATURE_CLOSE': return new ZonalError('MALFORMED_BODY', 'multipart/form-data (cut short)')
    case undefined: break
    default: return undefined
  }
  if (!(err instanceof Error)) return undefined
  return /boundary/i.test(err.message)
    ? new ZonalError('MALFORMED_BODY', 'multipart/form-data (no boundary)')
    : new ZonalError('MALFORMED_BODY', 'multipart/form-data')
}

/** Refuse a part's text holding a NUL character, naming the part (never the text). */
function refuseNul (text: string, what: string): void {
  if (text.includes('\u0000')) throw new ZonalError('INVALID_INPUT', `${what} contains a NUL character`)
}

/** Refuse a zone file holding a NUL character, naming its line (zone files write bytes 0 as `\000`). */
function refuseNulInFile (text: string): void {
  const at = text.indexOf('\u0000')
  if (at < 0) return
  const line = text.slice(0, at).split('\n').length
  throw new ZonalError('ZONE_FILE_INVALID', `file contains a NUL character at line ${line}; write a zero byte as \\000`)
}

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
      refuseNul(part.fieldname, 'a part name')
      if (part.type === 'file') {
        refuseNul(part.filename, `the file name of ${part.fieldname}`)
        const buffer = await part.toBuffer()
        if (part.fieldname === 'file') file = buffer.toString('utf8')
        else if (part.fieldname === 'zone') zone = parseJsonPart(buffer.toString('utf8'))
      } else {
        if (part.valueTruncated) throw new ZonalError('BODY_TOO_LARGE', request.routeOptions.bodyLimit ?? 0)
        if (part.fieldname === 'zone') {
          zone = part.mimetype === 'application/json' ? part.value : parseJsonPart(String(part.value))
        } else if (part.fieldname === 'file') {
          file = String(part.value)
        }
      }
    }
  } catch (err) {
    throw multipartError(err, request) ?? err
  }
  if (zone === undefined || file === undefined) throw new ZonalError('ZONE_FILE_REQUIRED')
  const nul = nulAt(zone, '')
  if (nul !== undefined) throw new ZonalError('INVALID_INPUT', `${nul === '' ? 'the zone part' : nul} contains a NUL character`)
  refuseNulInFile(file)
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
