import type { Principal } from '../auth/principal.ts'
import { ZonalError } from '../errors/catalog.ts'
import { addCounts, healthScore, ZERO_COUNTS, type StatusCounts } from '../health/score.ts'
import { CATEGORIES, type HealthCategory } from '../health/types.ts'
import type { HealthSummary, Store } from '../store/store.ts'

/**
 * The health status reports (the real API's "Health Status Details Report" and "Health Status
 * Summary Report"): counts of the results of each zone's newest completed DNS health check, and
 * the zone's health score (`health/score.ts`), over the zones of the caller's accounts.
 */

export const DETAIL_SORTS = ['healthScore', 'zoneName', 'accountName'] as const
export type DetailSort = typeof DETAIL_SORTS[number]
export const MAX_DETAIL_LIMIT = 1000

/** The query of the detail report as the request gives it (every field optional). */
export interface DetailQueryInput {
  q?: string | undefined
  sort?: string | undefined
  order?: string | undefined
  category?: string | undefined
  limit?: string | undefined
  cursor?: string | undefined
  cursorOperation?: string | undefined
}

/** A HealthStatusRecord, before the API spells it. */
export interface HealthStatusRow extends StatusCounts {
  zoneName: string
  accountName: string
  healthScore: number
}

export interface DetailPage {
  rows: HealthStatusRow[]
  q: string | undefined
  limit: number
  /** Cursors of the pages after and before this one, when there are rows there. */
  next?: string
  previous?: string
}

interface Order {
  sort: DetailSort
  desc: boolean
  category: HealthCategory | 'ALL'
}

/** Where a page starts or ends: the order it belongs to and a row's sort key. */
interface Position extends Order {
  key: number | string
  zone: string
}

/** `category`: ALL (default), or one of NS, SOA, MX, DNSSEC, DOMAIN (any case). @throws ZonalError INVALID_INPUT */
export function categoryFrom (text: string | undefined): HealthCategory | 'ALL' {
  if (text === undefined || text === '') return 'ALL'
  const c = text.toUpperCase()
  if (c === 'ALL' || (CATEGORIES as readonly string[]).includes(c)) return c as HealthCategory | 'ALL'
  throw new ZonalError('INVALID_INPUT', `category '${text.slice(0, 32)}' must be one of ALL, ${CATEGORIES.join(', ')}`)
}

/** The counts of a zone for a category, or all categories added. */
export function countsFor (summary: Pick<HealthSummary, 'counts'>, category: HealthCategory | 'ALL'): StatusCounts {
  if (category !== 'ALL') return summary.counts[category] ?? ZERO_COUNTS
  return Object.values(summary.counts).reduce(addCounts, ZERO_COUNTS)
}

/**
 * `GET /dns_configuration/health_status/summary`: the counts of the detail report's records added
 * up (the zones matching `q`, the results of `category`).
 * @throws ZonalError INVALID_INPUT (category)
 */
export async function healthStatusSummary (store: Store, principal: Principal, input: Pick<DetailQueryInput, 'q' | 'category'>): Promise<StatusCounts> {
  const category = categoryFrom(input.category)
  return (await store.healthChecks.summaries(principal.scope('read')))
    .filter(s => matchesQ(s, input.q))
    .map(s => countsFor(s, category))
    .reduce(addCounts, ZERO_COUNTS)
}

/** Whether `q` matches the zone or its account (any case, a substring of either: the real API's OR). */
export function matchesQ (s: Pick<HealthSummary, 'zoneName' | 'accountName'>, q: string | undefined): boolean {
  if (q === undefined || q === '') return true
  const needle = q.toLowerCase()
  return s.zoneName.toLowerCase().includes(needle) || s.accountName.toLowerCase().includes(needle)
}

function encodeCursor (p: Position): string {
  return Buffer.from(JSON.stringify([p.sort, p.desc ? 'DESC' : 'ASC', p.category, p.key, p.zone])).toString('base64url')
}

function decodeCursor (text: string): Position {
  const bad = (): ZonalError => new ZonalError('INVALID_INPUT', `cursor '${text.slice(0, 64)}' is not a cursor of this report (take it from the Link header)`)
  let v: unknown
  try {
    v = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    throw bad()
  }
  if (!Array.isArray(v) || v.length !== 5) throw bad()
  const [sort, order, category, key, zone] = v as unknown[]
  if (!(DETAIL_SORTS as readonly unknown[]).includes(sort) || (order !== 'ASC' && order !== 'DESC') || typeof zone !== 'string') throw bad()
  if (sort === 'healthScore' ? typeof key !== 'number' : typeof key !== 'string') throw bad()
  return { sort: sort as DetailSort, desc: order === 'DESC', category: categoryFrom(String(category)), key: key as number | string, zone }
}

