import { ZonalError } from '../../../errors/catalog.ts'
import type { ZoneFilter, ZoneSort } from '../../../store/store.ts'

/**
 * The request language of `GET /zones` (reference notes §3 and §7): the `q` terms, `sort`,
 * `reverse`, `limit` and `offset`, parsed into a store filter with one clear 400 per mistake.
 */

/** Which list a request reads: the cursor list (unversioned, /v3) or the old offset list (/v1, /v2). */
export type ZoneListFlavour = 'cursor' | 'offset'

/** One `key:value` term of `q`; `key` as written, `value` trimmed and decoded. */
export interface QTerm {
  key: string
  value: string
}

const KEYS = ['name', 'zone_type', 'zone_status', 'account_name', 'network', 'dnssec_status'] as const
type QKey = typeof KEYS[number]

/** Keys whose values are free text: inside them only a known key starts the next term. */
const FREE_TEXT = new Set<string>(['account_name'])

/** A candidate term start: `identifier:` at the start or after whitespace. */
const TERM_START = /(^|\s)([A-Za-z_][A-Za-z0-9_]*):/g

/** A value still percent-encoded after the query string was decoded (encoded twice by a client). */
const STILL_ENCODED = /%[0-9A-Fa-f]{2}/

function decodeValue (raw: string): string {
  const value = raw.trim()
  if (!STILL_ENCODED.test(value)) return value
  try {
    return decodeURIComponent(value.replace(/\+/g, ' ')).trim()
  } catch {
    return value
  }
}

/**
 * Split `q` into `key:value` terms. Terms are separated by whitespace; a value runs until the next
 * whitespace-preceded `key:`, so `account_name:Example Org zone_type:PRIMARY` is two terms. Inside
 * an `account_name` value only a known key ends the value (an account name may hold `a:b`); after
 * other keys any `word:` starts a term, so an unknown key is reported rather than swallowed. A value
 * still percent-encoded (a client that encoded it twice) is decoded once more, `+` as a space.
 *
 * @throws ZonalError INVALID_INPUT when `q` does not start with a `key:` term.
 */
export function splitZoneQ (q: string): QTerm[] {
  return splitQ(q, KEYS, FREE_TEXT)
}

/**
 * {@link splitZoneQ} for any list: `keys` are the list's keys (lower case); inside the value of a
 * `freeText` key only one of `keys` starts the next term.
 *
 * @throws ZonalError INVALID_INPUT when `q` does not start with a `key:` term.
 */
export function splitQ (q: string, keys: readonly string[], freeText: ReadonlySet<string>): QTerm[] {
  const text = q.trim()
  if (text === '') return []
  const terms: QTerm[] = []
  let current: { key: string, valueStart: number } | undefined
  for (const m of text.matchAll(TERM_START)) {
    const keyStart = m.index + m[1]!.length
    const key = m[2]!
    if (current === undefined) {
      if (keyStart !== 0) break
    } else {
      if (freeText.has(current.key.toLowerCase()) && !keys.includes(key.toLowerCase())) continue
      terms.push({ key: current.key, value: decodeValue(text.slice(current.valueStart, m.index)) })
    }
    current = { key, valueStart: keyStart + key.length + 1 }
  }
  if (current === undefined) throw new ZonalError('INVALID_INPUT', 'q must be space-separated key:value terms')
  terms.push({ key: current.key, value: decodeValue(text.slice(current.valueStart)) })
  return terms
}

function oneOf<const T extends string> (key: string, value: string, allowed: readonly T[]): T {
  const upper = value.toUpperCase()
  const found = allowed.find(a => a.toUpperCase() === upper)
  if (found === undefined) throw new ZonalError('INVALID_INPUT', `q.${key} must be one of ${allowed.join(', ')}`)
  return found
}

/**
 * The store filter of `q`. Keys and enumerated values are taken in any case; an empty value means
 * the key was not given. Without `zone_status` only ACTIVE zones are listed, as the real API does
 * (notes §7); `zone_status:ALL` lists every zone. `dnssec_status` belongs to the offset list only.
 *
 * @throws ZonalError INVALID_INPUT `q.<key>` for an unknown key, a message naming the key for a
 *   bad value or a key given twice.
 */
