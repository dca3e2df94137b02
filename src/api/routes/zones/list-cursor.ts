import { createHash } from 'node:crypto'
import { ZonalError } from '../../../errors/catalog.ts'
import type { ListedZone, ZoneCursor, ZoneFilter, ZoneSort } from '../../../store/store.ts'

/**
 * Cursors of the v3 zone list. Clients treat them as opaque (notes §7); ours are base64url JSON
 * (URL-safe as they are, so clients that paste them into a URL unencoded still work):
 *
 * `{"d":"NEXT","s":"NAME","r":false,"q":"<filter hash>","v":<sort value>,"n":"<zone name>"}`
 *
 * `d` is the direction (NEXT: rows after the position, PREVIOUS: rows before it, FIRST, LAST: the
 * end pages, without a position). `s`, `r` and `q` pin the sort, the direction and the filter
 * the cursor was made for: a cursor used with another sort, reverse or `q` is refused instead of
 * giving a page of some other list.
 */
export type CursorDirection = 'NEXT' | 'PREVIOUS' | 'FIRST' | 'LAST'

/** What a cursor is bound to: the list it pages through. */
export interface CursorList {
  sort: ZoneSort
  reverse: boolean
  filter: ZoneFilter
}

export interface ListCursor {
  direction: CursorDirection
  /** The row next to the page; only for NEXT and PREVIOUS. */
  at?: ZoneCursor
}

interface CursorJson {
  d: CursorDirection
  s: ZoneSort
  r: boolean
  q: string
  v?: string | number
  n?: string
}

const DIRECTIONS: readonly string[] = ['NEXT', 'PREVIOUS', 'FIRST', 'LAST']
const MAX_CURSOR = 2048

/** A short hash of the filter, independent of the order of the `q` terms. */
function filterHash (filter: ZoneFilter): string {
  const canonical = Object.keys(filter).sort().map(k => [k, filter[k as keyof ZoneFilter]])
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, 11)
}

/** The keyset position of a row in the order of `sort`. */
export function positionOf (row: ListedZone, sort: ZoneSort): ZoneCursor {
  switch (sort) {
    case 'NAME': return { value: row.name, name: row.name }
    case 'ACCOUNT_NAME': return { value: row.account_name_key ?? '', name: row.name }
    case 'RECORD_COUNT': return { value: Number(row.record_count), name: row.name }
    case 'ZONE_TYPE': return { value: row.zone_type, name: row.name }
  }
}

/** An opaque cursor for `list`. */
export function encodeCursor (list: CursorList, cursor: ListCursor): string {
  const json: CursorJson = { d: cursor.direction, s: list.sort, r: list.reverse, q: filterHash(list.filter) }
  if (cursor.at !== undefined) {
    json.v = cursor.at.value
    json.n = cursor.at.name
  }
  return Buffer.from(JSON.stringify(json)).toString('base64url')
}

function validValue (sort: ZoneSort, v: unknown): v is string | number {
  return sort === 'RECORD_COUNT' ? Number.isSafeInteger(v) : typeof v === 'string'
}

/**
 * Read a cursor for `list`.
 *
 * @throws ZonalError INVALID_INPUT "Invalid input: cursor" when it is malformed or was made for
 *   another sort, reverse or `q`.
 */
export function decodeCursor (text: string, list: CursorList): ListCursor {
  const bad = (): ZonalError => new ZonalError('INVALID_INPUT', 'cursor')
  if (text.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+={0,2}$/.test(text)) throw bad()
  let json: Partial<CursorJson>
  try {
    json = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    throw bad()
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw bad()
  if (typeof json.d !== 'string' || !DIRECTIONS.includes(json.d)) throw bad()
  if (json.s !== list.sort || json.r !== list.reverse || json.q !== filterHash(list.filter)) throw bad()
  if (json.d === 'FIRST' || json.d === 'LAST') return { direction: json.d }
  if (!validValue(list.sort, json.v) || typeof json.n !== 'string' || json.n === '') throw bad()
  return { direction: json.d, at: { value: json.v, name: json.n } }
}
