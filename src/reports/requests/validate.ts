import { ZonalError } from '../../errors/catalog.ts'
import { normalizeZoneName } from '../../zone/name.ts'
import type { ReportAccount, ReportInput } from './definition.ts'

/**
 * The rules report requests share, with the spec's verbatim messages (spec "Errors"): account,
 * dates, order, history, span, zone name, sort fields. Dates are UTC days 'YYYY-MM-DD'.
 */

const DAY_MS = 86_400_000

/** The UTC day of a time, 'YYYY-MM-DD'. */
export function dayOf (time: Date | number): string {
  return new Date(time).toISOString().slice(0, 10)
}

/** The day `n` days after `day` (before, when negative). */
export function addDays (day: string, n: number): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS)
}

/** Days from `from` to `to` (0 when equal; negative when `to` is earlier). */
export function daysBetween (from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

/** The first and last day of the calendar month `months` months from the month of `day`. */
export function monthOf (day: string, months = 0): { first: string, last: string } {
  const d = new Date(`${day}T00:00:00Z`)
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1))
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months + 1, 0))
  return { first: dayOf(first), last: dayOf(last) }
}

/** The same day `months` months later (earlier when negative), clipped to the month's end. */
export function addMonths (day: string, months: number): string {
  const d = new Date(`${day}T00:00:00Z`)
  const { last } = monthOf(day, months)
  const lastDay = Number(last.slice(8))
  return `${last.slice(0, 8)}${String(Math.min(d.getUTCDate(), lastDay)).padStart(2, '0')}`
}

/** The body's object under `key` (`{zoneQueryVolume: {...}}`); {} when absent; 400 when not an object. */
export function section (body: unknown, key: string): Record<string, unknown> {
  if (body === undefined || body === null) return {}
  if (typeof body !== 'object' || Array.isArray(body)) throw new ZonalError('REPORT_BODY_INVALID', 'the body must be a JSON object')
  const value = (body as Record<string, unknown>)[key]
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw new ZonalError('REPORT_BODY_INVALID', `${key} must be an object`)
  return value as Record<string, unknown>
}

/** An optional string field; 400 when present and not a string. */
export function optionalText (obj: Record<string, unknown>, field: string): string | undefined {
  const v = obj[field]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw new ZonalError('REPORT_BODY_INVALID', `${field} must be a string`)
  const t = v.trim()
  return t === '' ? undefined : t
}

/** An optional boolean field (true, false, or the strings 'true'/'false'). */
export function optionalBoolean (obj: Record<string, unknown>, field: string): boolean | undefined {
  const v = obj[field]
  if (v === undefined || v === null) return undefined
  if (v === true || v === 'true') return true
  if (v === false || v === 'false') return false
  throw new ZonalError('REPORT_BODY_INVALID', `${field} must be true or false`)
}

/** The account named in a request, which the caller must be able to read. */
export function reportAccount (input: ReportInput, accountName: string | undefined): ReportAccount {
  if (accountName === undefined) throw new ZonalError('REPORT_ACCOUNT_REQUIRED')
  const m = input.principal.membership(accountName)
  // An account the caller is not in reads like one that does not exist (no enumeration).
  if (m === undefined || !input.principal.can(m.accountId, 'read')) throw new ZonalError('REPORT_ACCOUNT_DENIED')
  return { id: m.accountId, name: m.accountName }
}

