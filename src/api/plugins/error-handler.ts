import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ZonalError } from '../../errors/catalog.ts'
import { renderError } from '../../errors/render.ts'

/** One schema (Ajv) error, as Fastify reports it in `error.validation`. */
export interface ValidationItem {
  instancePath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
}

/**
 * A route's own reading of its body's schema errors, for the cases where the real API answers a
 * more precise code than 53005/55001 (e.g. the JSON Patch codes). `undefined` leaves the item to
 * the generic mapping.
 */
export type ValidationErrorMapper = (item: ValidationItem, request: FastifyRequest) => ZonalError | undefined

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Maps this route's body validation errors to catalog errors before the generic mapping. */
    validationError?: ValidationErrorMapper
    /**
     * Every error of the route is a single object, as the real token endpoint answers: clients
     * read its errors as one object. A 400 of a list entry becomes `AUTH_INVALID_REQUEST`
     * (60006 "invalid_request:…"); other statuses (413, 415, 429, 500…) keep their code.
     */
    objectErrors?: boolean
  }
}

/**
 * Send a catalog error in its wire shape: the entry's own, or a single object on a route with
 * `config.objectErrors` (the token endpoint), whatever sends it (error handler, rate limit…).
 */
export function sendError (reply: FastifyReply, err: ZonalError): FastifyReply {
  if (err.code === 'TOO_MANY_REQUESTS' || err.code === 'AUTH_ADDRESS_THROTTLED') {
    const wait = err.params[0]
    if (wait !== undefined) reply.header('retry-after', String(wait))
  }
  const asObject = reply.request.routeOptions.config?.objectErrors === true && err.def.shape !== 'object'
  const error = asObject && err.status === 400 ? new ZonalError('AUTH_INVALID_REQUEST', err.message) : err
  return reply.code(error.status).type('application/json').send(renderError(error, asObject ? 'object' : error.def.shape))
}

/**
 * Name of the field a validation error is about, in dotted form without the body prefix and list
 * positions in brackets: `primaryCreateInfo.restrictIPList[0].startIP`.
 */
export function fieldName (context: string | undefined, item: ValidationItem): string {
  const path = item.instancePath.split('/').slice(1).map(p => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (item.keyword === 'required' && typeof item.params.missingProperty === 'string') path.push(item.params.missingProperty)
  const field = path.reduce((out, p) => /^\d+$/.test(p) ? `${out}[${p}]` : out === '' ? p : `${out}.${p}`, '')
  if (context === 'body' || context === undefined) return field === '' ? 'body' : field
  return field === '' ? context : field.startsWith('[') ? `${context}${field}` : `${context}.${field}`
}

/** Map any error to a catalog error; unexpected ones become INTERNAL and are logged with the request id. */
export function toZonalError (err: unknown, request: FastifyRequest): ZonalError {
  if (err instanceof ZonalError) return err
  const fe = err as FastifyError & { validation?: ValidationItem[], validationContext?: string }
  if (Array.isArray(fe.validation) && fe.validation.length > 0) {
    const item = fe.validation[0]!
    const mapped = fe.validationContext === 'body' ? request.routeOptions.config?.validationError?.(item, request) : undefined
    if (mapped !== undefined) return mapped
    const field = fieldName(fe.validationContext, item)
    if (item.keyword === 'required') return new ZonalError('FIELD_REQUIRED', field)
    if (item.keyword === 'additionalProperties' && typeof item.params.additionalProperty === 'string') {
      return new ZonalError('INVALID_INPUT', `${field === 'body' ? '' : field + '.'}${item.params.additionalProperty} is not a known field`)
    }
    return new ZonalError('INVALID_INPUT', `${field} ${item.message ?? 'is not valid'}`)
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? new ZonalError('UNSUPPORTED_CONTENT_TYPE') : new ZonalError('MALFORMED_BODY', 'length')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ZonalError('BODY_TOO_LARGE', request.routeOptions.bodyLimit ?? 0)
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ZonalError('PAYLOAD_REQUIRED')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ZonalError('MALFORMED_BODY', 'JSON')
    default:
      break
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.statusCode === 404) return new ZonalError('ROUTE_NOT_FOUND')
    if (fe.statusCode === 413) return new ZonalError('BODY_TOO_LARGE', request.routeOptions.bodyLimit ?? 0)
    if (fe.statusCode === 415) return new ZonalError('UNSUPPORTED_CONTENT_TYPE')
    return new ZonalError('INVALID_INPUT', fe.message)
  }
  request.log.error({ err, reqId: request.id }, 'unexpected error')
  return new ZonalError('INTERNAL', request.id)
}

/**
 * One error handler for the whole API (STYLE.md §4.3); the not-found handler and the errors
 * before routing are in `http-errors.ts`.
 */
export function registerErrorHandler (app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => sendError(reply, toZonalError(err, request)))
}
