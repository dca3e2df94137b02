import { ZonalError } from '../../../errors/catalog.ts'
import type { StoredWebForward } from '../../../store/store.ts'
import { forwardModeOf, forwardTypeName } from './webforward-dto.ts'
import { parseLimit, parseOffset, parseReverse, splitQ } from './list-query.ts'

/**
 * The web forward list's request language (the real API's page): `q` terms `type:` (a forward
 * type), `advanced:` (true or false: has records) and `name:` (a substring of the host or a
 * target, any case); `sort` REQUEST_TO (default), REDIRECT_TO, TYPE, DOMAIN (the host) or
 * ADVANCED; `reverse`, `offset`, `limit`. A zone holds at most 1,000 forwards, so the list is
 * filtered and sorted in memory.
 */

export const WEB_FORWARD_SORTS = ['REQUEST_TO', 'REDIRECT_TO', 'TYPE', 'DOMAIN', 'ADVANCED'] as const
type Sort = typeof WEB_FORWARD_SORTS[number]
const KEYS = ['type', 'advanced', 'name'] as const

export interface WebForwardQuery {
  q: string
  sort: Sort
  reverse: boolean
  offset: number
  limit: number
  matches: (f: StoredWebForward) => boolean
}

/**
 * The query of `GET /zones/{zoneName}/webforwards`.
 *
 * @throws ZonalError INVALID_INPUT (53005: `q.<key>` unknown or given twice, a bad type or
 *   advanced value, reverse, offset, limit), WEB_FORWARD_SORT_INVALID (70004)
 */
export function webForwardQueryOf (qs: { q?: string, sort?: string, reverse?: string, offset?: string, limit?: string }): WebForwardQuery {
  const q = (qs.q ?? '').trim()
  const tests: Array<(f: StoredWebForward) => boolean> = []
  const seen = new Set<string>()
  for (const term of splitQ(q, KEYS, new Set(['name']))) {
    const key = term.key.toLowerCase()
    if (!(KEYS as readonly string[]).includes(key)) throw new ZonalError('INVALID_INPUT', `q.${term.key}`)
    if (seen.has(key)) throw new ZonalError('INVALID_INPUT', `q.${key} is given more than once`)
    seen.add(key)
    const value = term.value.trim()
    if (value === '') continue
    if (key === 'type') {
      const mode = forwardModeOf(value)
      if (mode === undefined) throw new ZonalError('INVALID_INPUT', 'q.type must be Framed, HTTP_301_REDIRECT, HTTP_302_REDIRECT, HTTP_303_REDIRECT or HTTP_307_REDIRECT')
      tests.push(f => f.mode === mode)
    } else if (key === 'advanced') {
      const v = value.toLowerCase()
      if (v !== 'true' && v !== 'false') throw new ZonalError('INVALID_INPUT', 'q.advanced must be true or false')
      tests.push(f => (f.alternatives.length > 0) === (v === 'true'))
    } else {
      const needle = value.toLowerCase()
      tests.push(f => [f.requestTo, f.host, f.redirectTo, ...f.alternatives.map(a => a.redirectTo)].some(s => s.toLowerCase().includes(needle)))
    }
  }
  const sortText = (qs.sort ?? '').trim().toUpperCase()
  const sort = sortText === '' ? 'REQUEST_TO' : WEB_FORWARD_SORTS.find(s => s === sortText)
  if (sort === undefined) throw new ZonalError('WEB_FORWARD_SORT_INVALID', qs.sort ?? '')
  return { q, sort, reverse: parseReverse(qs.reverse), offset: parseOffset(qs.offset), limit: parseLimit(qs.limit), matches: f => tests.every(t => t(f)) }
}

const by = (a: string, b: string): number => a < b ? -1 : a > b ? 1 : 0

function sortKey (f: StoredWebForward, sort: Sort): string {
  switch (sort) {
    case 'REQUEST_TO': return f.requestKey
    case 'REDIRECT_TO': return f.redirectTo.toLowerCase()
    case 'TYPE': return forwardTypeName(f.mode)
    case 'DOMAIN': return f.host
    case 'ADVANCED': return f.alternatives.length > 0 ? '1' : '0'
  }
}

/** One page of `forwards` for `query`: the matching forwards in order, ties by request key and guid; and how many match. */
export function webForwardPage (forwards: readonly StoredWebForward[], query: WebForwardQuery): { page: StoredWebForward[], total: number } {
  const matching = forwards.filter(query.matches)
  matching.sort((a, b) => {
    const c = by(sortKey(a, query.sort), sortKey(b, query.sort)) || by(a.requestKey, b.requestKey) || by(a.id, b.id)
    return query.reverse ? -c : c
  })
  return { page: matching.slice(query.offset, query.offset + query.limit), total: matching.length }
}
