import type { FastifyRequest } from 'fastify'
import { ZonalError } from '../../../errors/catalog.ts'
import { fieldName, type ValidationErrorMapper, type ValidationItem } from '../../plugins/error-handler.ts'

/** The value at a JSON Pointer of the body (for error messages that quote it). */
function valueAt (body: unknown, pointer: string): unknown {
  let at = body
  for (const key of pointer.split('/').slice(1)) {
    if (typeof at !== 'object' || at === null) return undefined
    at = (at as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return at
}

/**
 * Schema errors of a JSON Patch body (`application/json-patch+json`), with the codes the use
 * case answers: 170004 for an unknown `op`, 170003 for anything else that is not a list of
 * operations.
 */
function jsonPatchError (item: ValidationItem, request: FastifyRequest): ZonalError {
  const op = /^\/(\d+)\/op$/.exec(item.instancePath)
  if (op !== null && item.keyword === 'enum') {
    const value = valueAt(request.body, item.instancePath)
    if (typeof value === 'string') return new ZonalError('JSON_PATCH_UNSUPPORTED_OP', value)
  }
  if (item.instancePath === '') return new ZonalError('JSON_PATCH_INVALID', 'The body must be a non-empty list of operations.')
  const detail = item.keyword === 'required' ? 'is required' : (item.message ?? 'is not valid')
  return new ZonalError('JSON_PATCH_INVALID', `Each operation needs "op" and "path": ${fieldName('body', item)} ${detail}.`)
}

/**
 * A list item that is not an object, answered with the code the section's validator gives for
 * an item without the fields it needs (`src/zones/sections.ts`).
 */
function sectionItemError (item: ValidationItem): ZonalError | undefined {
  if (item.keyword !== 'type') return undefined
  const restrict = /\/(?:restrictIPList|restrictIpList)\/(\d+)$/.exec(item.instancePath)
  if (restrict !== null) return new ZonalError('RESTRICT_IP_REQUIRED', 'restrictIPList', Number(restrict[1]))
  const notify = /\/notifyAddresses\/(\d+)$/.exec(item.instancePath)
  if (notify !== null) return new ZonalError('NOTIFY_IP_INVALID', '', 'notifyAddresses', Number(notify[1]))
  const server = /\/nameServerIpList\/(nameServerIp\d+)$/.exec(item.instancePath)
  if (server !== null) return new ZonalError('PRIMARY_NAME_SERVER_INVALID', server[1]!)
  return undefined
}

/** A flag that is not a JSON boolean (the schemas declare flags as `enum: [true, false]`). */
function flagError (item: ValidationItem): ZonalError | undefined {
  const allowed = item.params.allowedValues
  if (item.keyword !== 'enum' || !Array.isArray(allowed) || allowed.length !== 2 || allowed[0] !== true || allowed[1] !== false) return undefined
  return new ZonalError('INVALID_INPUT', `${fieldName('body', item)} must be true or false`)
}

/**
 * The zone routes' reading of their body schema errors (route config `validationError`). Shape
 * errors the generic mapping words well (unknown field, wrong JSON type: 53005; missing field:
 * 55001) are left to it.
 */
export const zoneValidationError: ValidationErrorMapper = (item, request) => {
  if (request.method === 'PATCH' && request.mediaType === 'application/json-patch+json') return jsonPatchError(item, request)
  return sectionItemError(item) ?? flagError(item)
}
