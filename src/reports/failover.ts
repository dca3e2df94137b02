import type { Principal } from '../auth/principal.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { FailoverEvent, FailoverEventQuery, FailoverPosition, Store } from '../store/store.ts'
import { zoneNameFrom } from '../zones/context.ts'
import { parseReportDateTime } from './requests/validate.ts'

/**
 * The failover report (spec "Failover report", the real API's "Failover Report" page): the state
 * changes of the probed pool records of one account, as the traffic service recorded them
 * (`traffic/service.ts`), oldest first, a page of `limit` at a time with Link cursors.
 */

export const FAILOVER_MAX_LIMIT = 1000
const DAY_MS = 86_400_000
export const FAILOVER_MAX_SPAN_DAYS = 30
export const FAILOVER_HISTORY_MONTHS = 3

export const RECORD_TYPES = ['A', 'AAAA', 'CNAME'] as const
/** The pool types of the report (the spec's FAILOVER_POOL is the simple failover pool). */
export const POOL_TYPES = ['SITE_BACKER', 'TRAFFIC_CONTROLLER', 'FAILOVER_POOL', 'SIMPLE_LOAD_BALANCING'] as const
/** Other spellings of a pool type accepted as a filter (the real API's page). */
const POOL_TYPE_ALIASES: Readonly<Record<string, string>> = { SIMPLE_FAILOVER: 'FAILOVER_POOL' }

export interface FailoverQueryInput {
  accountName?: string | undefined
  zoneName?: string | undefined
  poolName?: string | undefined
  poolRecord?: string | undefined
  poolRecordType?: string | undefined
  trafficServicePoolType?: string | undefined
  reportStartDateTime?: string | undefined
  reportEndDateTime?: string | undefined
  limit?: string | undefined
  cursor?: string | undefined
  cursorOperation?: string | undefined
}

export interface FailoverPage {
  events: FailoverEvent[]
  /** The query's parameters as the Link URLs repeat them (dates resolved, so pages stay the same window). */
  params: Record<string, string>
  limit: number
  next?: string
  previous?: string
}

export function text (v: string | undefined): string | undefined {
  const t = v?.trim()
  return t === undefined || t === '' ? undefined : t
}

function encodeCursor (p: FailoverPosition): string {
  return Buffer.from(JSON.stringify([p.at, p.id])).toString('base64url')
}

function decodeCursor (value: string): FailoverPosition {
  const bad = (): ZonalError => new ZonalError('INVALID_INPUT', `cursor '${value.slice(0, 64)}' is not a cursor of this report (take it from the Link header)`)
  let v: unknown
  try {
    v = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'))
  } catch {
    throw bad()
  }
  if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || typeof v[1] !== 'string' || v[0].length > 40 || v[1].length > 64) throw bad()
  return { at: v[0], id: v[1] }
}

/** The first instant still within `months` months before `now` (same day of month, or that month's last). */
function monthsBefore (now: number, months: number): number {
  const d = new Date(now)
  const y = d.getUTCFullYear()
  const m = d.getUTCMonth() - months
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  return Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds())
}

export function choice (value: string | undefined, allowed: readonly string[], name: string, aliases: Readonly<Record<string, string>> = {}): string | undefined {
  const t = text(value)?.toUpperCase()
  if (t === undefined || t === 'ALL') return undefined
  const v = aliases[t] ?? t
  if (!allowed.includes(v)) throw new ZonalError('INVALID_INPUT', `${name} '${value!.slice(0, 32)}' must be one of ${[...allowed, 'ALL'].join(', ')}`)
  return v
}

export function limitFrom (value: string | undefined): number {
  const t = text(value)
  if (t === undefined) return FAILOVER_MAX_LIMIT
  if (!/^\d{1,7}$/.test(t) || Number(t) < 1 || Number(t) > FAILOVER_MAX_LIMIT) throw new ZonalError('REPORT_LIMIT_INVALID', t.slice(0, 16), FAILOVER_MAX_LIMIT)
  return Number(t)
}

/** The account a traffic report names, which the caller must read. @throws ZonalError REPORT_ACCOUNT_REQUIRED, REPORT_ACCOUNT_DENIED */
export function readableAccount (principal: Principal, accountName: string | undefined): { accountId: string, accountName: string } {
  const name = text(accountName)
  if (name === undefined) throw new ZonalError('REPORT_ACCOUNT_REQUIRED')
  const m = principal.membership(name)
  if (m === undefined || !principal.can(m.accountId, 'read')) throw new ZonalError('REPORT_ACCOUNT_DENIED')
  return { accountId: m.accountId, accountName: m.accountName }
}

/**
 * The window of a traffic report (ms): by default the last 24 hours; one date given, the other
 * 24 hours from it (the end no later than now); the end not before the start, the span at most
 * `spanDays`, the start within 3 months.
 *
 * @throws ZonalError REPORT_DATE_INVALID, FAILOVER_DATE_ORDER, REPORT_SPAN, REPORT_HISTORY
 */
