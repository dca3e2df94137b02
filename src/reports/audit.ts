import { createHash } from 'node:crypto'
import { parseAuditFilter, type AuditFilter } from '../audit/filter.ts'
import type { Principal } from '../auth/principal.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { AuditEntry, AuditPosition, AuditQuery, Store } from '../store/store.ts'

/** Rows per page of the audit log: 1 to 250, default 50 (spec "Limits"). */
export const AUDIT_LIMIT_DEFAULT = 50
export const AUDIT_LIMIT_MAX = 250

/** One audit record as the API shows it (spec "Audit record"). */
export interface AuditRecordDto {
  objectType: string
  changeType: string
  object: string
  user: string
  ipAddress: string | null
  changeTime: string
  account: string | null
  parent: string | null
  detail: { changes: { name: string, from: unknown, to: unknown }[], others: unknown[] }
  changeComment: string | null
}

export type CursorOperation = 'NEXT' | 'PREVIOUS'

export interface AuditPageRequest {
  filter?: string
  limit?: string
  cursor?: string
  cursorOperation?: string
}

export interface AuditPage {
  records: AuditRecordDto[]
  limit: number
  /** Cursors for the links: `next` reads on towards older records, `previous` back to newer. */
  next?: string
  previous?: string
}

/**
 * `limit`: 1 to 250; empty or absent is 50.
 * @throws ZonalError AUDIT_LIMIT_INVALID
 */
export function parseAuditLimit (limit: string | undefined): number {
  const text = (limit ?? '').trim()
  if (text === '') return AUDIT_LIMIT_DEFAULT
  const n = /^\d{1,9}$/.test(text) ? Number(text) : NaN
  if (!(n >= 1 && n <= AUDIT_LIMIT_MAX)) throw new ZonalError('AUDIT_LIMIT_INVALID', text)
  return n
}

