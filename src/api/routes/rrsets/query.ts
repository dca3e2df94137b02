import { ZonalError } from '../../../errors/catalog.ts'
import type { RrsetKinds, RrsetSort } from '../../../store/store.ts'
import type { RrsetQuery } from '../../../zones/rrsets.ts'
import { parseLimit, parseOffset, parseReverse, splitQ } from '../zones/list-query.ts'

/**
 * The request language of the rrset lists (reference notes §7 "RRSets"): `q` terms `ttl:`,
 * `owner:`, `value:` and `kind:`, `sort`, `reverse`, `offset` and `limit`.
 */

const KEYS = ['ttl', 'owner', 'value', 'kind'] as const
type QKey = typeof KEYS[number]

/** A `value:` may hold spaces and `word:` (`v=spf1 include:_spf.example.net`): only a known key ends it. */
const FREE_TEXT = new Set<string>(['value'])

/** Kinds of `q=kind:` besides ALL, RECORDS and POOLS: the pool kinds. */
export const POOL_KINDS = ['RD_POOLS', 'SB_POOLS', 'TC_POOLS', 'SF_POOLS', 'SLB_POOLS', 'DIR_POOLS'] as const
const KINDS = ['ALL', 'RECORDS', 'POOLS', ...POOL_KINDS] as const

/**
 * `kind:` as a comma-separated list of ALL, RECORDS, POOLS and pool kinds, any case; undefined
 * when ALL is among them.
 *
 * @throws ZonalError INVALID_INPUT naming q.kind for an unknown kind.
 */
export function kindsOf (value: string): RrsetKinds | undefined {
  const kinds: RrsetKinds = { records: false, pools: [] }
  for (const item of value.split(',').map(k => k.trim().toUpperCase()).filter(k => k !== '')) {
    if (!(KINDS as readonly string[]).includes(item)) throw new ZonalError('INVALID_INPUT', `q.kind must be a comma-separated list of ${KINDS.join(', ')}`)
    if (item === 'ALL') return undefined
    if (item === 'RECORDS') kinds.records = true
    else if (item === 'POOLS') kinds.pools = true
    else if (kinds.pools !== true) kinds.pools = [...(kinds.pools as string[]), item]
  }
  return kinds
}

/**
 * The `q` terms of an rrset list: `ttl` (a whole number, exact), `owner` and `value` (substrings,
 * any case), `kind`. Keys in any case; an empty value means the key was not given.
 *
 * @throws ZonalError INVALID_INPUT `q.<key>` for an unknown key (53005, as the real API answers
 *   `Invalid input: q.test`), a message naming the key for a bad value or a key given twice.
 */
export function rrsetFilterOf (q: string): Pick<RrsetQuery, 'ttl' | 'owner' | 'value' | 'kinds'> {
  const out: Pick<RrsetQuery, 'ttl' | 'owner' | 'value' | 'kinds'> = {}
  const seen = new Set<QKey>()
  for (const term of splitQ(q, KEYS, FREE_TEXT)) {
    const key = term.key.toLowerCase() as QKey
    if (!KEYS.includes(key)) throw new ZonalError('INVALID_INPUT', `q.${term.key}`)
    if (seen.has(key)) throw new ZonalError('INVALID_INPUT', `q.${key} is given more than once`)
    seen.add(key)
    const value = term.value
    if (value === '') continue
    if (key === 'ttl') {
      if (!/^\d{1,10}$/.test(value)) throw new ZonalError('INVALID_INPUT', 'q.ttl must be a whole number')
      out.ttl = Number(value)
    } else if (key === 'kind') {
      const kinds = kindsOf(value)
      if (kinds !== undefined) out.kinds = kinds
    } else {
      out[key] = value
    }
  }
  return out
}

const SORTS: readonly RrsetSort[] = ['OWNER', 'TTL', 'TYPE', 'VALUE']

/**
 * `sort` in any case; empty or absent is OWNER.
 *
 * @throws ZonalError RRSET_SORT_INVALID (70004) for any other value.
 */
export function parseRrsetSort (sort: string | undefined): RrsetSort {
  const text = (sort ?? '').trim()
  if (text === '') return 'OWNER'
  const found = SORTS.find(s => s === text.toUpperCase())
  if (found === undefined) throw new ZonalError('RRSET_SORT_INVALID', text)
  return found
}

/** The query string of the rrset lists, every value a string (checked here, not by the schema). */
export interface RrsetQuerystring {
  q?: string
  sort?: string
  reverse?: string
  offset?: string
  limit?: string
}

/**
 * The whole query of an rrset list: limit 1–1000 (default 100), offset ≥ 0, reverse `true`/`false`
 * in any case.
 *
 * @throws ZonalError INVALID_INPUT, RRSET_SORT_INVALID
 */
export function rrsetQueryOf (qs: RrsetQuerystring): RrsetQuery {
  return {
    ...rrsetFilterOf(qs.q ?? ''),
    sort: parseRrsetSort(qs.sort),
    reverse: parseReverse(qs.reverse),
    offset: parseOffset(qs.offset),
    limit: parseLimit(qs.limit)
  }
}