export function reportWindow (startInput: string | undefined, endInput: string | undefined, now: Date, spanDays: number): { start: number, end: number } {
  const startText = text(startInput)
  const endText = text(endInput)
  const nowMs = now.getTime()
  let start = startText === undefined ? undefined : parseReportDateTime(startText)
  let end = endText === undefined ? undefined : parseReportDateTime(endText)
  if (start === undefined && end === undefined) {
    end = nowMs
    start = nowMs - DAY_MS
  } else if (start === undefined) start = end! - DAY_MS
  else end ??= Math.max(start, Math.min(start + DAY_MS, nowMs))
  if (end! < start) throw new ZonalError('FAILOVER_DATE_ORDER')
  if (end! - start > spanDays * DAY_MS) throw new ZonalError('REPORT_SPAN', 'reportStartDateTime', 'reportEndDateTime', `${spanDays} days`)
  if (start < monthsBefore(nowMs, FAILOVER_HISTORY_MONTHS)) throw new ZonalError('REPORT_HISTORY', `${FAILOVER_HISTORY_MONTHS} months`)
  return { start, end: end! }
}

/**
 * `GET /reports/traffic_services/failover_report`.
 *
 * Rules: accountName required and readable by the caller; reportStartDateTime and
 * reportEndDateTime ISO 8601 UTC, by default the last 24 hours (one given: the other 24 hours
 * from it, the end no later than now); the end not before the start, the span at most 30 days,
 * the start not older than 3 months; poolRecordType A, AAAA, CNAME or ALL; trafficServicePoolType
 * SITE_BACKER, TRAFFIC_CONTROLLER, FAILOVER_POOL (also SIMPLE_FAILOVER), SIMPLE_LOAD_BALANCING or
 * ALL; limit 1–1000, default 1000. Every check is made before the store is read.
 *
 * @throws ZonalError REPORT_ACCOUNT_REQUIRED, REPORT_ACCOUNT_DENIED, REPORT_DATE_INVALID,
 *   FAILOVER_DATE_ORDER, REPORT_SPAN, REPORT_HISTORY, REPORT_LIMIT_INVALID, ZONE_NAME_INVALID,
 *   INVALID_INPUT (types, cursor, cursorOperation).
 */
export async function failoverReport (store: Store, principal: Principal, input: FailoverQueryInput, now: Date): Promise<FailoverPage> {
  const m = readableAccount(principal, input.accountName)
  const { start, end } = reportWindow(input.reportStartDateTime, input.reportEndDateTime, now, FAILOVER_MAX_SPAN_DAYS)
  const recordType = choice(input.poolRecordType, RECORD_TYPES, 'poolRecordType')
  const poolType = choice(input.trafficServicePoolType, POOL_TYPES, 'trafficServicePoolType', POOL_TYPE_ALIASES)
  const zoneText = text(input.zoneName)
  const zoneName = zoneText === undefined ? undefined : zoneNameFrom(zoneText)
  const poolText = text(input.poolName)
  const poolName = poolText === undefined ? undefined : zoneNameFrom(poolText)
  const poolRecord = text(input.poolRecord)?.toLowerCase()
  const limit = limitFrom(input.limit)
  const operation = (text(input.cursorOperation) ?? 'NEXT').toUpperCase()
  if (operation !== 'NEXT' && operation !== 'PREVIOUS') throw new ZonalError('INVALID_INPUT', `cursorOperation '${input.cursorOperation!.slice(0, 16)}' must be NEXT or PREVIOUS`)
  const cursorText = text(input.cursor)
  const cursor = cursorText === undefined ? undefined : decodeCursor(cursorText)
  if (poolRecord !== undefined && poolRecord.length > 255) throw new ZonalError('INVALID_INPUT', 'poolRecord is longer than 255 characters')

  const from = new Date(start).toISOString()
  const to = new Date(end).toISOString()
  const query: FailoverEventQuery = {
    accountId: m.accountId,
    from,
    to,
    limit: limit + 1,
    ...(zoneName === undefined ? {} : { zoneName }),
    ...(poolName === undefined ? {} : { poolName }),
    ...(poolRecord === undefined ? {} : { poolRecord }),
    ...(recordType === undefined ? {} : { recordType }),
    ...(poolType === undefined ? {} : { poolType })
  }
  let events: FailoverEvent[]
  let hasNext: boolean
  let hasPrevious: boolean
  if (cursor !== undefined && operation === 'PREVIOUS') {
    events = await store.traffic.events({ ...query, before: cursor })
    hasPrevious = events.length > limit
    if (hasPrevious) events = events.slice(1)
    hasNext = true
  } else {
    events = await store.traffic.events(cursor === undefined ? query : { ...query, after: cursor })
    hasNext = events.length > limit
    if (hasNext) events = events.slice(0, limit)
    hasPrevious = cursor !== undefined && events.length > 0 && (await store.traffic.events({ ...query, limit: 1, before: events[0]! })).length > 0
  }
  const params: Record<string, string> = { accountName: m.accountName }
  if (zoneText !== undefined) params.zoneName = zoneText
  if (poolText !== undefined) params.poolName = poolText
  if (poolRecord !== undefined) params.poolRecord = poolRecord
  if (recordType !== undefined) params.poolRecordType = recordType
  if (poolType !== undefined) params.trafficServicePoolType = poolType
  params.reportStartDateTime = from
  params.reportEndDateTime = to
  return {
    events,
    params,
    limit,
    ...(hasNext && events.length > 0 ? { next: encodeCursor(events.at(-1)!) } : {}),
    ...(hasPrevious && events.length > 0 ? { previous: encodeCursor(events[0]!) } : {})
  }
}