export function zoneFilterOf (q: string, flavour: ZoneListFlavour): ZoneFilter {
  const filter: ZoneFilter = { status: 'ACTIVE' }
  const seen = new Set<QKey>()
  for (const term of splitZoneQ(q)) {
    const key = term.key.toLowerCase() as QKey
    if (!KEYS.includes(key) || (key === 'dnssec_status' && flavour !== 'offset')) throw new ZonalError('INVALID_INPUT', `q.${term.key}`)
    if (seen.has(key)) throw new ZonalError('INVALID_INPUT', `q.${key} is given more than once`)
    seen.add(key)
    const value = term.value
    if (value === '') continue
    switch (key) {
      case 'name':
        // Zone names are stored in lower case.
        filter.name = value.toLowerCase()
        break
      case 'zone_type':
        filter.type = oneOf(key, value, ['PRIMARY', 'SECONDARY', 'ALIAS'])
        break
      case 'zone_status': {
        const status = oneOf(key, value, ['ACTIVE', 'SUSPENDED', 'ALL'])
        if (status === 'ALL') delete filter.status
        else filter.status = status
        break
      }
      case 'account_name':
        filter.accountNameKey = value.toLowerCase()
        break
      case 'network':
        filter.network2 = oneOf(key, value, ['ultra1', 'ultra2']) === 'ultra2'
        break
      case 'dnssec_status':
        filter.dnssecStatus = oneOf(key, value, ['SIGNED', 'UNSIGNED'])
        break
    }
  }
  return filter
}

const SORTS: readonly ZoneSort[] = ['NAME', 'ACCOUNT_NAME', 'RECORD_COUNT', 'ZONE_TYPE']

/**
 * `sort` in any case; empty or absent is NAME.
 *
 * @throws ZonalError ZONE_LIST_SORT_INVALID for any other value.
 */
export function parseSort (sort: string | undefined): ZoneSort {
  const text = (sort ?? '').trim()
  if (text === '') return 'NAME'
  const found = SORTS.find(s => s === text.toUpperCase())
  if (found === undefined) throw new ZonalError('ZONE_LIST_SORT_INVALID', text)
  return found
}

/**
 * `reverse` as `true`/`false` in any case (Python sends `True`); empty or absent is false.
 *
 * @throws ZonalError INVALID_INPUT for any other value.
 */
export function parseReverse (reverse: string | undefined): boolean {
  const text = (reverse ?? '').trim().toLowerCase()
  if (text === '' || text === 'false') return false
  if (text === 'true') return true
  throw new ZonalError('INVALID_INPUT', 'reverse must be true or false')
}

/** The page size limits of the zone list (spec "Limits"). */
export const LIMIT_DEFAULT = 100
export const LIMIT_MAX = 1000

/**
 * `limit` from 1 to 1000; empty or absent is 100.
 *
 * @throws ZonalError INVALID_INPUT naming `limit` for anything else.
 */
export function parseLimit (limit: string | undefined): number {
  const text = (limit ?? '').trim()
  if (text === '') return LIMIT_DEFAULT
  const n = /^\d{1,9}$/.test(text) ? Number(text) : NaN
  if (!(n >= 1 && n <= LIMIT_MAX)) throw new ZonalError('INVALID_INPUT', `limit must be an integer from 1 to ${LIMIT_MAX}`)
  return n
}

/**
 * `offset` of the offset list: 0 or more; empty or absent is 0.
 *
 * @throws ZonalError INVALID_INPUT naming `offset` for anything else.
 */
export function parseOffset (offset: string | undefined): number {
  const text = (offset ?? '').trim()
  if (text === '') return 0
  if (!/^\d{1,15}$/.test(text)) throw new ZonalError('INVALID_INPUT', 'offset must be an integer of 0 or more')
  return Number(text)
}
