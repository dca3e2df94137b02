import type { FastifyInstance } from 'fastify'
import { ZonalError } from '../../errors/catalog.ts'

/**
 * Body parsers: JSON (an empty body is "no body": clients send `Content-Type: application/json`
 * on bodiless POSTs and GETs), JSON Patch, and form-encoded bodies for the token endpoint.
 */
export function registerContentTypes (app: FastifyInstance): void {
  const parseJson = (body: string): unknown => {
    if (body.trim() === '') return undefined
    try {
      return JSON.parse(body, (key, value: unknown) => key === '__proto__' ? undefined : value)
    } catch {
      throw new ZonalError('MALFORMED_BODY', 'JSON')
    }
  }
  app.removeContentTypeParser(['application/json'])
  app.addContentTypeParser(['application/json', 'application/json-patch+json'], { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJson(body as string))
    } catch (err) {
      done(err as Error, undefined)
    }
  })
  // A route whose body schema is given per media type (`body: {content: {...}}`) takes only those:
  // another type would skip validation altogether.
  app.addHook('preValidation', async (request) => {
    const content = (request.routeOptions.schema?.body as { content?: Record<string, unknown> } | undefined)?.content
    if (content === undefined || request.body === undefined || request.mediaType === undefined) return
    if (!Object.hasOwn(content, request.mediaType)) throw new ZonalError('UNSUPPORTED_CONTENT_TYPE')
  })
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const out: Record<string, string> = {}
    for (const [key, value] of new URLSearchParams(body as string)) out[key] = value
    done(null, out)
  })
}