/** The account named, or when none is, every account the caller may read. */
export function reportAccounts (input: ReportInput, accountName: string | undefined): ReportAccount[] {
  if (accountName !== undefined) return [reportAccount(input, accountName)]
  return input.principal.memberships.filter(m => input.principal.can(m.accountId, 'read')).map(m => ({ id: m.accountId, name: m.accountName }))
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** 'yyyy-MM-dd', a real day; 400 "Date provided is not in a valid format." otherwise. */
export function parseReportDate (text: string): string {
  const m = DAY.exec(text)
  if (m === null) throw new ZonalError('REPORT_DATE_INVALID')
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  if (dayOf(t) !== text) throw new ZonalError('REPORT_DATE_INVALID')
  return text
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(Z|[+-]\d{2}:?\d{2})$/

/**
 * `yyyy-MM-dd'T'HH:mm:ss.SSSZ` (ISO 8601; the zone as `Z`, `+0000` or `+00:00`; milliseconds
 * optional), as milliseconds since the epoch; 400 "Date provided is not in a valid format." otherwise.
 */
export function parseReportDateTime (text: string): number {
  const m = DATE_TIME.exec(text)
  if (m === null) throw new ZonalError('REPORT_DATE_INVALID')
  parseReportDate(m[1]!)
  const [h, min, s] = [Number(m[2]), Number(m[3]), Number(m[4])]
  if (h > 23 || min > 59 || s > 59) throw new ZonalError('REPORT_DATE_INVALID')
  const zone = m[6] === 'Z' ? 'Z' : `${m[6]!.slice(0, 3)}:${m[6]!.slice(-2)}`
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${(m[5] ?? '0').padEnd(3, '0')}${zone}`)
  if (Number.isNaN(t)) throw new ZonalError('REPORT_DATE_INVALID')
  return t
}

/** An optional date field ('yyyy-MM-dd'). */
export function optionalDate (obj: Record<string, unknown>, field: string): string | undefined {
  const t = optionalText(obj, field)
  return t === undefined ? undefined : parseReportDate(t)
}

/** 400 "start or end date is a future date" when either day is after today. */
export function checkNotFuture (start: string, end: string, now: Date): void {
  const today = dayOf(now)
  if (start > today || end > today) throw new ZonalError('REPORT_DATE_FUTURE')
}

/** 400 "start date is older than 90 days" when `start` is more than `days` days before today. */
export function checkHistoryDays (start: string, now: Date, days: number): void {
  if (daysBetween(start, dayOf(now)) > days) throw new ZonalError('REPORT_HISTORY', `${days} days`)
}

/** 400 when `start` is before the same day `months` months ago. */
export function checkHistoryMonths (start: string, now: Date, months: number): void {
  if (start < addMonths(dayOf(now), -months)) throw new ZonalError('REPORT_HISTORY', `${months} months`)
}

/** At most `days` days from start to end, both counted ("a span of 90 days": 90 days in all). */
export function checkSpanDays (startField: string, endField: string, start: string, end: string, days: number): void {
  if (daysBetween(start, end) + 1 > days) throw new ZonalError('REPORT_SPAN', startField, endField, `${days} days`)
}

/** At most `months` calendar months from start to end (end before the same day `months` later). */
export function checkSpanMonths (startField: string, endField: string, start: string, end: string, months: number): void {
  if (end >= addMonths(start, months)) throw new ZonalError('REPORT_SPAN', startField, endField, `${months} months`)
}

/**
 * reportStartDate and reportEndDate of the directional reports: `yyyy-MM-dd`, yesterday when
 * absent, in order, not in the future, at most 90 days back and 90 days long.
 */
export function directionalReportDays (s: Record<string, unknown>, now: Date): { from: string, to: string } {
  const yesterday = addDays(dayOf(now), -1)
  const from = optionalDate(s, 'reportStartDate') ?? yesterday
  const to = optionalDate(s, 'reportEndDate') ?? yesterday
  if (to < from) throw new ZonalError('REPORT_DATE_ORDER')
  checkNotFuture(from, to, now)
  checkHistoryDays(from, now, 90)
  checkSpanDays('reportStartDate', 'reportEndDate', from, to, 90)
  return { from, to }
}

/**
 * A zone name filter: trailing dot optional, no wildcards, a valid name, a zone of the accounts
 * (another account's zone, or none, answers "Zone does not exist in the system.").
 */
export async function zoneOfAccounts (input: ReportInput, text: string, accounts: ReportAccount[]): Promise<string> {
  if (text.includes('*')) throw new ZonalError('REPORT_ZONE_WILDCARD', text)
  let name: string
  try {
    name = normalizeZoneName(text)
  } catch {
    throw new ZonalError('ZONE_NAME_INVALID')
  }
  const zone = await input.store.zones.findByName(name, { accountIds: accounts.map(a => a.id) })
  if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
  return zone.name
}

/**
 * `sortFields`: an object of column → ASC or DESC (any case), each column one of `allowed`
 * (API spelling → store key), in the order given; empty when absent.
 */
export function sortFieldsOf<K extends string> (body: unknown, allowed: Readonly<Record<string, K>>): Array<[K, 'ASC' | 'DESC']> {
  const raw = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).sortFields : undefined
  if (raw === undefined || raw === null) return []
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ZonalError('REPORT_SORT_INVALID', 'sortFields must be an object of column: ASC or DESC')
  const out: Array<[K, 'ASC' | 'DESC']> = []
  for (const [column, dir] of Object.entries(raw as Record<string, unknown>)) {
    const key = allowed[column]
    if (key === undefined) throw new ZonalError('REPORT_SORT_INVALID', `${column}; sortable columns: ${Object.keys(allowed).join(', ')}`)
    const d = typeof dir === 'string' ? dir.toUpperCase() : ''
    if (d !== 'ASC' && d !== 'DESC') throw new ZonalError('REPORT_SORT_INVALID', `${column} must be ASC or DESC`)
    out.push([key, d])
  }
  return out
}
