import { randomBytes } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import { stringify } from 'csv-stringify/sync'
import type { Principal } from '../../auth/principal.ts'
import { ZonalError } from '../../errors/catalog.ts'
import type { ReportRequestRow } from '../../store/schema.ts'
import type { Store } from '../../store/store.ts'
import type { TaskHandler } from '../../tasks/runner.ts'
import type { ReportAccount, ReportColumn, ReportDefinition } from './definition.ts'
import { definitionOfKind } from './definitions.ts'

/** The task kind that computes a report request. */
export const COMPUTE_REPORT = 'compute-report'

/** Report data is kept 60 days from the request (the real API's "Returning Reporting Results"). */
export const REPORT_RETENTION_DAYS = 60

/** The "not ready" answer (a single object, as the real API sends it; the Python client's `ReportHandler` polls on 410004). */
export const REPORT_NOT_READY = { errorCode: 410004, errorMessage: 'Report is not ready. Please try again later.' } as const

/** What a request row's `params` holds. */
interface StoredParams {
  params: unknown
  accounts: ReportAccount[]
  offset: number
  limit: number
  /** When it was requested (ISO). */
  requestedAt: string
}

/** `offset` and `limit` of a report POST, with the spec's rules. */
export function pageOf (query: Record<string, string | undefined>, limits: ReportDefinition['limit']): { offset: number, limit: number } {
  const offsetText = (query.offset ?? '').trim()
  let offset = 0
  if (offsetText !== '') {
    if (!/^-?\d{1,15}$/.test(offsetText)) throw new ZonalError('REPORT_OFFSET_INVALID', offsetText.slice(0, 40))
    offset = Number(offsetText)
    if (offset < 0) throw new ZonalError('REPORT_OFFSET_NEGATIVE')
  }
  const limitText = (query.limit ?? '').trim()
  let limit = limits.default
  if (limitText !== '') {
    limit = /^\d{1,9}$/.test(limitText) ? Number(limitText) : NaN
    if (!(limit >= 1 && limit <= limits.max)) throw new ZonalError('REPORT_LIMIT_INVALID', limitText.slice(0, 40), limits.max)
  }
  return { offset, limit }
}

/**
 * Validate a report request and record it with the task that computes it (one transaction):
 * returns the request id. Throws ZonalError for bad input before anything is written.
 */
export async function requestReport (store: Store, def: ReportDefinition, input: {
  body: unknown
  query: Record<string, string | undefined>
  principal: Principal
  now: Date
}): Promise<string> {
  const page = pageOf(input.query, def.limit)
  const parsed = await def.parse({ ...input, store })
  const prefix = def.prefixOf?.(parsed.params) ?? def.prefix
  const id = `${prefix}-${randomBytes(8).toString('hex')}`
  const stored: StoredParams = { params: parsed.params, accounts: parsed.accounts, ...page, requestedAt: input.now.toISOString() }
  await store.transaction(async (tx) => {
    const task = await tx.tasks.create({
      accountId: parsed.accounts[0]?.id ?? null,
      userId: input.principal.userId,
      kind: COMPUTE_REPORT,
      message: `Report ${id} requested.`,
      payload: { requestId: id }
    })
    await tx.reportRequests.create({
      id,
      kind: def.path,
      userId: input.principal.userId,
      taskId: task.id,
      accountIds: parsed.accounts.map(a => a.id),
      params: stored,
      createdAt: input.now.toISOString(),
      expiresAt: new Date(input.now.getTime() + REPORT_RETENTION_DAYS * 86_400_000).toISOString()
    })
  })
  return id
}

