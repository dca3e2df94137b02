import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import type { FastifySchema } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { catalog, formatMessage, type ErrorName } from '../../errors/catalog.ts'
import { ErrorItem, ErrorObject } from '../schemas/common.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body may be left out (OpenAPI `requestBody.required: false`); an absent body is `{}`. */
    bodyOptional?: boolean
  }
}

const TOKEN_URL = '/authorization/token'

/** An example error body of a catalog entry, in its wire shape. */
function example (code: ErrorName, ...params: string[]): unknown {
  const def = catalog[code]
  const item = { errorCode: def.errorCode, errorMessage: formatMessage(def.message, params) }
  return 'shape' in def && def.shape === 'object' ? item : [item]
}

const list = (description: string, ...examples: unknown[]): TSchema => Type.Array(ErrorItem, { description, examples })
const object = (description: string, ...examples: unknown[]): TSchema => Type.Object(ErrorObject.properties, { description, examples })

/**
 * The error responses a route can give, in the catalog's wire shape (`docs/errors.md`): 400 for
 * bad input, 401 without a valid token (a single object, as the real API sends it), 403 without
 * the permission, 404 for a missing resource, 429 over the rate limit. The token endpoint answers
 * its errors as single objects.
 */
function errorResponses (url: string, isPublic: boolean, hasInput: boolean): Record<string, TSchema> {
  const responses: Record<string, TSchema> = {}
  if (url === TOKEN_URL) {
    responses[400] = object('Token request refused (single object with the OAuth2 error beside the UltraDNS one)', example('AUTH_INVALID_GRANT'))
    responses[429] = object('Too many requests, or too many failed logins from this address (a single object); Retry-After says when to try again',
      example('AUTH_ADDRESS_THROTTLED', '60'), { errorCode: catalog.TOO_MANY_REQUESTS.errorCode, errorMessage: catalog.TOO_MANY_REQUESTS.message })
    return responses
  }
  if (hasInput) responses[400] = list('Invalid input: [{errorCode, errorMessage}]', example('INVALID_INPUT', 'changeComment must NOT have more than 512 characters'), example('FIELD_REQUIRED', 'properties'))
  if (!isPublic) {
    responses[401] = object('No valid bearer token (a single object; clients refresh their token on errorCode 60001)', example('AUTH_TOKEN_INVALID'))
    responses[403] = list('The caller lacks the permission', example('PERMISSION_DENIED', 'write the zone example.org.'))
  }
  if (url.includes('{')) responses[404] = list('Not found (a zone: 1801; other data: 70002; an unknown path: 404)', example('ZONE_NOT_FOUND'), example('DATA_NOT_FOUND'))
  responses[429] = list('Too many requests; Retry-After says when to try again', example('TOO_MANY_REQUESTS'))
  return responses
}

/** `getZonesByZoneNameRrsets` for GET /zones/{zoneName}/rrsets: unique per method and path. */
export function operationIdOf (method: string, url: string): string {
  const words = url.split('/').filter(s => s !== '').map(s => {
    const param = /^\{(.+)\}$/.exec(s)
    const word = (param?.[1] ?? s).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())
    return (param === null ? '' : 'By') + word.charAt(0).toUpperCase() + word.slice(1)
  })
  return method.toLowerCase() + words.join('')
}

/**
 * The @fastify/swagger options of the app: the bearer scheme for every operation except the
 * public routes (`config.public`: `security: []`), an operationId for every operation (the
 * route's own, or one made of method and path), the error responses of each route, and
 * `requestBody.required: false` where the route says `config.bodyOptional`.
 */
export function openapiOptions (info: { title: string, version: string, description: string }): FastifyDynamicSwaggerOptions {
  const optionalBodies = new Set<string>()
  return {
    openapi: {
      info,
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The accessToken of POST /authorization/token' } } },
      security: [{ bearer: [] }]
    },
    convertConstToEnum: true,
    transform: ({ schema, url, route }) => {
      if (schema === undefined || schema === null || schema.hide === true) return { schema, url }
      const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method)
      const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
      const operationId = schema.operationId ?? operationIdOf(method, path)
      const isPublic = route.config?.public === true
      if (route.config?.bodyOptional === true) optionalBodies.add(operationId)
      const hasInput = schema.body !== undefined || schema.querystring !== undefined || schema.params !== undefined
      const response = { ...errorResponses(path, isPublic, hasInput), ...(schema.response as Record<string, unknown> | undefined) }
      const out: FastifySchema = { ...schema, operationId, response, ...(isPublic ? { security: [] } : {}) }
      return { schema: out, url }
    },
    transformObject: (documentObject) => {
      const doc = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject
      for (const item of Object.values(doc.paths ?? {})) {
        for (const op of Object.values(item ?? {}) as { operationId?: string, requestBody?: { required?: boolean } }[]) {
          if (typeof op === 'object' && op?.requestBody !== undefined && op.operationId !== undefined && optionalBodies.has(op.operationId)) op.requestBody.required = false
        }
      }
      return doc
    }
  }
}
