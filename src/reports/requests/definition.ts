import type { Principal } from '../../auth/principal.ts'
import type { Store } from '../../store/store.ts'

/** An account a report covers. */
export interface ReportAccount {
  id: string
  name: string
}

/** What a report's `parse` gets: the request as sent, who sent it, and when. */
export interface ReportInput {
  /** The JSON body ({} when none was sent). */
  body: unknown
  /** The query string's values (offset and limit are the framework's). */
  query: Record<string, string | undefined>
  principal: Principal
  store: Store
  now: Date
}

/** A validated request: the accounts it covers and the parameters its computation needs. */
export interface ParsedReport<P> {
  accounts: ReportAccount[]
  /** Plain data (strings, numbers, booleans, arrays, objects of them): kept as JSON with the request. */
  params: P
}

/** What a report's `compute` gets. */
export interface ReportContext<P> {
  store: Store
  params: P
  accounts: ReportAccount[]
  /** Position of the first row, and how many rows at most (the framework asks one more than the page to know whether a next page exists). */
  offset: number
  limit: number
  signal: AbortSignal
  /** When the report was requested: what "today", "yesterday" and "this month" mean for it. */
  now: Date
}

/**
 * A CSV column: a field of the record in API spelling (also its header), or a path into a nested
 * field (`responseCountByCountryCode.US`) with its own header.
 */
export type ReportColumn = string | { key: string, header: string }

/**
 * One asynchronous report (spec "Report request id", "Raw query sample report" …): how its
 * request is validated and how its rows are computed from what the service recorded. The
 * framework (`./service.ts`, `api/routes/reports/requests.ts`) serves `POST /<path>` (also
 * under /v1, /v2) with 201 `{requestId}`, computes the rows in a task, and serves them at
 * `GET /requests/{requestId}` as JSON or CSV with the paging headers.
 */
export interface ReportDefinition<P = unknown> {
  /** Request id prefix, e.g. 'PQV' (ids look like `PQV-3f9a0c2e1b7d4a55`). */
  prefix: string
  /** The prefix of one request when it depends on the parameters (one path, two reports). */
  prefixOf?: (params: P) => string
  /** POST path without leading slash or version, e.g. 'reports/dns_resolution/query_volume/zone'. */
  path: string
  /** OpenAPI summary of the POST. */
  summary: string
  /** Default and maximum `limit`. */
  limit: { default: number, max: number }
  /** The record's fields in API spelling: the CSV header and column order. */
  columns: readonly ReportColumn[]
  /** The fields of one request when they depend on the parameters (one path, two reports). */
  columnsOf?: (params: P) => readonly ReportColumn[]
  /**
   * Query parameters besides offset and limit that the Link of one request's pages keeps, as
   * `name=value&…` (one path, two reports told apart by the query).
   */
  linkQueryOf?: (params: P) => string | undefined
  /** Validate the body and query; resolve the accounts. Throws ZonalError for bad input. */
  parse: (input: ReportInput) => Promise<ParsedReport<P>>
  /** The rows in report order from `offset`, at most `limit`, as records of `columns`. */
  compute: (ctx: ReportContext<P>) => Promise<Array<Record<string, unknown>>>
}
