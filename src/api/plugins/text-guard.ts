import type { FastifyInstance } from 'fastify'
import { ZonalError } from '../../errors/catalog.ts'

/** Objects and arrays looked into at most this deep (request bodies are shallow; deeper is refused elsewhere). */
const MAX_DEPTH = 32

/**
 * Where in `value` a string holds a NUL character, as a field path (`properties.name`,
 * `rdata[0]`), or undefined. Keys are looked at too.
 */
export function nulAt (value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || ArrayBuffer.isView(value)) return undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = nulAt(value[i], `${path}[${i}]`, depth + 1)
      if (at !== undefined) return at
    }
    return undefined
  }
  for (const [key, v] of Object.entries(value)) {
    const field = path === '' ? key : `${path}.${key}`
    if (key.includes('\u0000')) return path === '' ? 'a field name' : path
    const at = nulAt(v, field, depth + 1)
    if (at !== undefined) return at
  }
  return undefined
}

/**
 * No text the database cannot store reaches a route: a NUL character (`%00`, `\u0000`) in a
 * path parameter, a query value or a parsed body (JSON, form) is refused with 53005 "Invalid
 * input: …" naming the field, never the value (PostgreSQL's text refuses it, SQLite would keep a
 * string that reads back cut). One hook for every route, before validation.
 */
export function registerTextGuard (app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const at = nulAt(request.params, '', 0) ?? nulAt(request.query, '', 0) ?? nulAt(request.body, '', 0)
    if (at !== undefined) throw new ZonalError('INVALID_INPUT', `${at} contains a NUL character`)
  })
}