/** `changeTime`: `yyyy-MM-dd HH:mm:ss.S` in GMT, the fraction as java.sql.Timestamp prints it (`.0`, `.5`, `.123`). */
export function formatChangeTime (iso: string): string {
  const d = new Date(iso)
  const p = (n: number, w = 2): string => String(n).padStart(w, '0')
  const ms = p(d.getUTCMilliseconds(), 3).replace(/0+$/, '')
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${ms === '' ? '0' : ms}`
}

/** `yyyyMMddHHmmss` in GMT. */
export function formatGmt (d: Date): string {
  return d.toISOString().slice(0, 19).replace(/[-:T]/g, '')
}

export function toAuditRecord (row: AuditEntry): AuditRecordDto {
  const detail = row.detail
  return {
    objectType: row.object_type,
    changeType: row.change_type,
    object: row.object,
    user: row.user_name,
    ipAddress: row.ip_address,
    changeTime: formatChangeTime(row.change_time),
    account: row.account_name,
    parent: row.parent,
    detail: {
      changes: (detail.changes ?? []).map(c => ({ name: c.name, from: c.from ?? null, to: c.to ?? null })),
      others: detail.others ?? []
    },
    changeComment: row.change_comment
  }
}

/** A LIKE pattern for a filter value: `*` is a wildcard, everything else literal. */
function likePattern (value: string): string {
  return value.toLowerCase().replace(/[\\%_]/g, c => `\\${c}`).replace(/\*/g, '%')
}

/** Exact names (no `*`), lower case, with and without their trailing dot. */
function exactNames (values: readonly string[]): string[] {
  return values.filter(v => !v.includes('*')).flatMap(v => {
    const name = v.toLowerCase()
    return name.endsWith('.') ? [name, name.slice(0, -1)] : [name, `${name}.`]
  })
}

/** Names match with or without their trailing dot (`www.example.org` finds `www.example.org.`). */
function namePatterns (values: readonly string[]): string[] {
  return values.flatMap(v => {
    const p = likePattern(v)
    if (!p.endsWith('.')) return [p, `${p}.`]
    return v.includes('*') ? [p] : [p, p.slice(0, -1)]
  })
}

/**
 * The accounts a query reads: those the filter names (each must be one the caller may read,
 * else PERMISSION_DENIED, whether or not it exists), or all the caller may read.
 */
function accountIdsOf (principal: Principal, names: readonly string[]): string[] {
  const readable = principal.scope('read').accountIds
  if (names.length === 0) return [...readable]
  const ids = new Set<string>()
  for (const name of names) {
    const m = principal.membership(name)
    if (m === undefined || !readable.includes(m.accountId)) throw new ZonalError('PERMISSION_DENIED', `read the audit log of account '${name}'`)
    ids.add(m.accountId)
  }
  return [...ids]
}

interface CursorJson {
  /** The record next to the page. */
  t: string
  i: number
  /** The window the first page was read in (kept, so a relative date_range does not slide). */
  f: string
  e: string
  /** The filter the cursor belongs to. */
  h: string
}

function filterHash (filter: string | undefined): string {
  return createHash('sha256').update((filter ?? '').trim()).digest('base64url').slice(0, 16)
}

function encodeCursor (at: AuditPosition, window: { from: Date, to: Date }, filter: string | undefined): string {
  const json: CursorJson = { t: at.time, i: at.id, f: window.from.toISOString(), e: window.to.toISOString(), h: filterHash(filter) }
  return Buffer.from(JSON.stringify(json)).toString('base64url')
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function decodeCursor (text: string, filter: string | undefined): CursorJson {
  let json: Partial<CursorJson> | undefined
  try {
    json = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<CursorJson>
  } catch {
    json = undefined
  }
  if (json === undefined || json === null || typeof json !== 'object' || typeof json.t !== 'string' || !ISO.test(json.t) ||
    !Number.isSafeInteger(json.i) || typeof json.f !== 'string' || !ISO.test(json.f) || typeof json.e !== 'string' || !ISO.test(json.e)) {
    throw new ZonalError('INVALID_INPUT', 'cursor: not a cursor of the audit log')
  }
  if (json.h !== filterHash(filter)) throw new ZonalError('INVALID_INPUT', 'cursor: it was made for another filter; start again without a cursor')
  return json as CursorJson
}

function parseOperation (text: string | undefined): CursorOperation {
  const op = (text ?? '').trim().toUpperCase()
  if (op === '' || op === 'NEXT') return 'NEXT'
  if (op === 'PREVIOUS') return 'PREVIOUS'
  throw new ZonalError('INVALID_INPUT', 'cursorOperation must be NEXT or PREVIOUS')
}

/** The store query of a parsed filter in a window, without position and limit. */
function baseQuery (principal: Principal, filter: AuditFilter, window: { from: Date, to: Date }): Omit<AuditQuery, 'limit'> {
  return {
    accountIds: accountIdsOf(principal, filter.accounts),
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    users: filter.users,
    objects: exactNames(filter.objectNames),
    objectNames: namePatterns(filter.objectNames.filter(v => v.includes('*'))),
    objectTypes: filter.objectTypes.map(t => t.toUpperCase()),
    changeTypes: filter.changeTypes.map(t => t.toUpperCase()),
    parentNames: namePatterns(filter.parentNames),
    changeComments: filter.changeComments.map(c => `%${likePattern(c)}%`)
  }
}

const positionOf = (row: AuditEntry): AuditPosition => ({ time: row.change_time, id: Number(row.id) })

/**
 * One page of the audit log (`GET /reports/dns_configuration/audit`), newest first. Keyset
 * paging on (change time, id): a page reads `limit + 1` records in its direction to learn
 * whether more follow, and probes the other side with a one-record read. A cursor keeps the
 * window of the first page, so paging is stable while records are added.
 *
 * @throws ZonalError the filter's errors (see `parseAuditFilter`), AUDIT_LIMIT_INVALID,
 *   PERMISSION_DENIED (an account in the filter the caller may not read), INVALID_INPUT (cursor,
 *   cursorOperation)
 */
export async function auditPage (store: Store, principal: Principal, request: AuditPageRequest, now: Date): Promise<AuditPage> {
  const limit = parseAuditLimit(request.limit)
  const filter = parseAuditFilter(request.filter, now)
  const cursorText = (request.cursor ?? '').trim()
  const cursor = cursorText === '' ? undefined : decodeCursor(cursorText, request.filter)
  const window = cursor === undefined ? { from: filter.from, to: filter.to } : { from: new Date(cursor.f), to: new Date(cursor.e) }
  const base = baseQuery(principal, filter, window)
  const operation = cursor === undefined ? 'NEXT' : parseOperation(request.cursorOperation)
  const at = cursor === undefined ? undefined : { time: cursor.t, id: cursor.i }
  const backwards = operation === 'PREVIOUS'

  const read = await store.audit.list({ ...base, limit: limit + 1, ...(at === undefined ? {} : backwards ? { before: at } : { after: at }) })
  const more = read.length > limit
  // A backward read comes back newest first, so its extra record is the first one.
  const rows = !more ? read : backwards ? read.slice(1) : read.slice(0, limit)
  const page: AuditPage = { records: rows.map(toAuditRecord), limit }
  if (rows.length === 0) return page
  const head = positionOf(rows[0]!)
  const tail = positionOf(rows[rows.length - 1]!)
  const exists = async (q: Pick<AuditQuery, 'after' | 'before'>): Promise<boolean> => (await store.audit.list({ ...base, limit: 1, ...q })).length > 0
  const hasOlder = backwards ? await exists({ after: tail }) : more
  const hasNewer = backwards ? more : at !== undefined && await exists({ before: head })
  if (hasOlder) page.next = encodeCursor(tail, window, request.filter)
  if (hasNewer) page.previous = encodeCursor(head, window, request.filter)
  return page
}

const CSV_COLUMNS = ['objectType', 'changeType', 'object', 'user', 'ipAddress', 'changeTime', 'account', 'parent', 'detail', 'changeComment'] as const

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break; a cell that a
 * spreadsheet would read as a formula (starting with =, +, -, @, tab or carriage return) is
 * prefixed with `'` (OWASP "CSV injection").
 */
export function csvCell (value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The records as CSV with a header row; `detail` is one cell of JSON. Lines end with CRLF. */
export function auditCsv (records: readonly AuditRecordDto[]): string {
  const lines = [CSV_COLUMNS.join(',')]
  for (const r of records) lines.push(CSV_COLUMNS.map(c => csvCell(r[c])).join(','))
  return lines.join('\r\n') + '\r\n'
}

export interface FilterListEntry {
  key: string
  /** The audit log's search path for this value (relative, as the Link header's). */
  url: string
}

export interface AuditFilterList {
  objectTypes: FilterListEntry[]
  changeTypes: FilterListEntry[]
  users: FilterListEntry[]
  accounts: FilterListEntry[]
}

/**
 * The filter list (`GET /reports/dns_configuration/audit/filters`): the object types, change
 * types, users and accounts of the records in the window (`dateRange` as `date_range` takes it;
 * default the last 24 hours) that the caller may read. With `xUser`, only the accounts that user
 * is linked with (and the caller may read); an unknown user, or one linked with no such account,
 * is AUDIT_X_USER_INVALID (the same answer either way, so it tells nothing of other accounts).
 */
export async function auditFilterList (store: Store, principal: Principal, options: { dateRange?: string, xUser?: string, searchPath: string }, now: Date): Promise<AuditFilterList> {
  const rangeText = (options.dateRange ?? '').trim()
  const filter = parseAuditFilter(rangeText === '' ? undefined : `date_range:${rangeText}`, now)
  let accountIds = principal.scope('read').accountIds
  if (options.xUser !== undefined) {
    const name = options.xUser.trim()
    const user = name === '' ? undefined : await store.users.findByUsername(name)
    const linked = user === undefined ? [] : (await store.users.memberships(user.id)).map(m => m.accountId)
    accountIds = accountIds.filter(id => linked.includes(id))
    if (accountIds.length === 0) throw new ZonalError('AUDIT_X_USER_INVALID', name)
  }
  const values = await store.audit.filterValues(accountIds, filter.from.toISOString(), filter.to.toISOString())
  const range = rangeText !== '' ? rangeText : `${formatGmt(filter.from)}-${formatGmt(filter.to)}`
  const entry = (key: string) => (value: string): FilterListEntry => ({
    key: value,
    url: `${options.searchPath}?filter=${encodeURIComponent(`${key}:${value}::date_range:${range}`)}`
  })
  return {
    objectTypes: values.objectTypes.map(entry('object_type')),
    changeTypes: values.changeTypes.map(entry('change_type')),
    users: values.users.map(entry('users')),
    accounts: values.accounts.map(entry('account'))
  }
}
