import type { Principal } from '../auth/principal.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { Store, UsageCounts, UsageDay } from '../store/store.ts'

/** Months of the monthly report, the current one included (spec "Limits": 36 months). */
export const USAGE_MONTHS = 36
/** Months the daily report reaches back, the current one included (spec "Limits": daily 13 months). */
export const USAGE_DAILY_MONTHS = 13
/** Account names one daily report takes at most. */
export const USAGE_MAX_ACCOUNTS = 100

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** One month or day of usage: each count's peak over it, and the query responses served in it. */
export interface UsagePeriod {
  /** The month, "<Month name> <YYYY>" (spec "Usage summary record"). */
  month: string
  /** The day 'YYYY-MM-DD' (daily report). */
  date?: string
  peaks: UsageCounts
  queryResponses: number
}

/** The monthly report of one account, newest month first. */
export interface MonthlyUsage {
  accountName: string
  months: UsagePeriod[]
}

/** A month as (year, month 0–11). */
interface Month { year: number, month: number }

function monthLabel (m: Month): string {
  return `${MONTH_NAMES[m.month]!} ${m.year}`
}

function monthsBefore (m: Month, n: number): Month {
  const d = new Date(Date.UTC(m.year, m.month - n, 1))
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() }
}

function firstDay (m: Month): string {
  return new Date(Date.UTC(m.year, m.month, 1)).toISOString().slice(0, 10)
}

function lastDay (m: Month): string {
  return new Date(Date.UTC(m.year, m.month + 1, 0)).toISOString().slice(0, 10)
}

function monthOfDate (now: Date): Month {
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() }
}

function ordinal (m: Month): number {
  return m.year * 12 + m.month
}

/**
 * The accounts named, each one the caller may read; their ids. A name missing, empty or not
 * readable by the caller is the spec's one message for both.
 * @throws ZonalError USAGE_ACCOUNT
 */
function readableAccounts (principal: Principal, names: readonly string[]): Array<{ id: string, name: string }> {
  if (names.length === 0) throw new ZonalError('USAGE_ACCOUNT')
  return names.map(name => {
    const m = principal.membership(name)
    if (name.trim() === '' || m === undefined || !principal.can(m.accountId, 'read')) throw new ZonalError('USAGE_ACCOUNT')
    return { id: m.accountId, name: m.accountName }
  })
}

/** The peaks of the days (the highest of each count) and the sum of their query responses. */
function summed (days: readonly UsageDay[]): { peaks: UsageCounts, queryResponses: number } {
  const peaks: UsageCounts = { domains: 0, records: 0, failoverRecords: 0, tcRecords: 0, dirRecords: 0, urlForwards: 0, emailForwards: 0 }
  let queryResponses = 0
  for (const d of days) {
    for (const k of Object.keys(peaks) as Array<keyof UsageCounts>) peaks[k] = Math.max(peaks[k], d.peaks[k])
    queryResponses += d.queryResponses
  }
  return { peaks, queryResponses }
}

/**
 * The monthly usage summary (`GET /reports/dns/usage_summary`): one element per month of the
 * last 36, the current month (so far) first, for one account the caller may read.
 * @throws ZonalError USAGE_ACCOUNT
 */
export async function monthlyUsage (store: Store, principal: Principal, accountName: string | undefined, now: Date): Promise<MonthlyUsage> {
  const [account] = readableAccounts(principal, accountName === undefined ? [] : [accountName])
  const current = monthOfDate(now)
  const oldest = monthsBefore(current, USAGE_MONTHS - 1)
  const today = now.toISOString().slice(0, 10)
  const days = await store.usage.days([account!.id], firstDay(oldest), today)
  const months: UsagePeriod[] = []
  for (let i = 0; i < USAGE_MONTHS; i++) {
    const m = monthsBefore(current, i)
    const from = firstDay(m)
    const to = lastDay(m)
    months.push({ month: monthLabel(m), ...summed(days.filter(d => d.day >= from && d.day <= to)) })
  }
  return { accountName: account!.name, months }
}

/** A month name and year ("March 2023", any case) as a month; undefined when it is not one. */
export function parseMonth (text: string): Month | undefined {
  const match = /^\s*([A-Za-z]+)\s+(\d{4})\s*$/.exec(text)
  if (match === null) return undefined
  const month = MONTH_NAMES.findIndex(n => n.toLowerCase() === match[1]!.toLowerCase())
  return month === -1 ? undefined : { year: Number(match[2]), month }
}

/** What the daily report is asked for: the body's month and account names, and the query's account name. */
export interface DailyUsageInput {
  month: unknown
  accountNames: unknown
  accountName: string | undefined
}

/**
 * The daily usage summary (`GET /reports/dns/usage_summary/daily`): one element per day of a
 * month of the last 13 (the current one up to today), the usage of the accounts named (the
 * body's `accountNames` and the query's `accountName`) summed.
 * @throws ZonalError USAGE_ACCOUNT, USAGE_MONTH_INVALID, USAGE_MONTH_FUTURE, USAGE_MONTH_HISTORY, REPORT_BODY_INVALID
 */
export async function dailyUsage (store: Store, principal: Principal, input: DailyUsageInput, now: Date): Promise<UsagePeriod[]> {
  const names: string[] = []
  if (input.accountNames !== undefined && input.accountNames !== null) {
    if (!Array.isArray(input.accountNames) || input.accountNames.some(n => typeof n !== 'string')) {
      throw new ZonalError('REPORT_BODY_INVALID', 'accountNames must be a list of account names.')
    }
    if (input.accountNames.length > USAGE_MAX_ACCOUNTS) throw new ZonalError('REPORT_BODY_INVALID', `accountNames holds at most ${USAGE_MAX_ACCOUNTS} names.`)
    names.push(...input.accountNames as string[])
  }
  if (input.accountName !== undefined) names.push(input.accountName)
  const accounts = readableAccounts(principal, names)
  if (input.month === undefined || input.month === null || input.month === '') throw new ZonalError('REPORT_BODY_INVALID', 'month is required: a month name and year, such as March 2023.')
  const month = typeof input.month === 'string' ? parseMonth(input.month) : undefined
  if (month === undefined) throw new ZonalError('USAGE_MONTH_INVALID', String(input.month).slice(0, 40))
  const current = monthOfDate(now)
  if (ordinal(month) > ordinal(current)) throw new ZonalError('USAGE_MONTH_FUTURE', monthLabel(month))
  if (ordinal(month) < ordinal(current) - (USAGE_DAILY_MONTHS - 1)) throw new ZonalError('USAGE_MONTH_HISTORY', monthLabel(month), USAGE_DAILY_MONTHS)
  const today = now.toISOString().slice(0, 10)
  const end = lastDay(month) < today ? lastDay(month) : today
  const days = await store.usage.days(accounts.map(a => a.id), firstDay(month), end)
  return days.map(d => ({ month: monthLabel(month), date: d.day, peaks: d.peaks, queryResponses: d.queryResponses }))
}
