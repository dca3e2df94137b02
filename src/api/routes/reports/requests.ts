import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { FastifyReply } from 'fastify'
import type { ReportDefinition } from '../../../reports/requests/definition.ts'
import { reportDefinitions } from '../../../reports/requests/definitions.ts'
import { readReport, REPORT_NOT_READY, reportCsv, reportJson, requestReport, type ReportResult } from '../../../reports/requests/service.ts'
import type { Store } from '../../../store/store.ts'
import type { Clock } from '../../../util/time.ts'
import { principalOf } from '../../plugins/auth.ts'
import { ErrorBody } from '../../schemas/common.ts'
import { wantsCsv } from './csv.ts'

/** offset and limit as text: the report's own rules answer with the spec's messages ("Offset value is a negative value."). */
const PageQuerystring = Type.Object({
  offset: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.String({ maxLength: 64 }))
}, { additionalProperties: true })

const RequestId = Type.Object({ requestId: Type.String() })
const RequestIdParams = Type.Object({ requestId: Type.String({ maxLength: 200 }) })

/**
 * `Link` of a report page (spec "Zone query volume report": the next and previous URLs need a
 * new POST with the original body and the new offset and limit): relative, with /v1 as the real
 * API's links have it.
 */
function linkHeader (result: ReportResult): string | undefined {
  const query = result.linkQuery === undefined ? '' : `${result.linkQuery}&`
  const link = (offset: number, rel: string): string => `</v1/${result.path}?${query}offset=${offset}&limit=${result.limit}>; rel="${rel}"`
  const parts: string[] = []
  if (result.hasNext) parts.push(link(result.offset + result.limit, 'next'))
  if (result.offset > 0) parts.push(link(Math.max(0, result.offset - result.limit), 'previous'))
  return parts.length === 0 ? undefined : parts.join(', ')
}

/**
 * The asynchronous reports (spec "Report request id"): one `POST /<path>` per report definition
 * (201 `{requestId}`, computed by a task) and `GET /requests/{requestId}` for the rows: JSON, or
 * CSV with `Accept: text/csv`; headers Limit, Results and Link; 202 with the real API's
 * "not ready" object (410004) while the task runs.
 */
export const reportRequestRoutes: FastifyPluginAsyncTypebox<{ store: Store, clock: Clock, tasks?: { wake (): void } }> = async (app, { store, clock, tasks }) => {
  const tags = ['reports']

  const post = (def: ReportDefinition): void => {
    app.post(`/${def.path}`, {
      schema: {
        tags,
        summary: def.summary,
        description: `Query offset (0 or more) and limit (default ${def.limit.default}, at most ${def.limit.max}). Answers 201 {requestId}; read the rows with GET /requests/{requestId}.`,
        querystring: PageQuerystring,
        body: Type.Optional(Type.Unknown()),
        response: { 201: RequestId, '4xx': ErrorBody }
      }
    }, async (request, reply) => {
      const requestId = await requestReport(store, def, {
        body: request.body ?? {},
        query: request.query as Record<string, string | undefined>,
        principal: principalOf(request),
        now: clock()
      })
      tasks?.wake()
      return await reply.code(201).send({ requestId })
    })
  }
  for (const def of reportDefinitions) post(def)

  app.get('/requests/:requestId', {
    schema: {
      tags,
      summary: 'The rows of a requested report',
      description: 'JSON list, or CSV with Accept: text/csv. Headers Limit, Results, Link (rel next and previous: POST the report again with the new offset and limit). 202 {errorCode: 410004} while the report is computed; 404 for an unknown id.',
      params: RequestIdParams,
      response: { 200: Type.Array(Type.Record(Type.String(), Type.Unknown())), 202: Type.Object({ errorCode: Type.Integer(), errorMessage: Type.String() }), '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const result = await readReport(store, principalOf(request), request.params.requestId, clock())
    if (result === undefined) return await reply.code(202).header('retry-after', '1').send(REPORT_NOT_READY)
    const link = linkHeader(result)
    if (link !== undefined) reply.header('link', link)
    reply.header('limit', String(result.limit))
    reply.header('results', String(result.rowCount))
    reply.header('vary', 'accept-encoding')
    if (wantsCsv(request)) return await (reply as FastifyReply).header('content-type', 'text/csv; charset=utf-8').send(reportCsv(result))
    // The JSON text as stored, never parsed and serialized again (a 4,000-row page is about 1.5
    // MB); as stored, gzip-compressed, to a client that accepts gzip (curl without --compressed
    // does not; Python requests, browsers and fetch do).
    const json = (reply as FastifyReply).header('content-type', 'application/json; charset=utf-8')
    if (acceptsGzip(request.headers['accept-encoding'])) return await json.header('content-encoding', 'gzip').send(result.gzip)
    return await json.send(reportJson(result))
  })
}

/**
 * Whether an Accept-Encoding header accepts gzip (RFC 9110 §12.5.3): `gzip` (or `x-gzip`) named
 * with a weight above 0, or else `*` with one.
 */
export function acceptsGzip (header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : header
  if (value === undefined) return false
  const weights = new Map<string, number>()
  for (const part of value.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';').map(p => p.trim())
    const q = params.find(p => p.startsWith('q='))
    weights.set(coding === 'x-gzip' ? 'gzip' : coding!, q === undefined ? 1 : Number(q.slice(2)))
  }
  const gzip = weights.get('gzip') ?? weights.get('*')
  return gzip !== undefined && gzip > 0
}