function orderFrom (input: DetailQueryInput): Order {
  const sortText = input.sort ?? 'healthScore'
  const sort = DETAIL_SORTS.find(s => s.toLowerCase() === sortText.toLowerCase())
  if (sort === undefined) throw new ZonalError('REPORT_SORT_INVALID', `'${sortText.slice(0, 32)}' (healthScore, zoneName or accountName)`)
  const order = (input.order ?? 'ASC').toUpperCase()
  if (order !== 'ASC' && order !== 'DESC') throw new ZonalError('INVALID_INPUT', `order '${(input.order ?? '').slice(0, 16)}' must be ASC or DESC`)
  return { sort, desc: order === 'DESC', category: categoryFrom(input.category) }
}

function limitFrom (text: string | undefined): number {
  if (text === undefined || text === '') return MAX_DETAIL_LIMIT
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1 || Number(text) > MAX_DETAIL_LIMIT) throw new ZonalError('REPORT_LIMIT_INVALID', text.slice(0, 16), MAX_DETAIL_LIMIT)
  return Number(text)
}

const keyOf = (row: HealthStatusRow, sort: DetailSort): number | string => sort === 'healthScore' ? row.healthScore : sort === 'zoneName' ? row.zoneName : row.accountName

function compare (a: { key: number | string, zone: string }, b: { key: number | string, zone: string }, desc: boolean): number {
  const primary = typeof a.key === 'number' ? a.key - (b.key as number) : (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  const c = primary !== 0 ? primary : a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0
  return desc ? -c : c
}

/**
 * `GET /dns_configuration/health_status/detail`: one HealthStatusRecord per zone of the caller's
 * accounts with a completed health check, matching `q`, in the order asked (ties by zone name),
 * a page of `limit` (1–1000, default 1000) at a time. A cursor (from the Link header) holds the
 * order and the category it was made for, and the row it follows or precedes.
 * @throws ZonalError INVALID_INPUT (order, category, cursor, cursorOperation), REPORT_SORT_INVALID, REPORT_LIMIT_INVALID
 */
export async function healthStatusDetail (store: Store, principal: Principal, input: DetailQueryInput): Promise<DetailPage> {
  const limit = limitFrom(input.limit)
  const operation = (input.cursorOperation ?? 'NEXT').toUpperCase()
  if (operation !== 'NEXT' && operation !== 'PREVIOUS') throw new ZonalError('INVALID_INPUT', `cursorOperation '${input.cursorOperation!.slice(0, 16)}' must be NEXT or PREVIOUS`)
  const at = input.cursor === undefined || input.cursor === '' ? undefined : decodeCursor(input.cursor)
  const order: Order = at ?? orderFrom(input)
  const q = input.q === '' ? undefined : input.q
  const rows = (await store.healthChecks.summaries(principal.scope('read')))
    .filter(s => matchesQ(s, q))
    .map((s): HealthStatusRow => {
      const c = countsFor(s, order.category)
      return { zoneName: s.zoneName, accountName: s.accountName, ...c, healthScore: healthScore(c) }
    })
    .map(row => ({ row, key: keyOf(row, order.sort), zone: row.zoneName }))
    .sort((a, b) => compare(a, b, order.desc))
  let start = 0
  let end = rows.length
  if (at !== undefined && operation === 'NEXT') {
    start = rows.findIndex(r => compare(r, at, order.desc) > 0)
    if (start < 0) start = rows.length
    end = Math.min(rows.length, start + limit)
  } else if (at !== undefined) {
    end = rows.findIndex(r => compare(r, at, order.desc) >= 0)
    if (end < 0) end = rows.length
    start = Math.max(0, end - limit)
  } else {
    end = Math.min(rows.length, limit)
  }
  const page = rows.slice(start, end)
  const position = (r: typeof rows[number]): string => encodeCursor({ ...order, key: r.key, zone: r.zone })
  return {
    rows: page.map(r => r.row),
    q,
    limit,
    ...(end < rows.length && page.length > 0 ? { next: position(page.at(-1)!) } : {}),
    ...(start > 0 && page.length > 0 ? { previous: position(page[0]!) } : {})
  }
}
