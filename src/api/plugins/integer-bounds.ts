import type { FastifyInstance, FastifySchema } from 'fastify'

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
 */
export function registerIntegerBounds (app: FastifyInstance): void {
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
