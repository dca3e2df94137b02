import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { auditCsv, auditFilterList, auditPage, type AuditPage } from '../../../reports/audit.ts'
import type { Store } from '../../../store/store.ts'
import type { Clock } from '../../../util/time.ts'
import { principalOf } from '../../plugins/auth.ts'
import { apiVersionOf } from '../../plugins/version-prefix.ts'
import { AuditFilters, AuditFiltersQuerystring, AuditList, AuditQuerystring } from '../../schemas/audit.ts'
import { ErrorBody } from '../../schemas/common.ts'
import { wantsCsv } from './csv.ts'

const AUDIT_PATH = 'reports/dns_configuration/audit'

/**
 * Where the `Link` header's URLs point: relative, with the `/v1` prefix (spec "Versioning": Link
 * headers carry relative URLs with /v1 or /v2 prefixes). The leading slash makes them
 * path-absolute, so a client resolving them against the request's URL (RFC 3986 §5) reaches the
 * audit log whatever prefix it called.
 */
const LINK_PATH = `/v1/${AUDIT_PATH}`

/** The audit log's path as the caller wrote it, relative like the real API's links (`v1/reports/…`). */
function searchPath (request: FastifyRequest): string {
  const version = apiVersionOf(request)
  return version === 'latest' ? AUDIT_PATH : `${version}/${AUDIT_PATH}`
}

/**
 * `Link` of a page: relative URLs with the real API's parameters, in its order and spelling
 * (`filter`, `cursor`, `Limit`, `cursorOperation` NEXT or PREVIOUS); undefined without either.
 */
function linkHeader (filter: string | undefined, page: AuditPage): string | undefined {
  const link = (cursor: string, operation: 'NEXT' | 'PREVIOUS', rel: string): string => {
    const params = new URLSearchParams()
    if (filter !== undefined && filter !== '') params.set('filter', filter)
    params.set('cursor', cursor)
    params.set('Limit', String(page.limit))
    params.set('cursorOperation', operation)
    return `<${LINK_PATH}?${params.toString()}>; rel="${rel}"`
  }
  const parts: string[] = []
  if (page.next !== undefined) parts.push(link(page.next, 'NEXT', 'next'))
  if (page.previous !== undefined) parts.push(link(page.previous, 'PREVIOUS', 'previous'))
  return parts.length === 0 ? undefined : parts.join(', ')
}

/**
 * The audit log (spec "Audit log"): `GET /reports/dns_configuration/audit` (JSON, or CSV with
 * `Accept: text/csv`) and its filter list `GET /reports/dns_configuration/audit/filters`.
 * Immediate answers; records of the accounts the caller may read only.
 */
export const reportRoutes: FastifyPluginAsyncTypebox<{ store: Store, clock: Clock }> = async (app, { store, clock }) => {
  const tags = ['reports']

  app.get('/reports/dns_configuration/audit', {
    schema: {
      tags,
      summary: 'The audit log: changes, newest first, keyset pages',
      description: 'Headers: Link (rel next and previous), Limit, Results. Accept: text/csv gives CSV with a header row.',
      querystring: AuditQuerystring,
      response: { 200: AuditList, '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const { query } = request
    const page = await auditPage(store, principalOf(request), {
      filter: query.filter,
      limit: query.limit ?? query.Limit,
      cursor: query.cursor,
      cursorOperation: query.cursorOperation
    }, clock())
    const link = linkHeader(query.filter, page)
    if (link !== undefined) reply.header('link', link)
    reply.header('limit', String(page.limit))
    reply.header('results', String(page.records.length))
    if (wantsCsv(request)) {
      // A Buffer is sent as it is (the JSON schema of the 200 response does not apply to CSV).
      return await (reply as FastifyReply).header('content-type', 'text/csv; charset=utf-8').send(Buffer.from(auditCsv(page.records)))
    }
    return { auditRecords: page.records }
  })

  app.get('/reports/dns_configuration/audit/filters', {
    schema: {
      tags,
      summary: 'The audit log\'s filter list: object types, change types, users and accounts seen in a date range',
      description: 'Header X-User: list only the accounts that user is linked with (an unknown or unlinked user is an error).',
      querystring: AuditFiltersQuerystring,
      response: { 200: AuditFilters, '4xx': ErrorBody }
    }
  }, async (request) => {
    const xUser = request.headers['x-user']
    const filters = await auditFilterList(store, principalOf(request), {
      dateRange: request.query.dateRange,
      xUser: Array.isArray(xUser) ? xUser.join(',') : xUser,
      searchPath: searchPath(request)
    }, clock())
    return { filters }
  })
}
