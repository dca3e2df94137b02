import type { FastifyInstance } from 'fastify'
import { ZonalError } from '../../errors/catalog.ts'

/** Objects and arrays looked into at most this deep (request bodies are shallow; deeper is refused elsewhere). */
const MAX_DEPTH = 32

/**
 * Where in `value` (a parsed query, path or body) a leaf value is `bad`, as a field path
 * (`properties.name`, `rdata[0]`), or undefined. With `badKey`, keys are looked at too.
 */
export function fieldWhere (value: unknown, bad: (leaf: unknown) => boolean, badKey?: (key: string) => boolean, path = '', depth = 0): string | undefined {
  if (typeof value !== 'object' || value === null) return bad(value) ? path : undefined
  if (depth > MAX_DEPTH || ArrayBuffer.isView(value)) return undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = fieldWhere(value[i], bad, badKey, `${path}[${i}]`, depth + 1)
      if (at !== undefined) return at
    }
    return undefined
  }
  for (const [key, v] of Object.entries(value)) {
    if (badKey?.(key) === true) return path === '' ? 'a field name' : path
    const at = fieldWhere(v, bad, badKey, path === '' ? key : `${path}.${key}`, depth + 1)
    if (at !== undefined) return at
  }
  return undefined
}

const hasNul = (v: unknown): boolean => typeof v === 'string' && v.includes('\u0000')

/** Where in `value` a string (or a key) holds a NUL character, as a field path, or undefined. */
export function nulAt (value: unknown, path = ''): string | undefined {
  return fieldWhere(value, hasNul, hasNul, path)
}

/**
 * No text the database cannot store reaches a route: a NUL character (`%00`, `\u0000`) in a
 * path parameter, a query value or a parsed body (JSON, form) is refused with 53005 "Invalid
 * input: …" naming the field, never the value (PostgreSQL's text refuses it, SQLite would keep a
 * string that reads back cut). One hook for every route, before validation.
 */
export function registerTextGuard (app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const at = nulAt(request.params) ?? nulAt(request.query) ?? nulAt(request.body)
    if (at !== undefined) throw new ZonalError('INVALID_INPUT', `${at} contains a NUL character`)
  })
}
