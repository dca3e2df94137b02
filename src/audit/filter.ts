import { ZonalError } from '../errors/catalog.ts'

/**
 * A parsed audit filter (`GET /reports/dns_configuration/audit?filter=…`): a time window and,
 * per key, the values any of which a record must match (empty: no condition on that key).
 */
export interface AuditFilter {
  /** Inclusive start and exclusive end of the window, UTC (1 ms after now for relative windows). */
  from: Date
  to: Date
  users: string[]
  objectNames: string[]
  objectTypes: string[]
  changeTypes: string[]
  parentNames: string[]
  accounts: string[]
  changeComments: string[]
}

type ListKey = Exclude<keyof AuditFilter, 'from' | 'to'>

/** The filter keys, with the spellings the real API and its clients use. */
const KEYS: Record<string, ListKey | 'dateRange'> = {
  date_range: 'dateRange',
  users: 'users',
  user: 'users',
  object_name: 'objectNames',
  object_type: 'objectTypes',
  change_type: 'changeTypes',
  parent_name: 'parentNames',
  account: 'accounts',
  accounts: 'accounts',
  change_comment: 'changeComments'
}

/** The exclusive end of a window that includes `now` (a record written this millisecond is in it). */
const justAfter = (now: Date): Date => new Date(now.getTime() + 1)

/** Without a date_range: the last 24 hours. */
const DEFAULT_WINDOW_MS = 24 * 3600 * 1000

/** `yyyyMMddHHmmss` in GMT, or undefined when it is not a real time. */
function gmt (text: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text)
  if (m === null) return undefined
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number]
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s))
  // Reject 20261332… (Date would roll it over into the next year).
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d || t.getUTCHours() !== h || t.getUTCMinutes() !== mi || t.getUTCSeconds() !== s) return undefined
  return t
}

/** Relative windows the real API takes: 15m, 5h, 30d, 5w, 1month (minutes, hours, days, weeks, months). */
function relative (text: string, now: Date): Date | undefined {
  const m = /^(\d{1,6})(m|h|d|w|month|months)$/.exec(text)
  if (m === null) return undefined
  const n = Number(m[1])
  if (n === 0) return undefined
  const unit = m[2]!
  if (unit === 'month' || unit === 'months') {
    const t = new Date(now)
    t.setUTCMonth(t.getUTCMonth() - n)
    return t
  }
  const ms = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[unit as 'm' | 'h' | 'd' | 'w']
  return new Date(now.getTime() - n * ms)
}

/** The window of a `date_range` value. */
function dateRange (value: string, now: Date): { from: Date, to: Date } {
  const back = relative(value, now)
  if (back !== undefined) return { from: back, to: justAfter(now) }
  const m = /^(\d{14})-(\d{14})$/.exec(value)
  const from = m === null ? undefined : gmt(m[1]!)
  const to = m === null ? undefined : gmt(m[2]!)
  if (from === undefined || to === undefined) throw new ZonalError('AUDIT_DATE_RANGE_INVALID', value)
  if (from.getTime() > to.getTime()) throw new ZonalError('AUDIT_DATE_RANGE_ORDER', value)
  // The end second is included.
  return { from, to: new Date(to.getTime() + 1000) }
}

/**
 * Parse the audit log's `filter`: `key:value` pairs joined by `::` (a value may hold `:`; a key
 * given several times, or a value listing several with `,`, matches any of them). Keys:
 * date_range (`yyyyMMddHHmmss-yyyyMMddHHmmss` GMT, or 15m, 5h, 30d, 5w, 1month back from now),
 * users (user), object_name, object_type, change_type, parent_name, account (accounts),
 * change_comment. Without date_range the window is the last 24 hours.
 *
 * @throws ZonalError AUDIT_FILTER_INVALID (not key:value pairs), AUDIT_FILTER_KEY_UNKNOWN,
 *   AUDIT_DATE_RANGE_INVALID, AUDIT_DATE_RANGE_ORDER (start later than end)
 */
export function parseAuditFilter (text: string | undefined, now: Date): AuditFilter {
  const filter: AuditFilter = {
    from: new Date(now.getTime() - DEFAULT_WINDOW_MS),
    to: justAfter(now),
    users: [],
    objectNames: [],
    objectTypes: [],
    changeTypes: [],
    parentNames: [],
    accounts: [],
    changeComments: []
  }
  if (text === undefined || text.trim() === '') return filter
  let ranged = false
  for (const pair of text.split('::')) {
    const at = pair.indexOf(':')
    if (at <= 0 || at === pair.length - 1) throw new ZonalError('AUDIT_FILTER_INVALID', pair)
    const key = pair.slice(0, at).trim().toLowerCase()
    const value = pair.slice(at + 1).trim()
    const field = KEYS[key]
    if (field === undefined) throw new ZonalError('AUDIT_FILTER_KEY_UNKNOWN', key, Object.keys(KEYS).join(', '))
    if (value === '') throw new ZonalError('AUDIT_FILTER_INVALID', pair)
    if (field === 'dateRange') {
      if (ranged) throw new ZonalError('AUDIT_FILTER_INVALID', pair)
      ranged = true
      Object.assign(filter, dateRange(value, now))
      continue
    }
    // Change comments are free text: a comma there is part of the comment.
    const values = field === 'changeComments' ? [value] : value.split(',').map(v => v.trim()).filter(v => v !== '')
    filter[field].push(...values)
  }
  return filter
}