/** The job computing a report request: the rows of its page (one more to know whether a next page exists), kept gzip-compressed. */
export const computeReport: TaskHandler = async ({ payload, store, signal, reportProgress }) => {
  const requestId = (payload as { requestId: string }).requestId
  const row = await store.reportRequests.find(requestId)
  if (row === undefined) return { message: `Report ${requestId} no longer exists.` }
  const def = definitionOfKind(row.kind)
  const stored = JSON.parse(row.params) as StoredParams
  try {
    if (def === undefined) throw new Error(`unknown report kind ${row.kind}`)
    await reportProgress(`Computing report ${requestId}.`, 0)
    const rows = await def.compute({
      store,
      params: stored.params,
      accounts: stored.accounts,
      offset: stored.offset,
      limit: stored.limit + 1,
      signal,
      now: new Date(stored.requestedAt)
    })
    const hasNext = rows.length > stored.limit
    const page = hasNext ? rows.slice(0, stored.limit) : rows
    const data = gzipSync(JSON.stringify(page))
    return {
      message: `Report ${requestId} computed: ${page.length} rows.`,
      onComplete: async (tx) => { await tx.reportRequests.complete(requestId, { rows: data, rowCount: page.length, hasNext }, new Date().toISOString()) }
    }
  } catch (err) {
    const message = err instanceof ZonalError ? err.message : 'System Error'
    await store.reportRequests.fail(requestId, message, new Date().toISOString())
    throw err
  }
}

/** A computed report as `GET /requests/{id}` answers it. */
export interface ReportResult {
  /** The rows as stored: JSON text (an array of records) compressed with gzip. */
  gzip: Buffer
  rowCount: number
  columns: readonly ReportColumn[]
  /** The report's POST path, for the Link header. */
  path: string
  /** Query parameters the Link keeps besides offset and limit (`name=value&…`). */
  linkQuery?: string
  offset: number
  limit: number
  hasNext: boolean
}

/**
 * A report request as its caller reads it back: the result when computed; 404 for an unknown
 * id, an expired one, or one covering an account the caller may not read; `undefined` while it
 * is being computed; 500 with the reason when computing it failed.
 */
export async function readReport (store: Store, principal: Principal, id: string, now: Date): Promise<ReportResult | undefined> {
  const row = await store.reportRequests.find(id)
  if (row === undefined || !visible(row, principal, now)) throw new ZonalError('REPORT_NOT_FOUND')
  const def = definitionOfKind(row.kind)
  if (def === undefined) throw new ZonalError('REPORT_NOT_FOUND')
  if (row.state === 'ERROR') throw new ZonalError('REPORT_FAILED', row.message ?? 'System Error')
  if (row.state !== 'COMPLETE' || row.rows === null) {
    // A task whose workers all stopped before finishing ends ERROR without the job saying so.
    const task = row.task_id === null ? undefined : await store.tasks.findById(row.task_id, { accountIds: JSON.parse(row.account_ids) as string[] })
    if (task?.code === 'ERROR') throw new ZonalError('REPORT_FAILED', task.message)
    return undefined
  }
  const stored = JSON.parse(row.params) as StoredParams
  const linkQuery = def.linkQueryOf?.(stored.params)
  return {
    gzip: Buffer.from(row.rows),
    rowCount: row.row_count ?? 0,
    columns: def.columnsOf?.(stored.params) ?? def.columns,
    path: def.path,
    ...(linkQuery === undefined ? {} : { linkQuery }),
    offset: stored.offset,
    limit: stored.limit,
    hasNext: row.has_next === 1
  }
}

function visible (row: ReportRequestRow, principal: Principal, now: Date): boolean {
  if (row.expires_at <= now.toISOString()) return false
  const accounts = JSON.parse(row.account_ids) as string[]
  // A report over no account (a caller in none) is its requester's only.
  if (accounts.length === 0) return row.user_id === principal.userId
  return accounts.every(a => principal.can(a, 'read'))
}

/** The rows as JSON text. */
export function reportJson (result: ReportResult): string {
  return gunzipSync(result.gzip).toString('utf8')
}

/** The rows as CSV (RFC 4180, header row of the field names; formula cells neutralised as the audit log's are). */
export function reportCsv (result: ReportResult): Buffer {
  const rows = JSON.parse(reportJson(result)) as Array<Record<string, unknown>>
  const text = stringify(rows, { header: true, columns: [...result.columns], record_delimiter: 'windows', escape_formulas: true, cast: { boolean: (b) => String(b) } })
  return Buffer.from(text)
}
