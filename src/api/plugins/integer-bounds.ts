import type { FastifyInstance, FastifySchema } from 'fastify'
import { ZonalError } from '../../errors/catalog.ts'
import { fieldWhere } from './text-guard.ts'

const notFinite = (v: unknown): boolean => typeof v === 'number' && !Number.isFinite(v)

/** The parts of a route schema that describe the request. */
const REQUEST_PARTS = ['querystring', 'params', 'headers', 'body'] as const

/** Objects and arrays looked into at most this deep (schemas are shallow; a cycle stops here). */
const MAX_DEPTH = 64

/**
 * A copy of `schema` in which every `type: 'integer'` without its own bounds takes
 * ±`Number.MAX_SAFE_INTEGER` (2^53 − 1). Shared schema objects are left as they are.
 */
export function boundIntegers<T> (schema: T, depth = 0): T {
  if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return schema
  if (Array.isArray(schema)) return schema.map(item => boundIntegers(item as unknown, depth + 1)) as T
  const out: Record<string, unknown> = { ...(schema as Record<string, unknown>) }
  for (const key of Object.keys(out)) out[key] = boundIntegers(out[key], depth + 1)
  const type = out.type
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = Number.MAX_SAFE_INTEGER
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = -Number.MAX_SAFE_INTEGER
  }
  return out as T
}

/**
 * Every integer a request carries (query value, path parameter, header, JSON body field) is
 * within ±(2^53 − 1): a larger one (`offset=99999999999999999999999`) is a 400 53005 naming the
 * field, from schema validation, instead of a number JavaScript rounds and the database refuses
 * (a 500 before). One rule for every route: each route's request schema gets the bound where it
 * has none of its own. Register before the routes (an `onRoute` hook sees the routes added after
 * it).
 *
 * A value validation lets through as a number that is not finite (`limit=Infinity`, `1e400`:
 * the schema validator coerces the text to Infinity and then skips its bounds for it; JSON's
 * `1e400` parses to Infinity) is refused the same way after validation.
 */
export function registerIntegerBounds (app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    // Named as validation names fields (`querystring.limit`).
    const at = fieldWhere(request.query, notFinite, undefined, 'querystring') ?? fieldWhere(request.params, notFinite, undefined, 'params') ??
      fieldWhere(request.body, notFinite, undefined, 'body')
    if (at !== undefined) throw new ZonalError('INVALID_INPUT', `${at} must be a finite number`)
  })
  app.addHook('onRoute', (route) => {
    const schema = route.schema as (FastifySchema & Record<string, unknown>) | undefined
    if (schema === undefined) return
    const bounded: Record<string, unknown> = { ...schema }
    for (const part of REQUEST_PARTS) {
      if (bounded[part] !== undefined) bounded[part] = boundIntegers(bounded[part])
    }
    route.schema = bounded as FastifySchema
  })
}
