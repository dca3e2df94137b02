import type { ReportDefinition } from './requests/definition.ts'
import { addDays, dayOf, monthOf, optionalText, reportAccounts, section, sortFieldsOf } from './requests/validate.ts'

type ProjectedSortKey = 'month' | 'currentDay' | 'rspMtd' | 'rspMtd7dAvg' | 'rspMtd30dAvg' | 'ttlAvg' | 'rspDaily'

export interface ProjectedParams {
  sort: Array<[ProjectedSortKey, 'ASC' | 'DESC']>
}

const SORTABLE: Readonly<Record<string, ProjectedSortKey>> = {
  month: 'month', currentDay: 'currentDay', rspMtd: 'rspMtd', rspMtd7dAvg: 'rspMtd7dAvg', rspMtd30dAvg: 'rspMtd30dAvg', ttlAvg: 'ttlAvg', rspDaily: 'rspDaily'
}

const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER']

/**
 * Projected query volume (the real API's "Projected Query Volume Report"): one record per day of
 * the current month up to today, over every zone of the accounts (the named one, or all the
 * caller may read, consolidated). rspDaily: that day's responses; rspMtd: month to date;
 * rspMtd7dAvg / rspMtd30dAvg: the month's projected total, month to date plus the average day of
 * the last 7 / 30 days (ending that day) for each day left in the month. ttlAvg is null: answered
 * TTLs are not recorded. Default order: currentDay ascending.
 */
export const projectedQueryVolumeReport: ReportDefinition<ProjectedParams> = {
  prefix: 'PQV',
  path: 'reports/dns_resolution/projected_query_volume',
  summary: 'Request the projected query volume report (this month, per day, with 7- and 30-day projections)',
  limit: { default: 1000, max: 100_000 },
  columns: ['year', 'month', 'currentDay', 'rspMtd', 'rspMtd7dAvg', 'rspMtd30dAvg', 'ttlAvg', 'rspDaily'],
  async parse (input) {
    const s = section(input.body, 'projectedQueryVolume')
    const accounts = reportAccounts(input, optionalText(s, 'accountName'))
    const sort = sortFieldsOf(input.body, SORTABLE)
    return { accounts, params: { sort: sort.length > 0 ? sort : [['currentDay', 'ASC']] } }
  },
  async compute ({ store, params, accounts, offset, limit, now }) {
    const today = dayOf(now)
    const { first, last } = monthOf(today)
    const from = addDays(first, -30)
    const totals = new Map((await store.queryCounts.dailyTotals(accounts.map(a => a.id), from, today)).map(t => [t.day, t.total]))
    const daysInMonth = Number(last.slice(8))
    const average = (end: string, days: number): number => {
      let sum = 0
      for (let i = 0; i < days; i++) sum += totals.get(addDays(end, -i)) ?? 0
      return sum / days
    }
    const rows: Array<Record<string, unknown>> = []
    let mtd = 0
    for (let day = first; day <= today; day = addDays(day, 1)) {
      const daily = totals.get(day) ?? 0
      mtd += daily
      const d = Number(day.slice(8))
      rows.push({
        year: Number(day.slice(0, 4)),
        month: MONTHS[Number(day.slice(5, 7)) - 1],
        currentDay: d,
        rspMtd: mtd,
        rspMtd7dAvg: Math.round(mtd + average(day, 7) * (daysInMonth - d)),
        rspMtd30dAvg: Math.round(mtd + average(day, 30) * (daysInMonth - d)),
        ttlAvg: null,
        rspDaily: daily
      })
    }
    // Month names sort by the month's number, not alphabetically (all rows are of one month anyway).
    const value = (r: Record<string, unknown>, k: ProjectedSortKey): number => k === 'month' ? MONTHS.indexOf(r.month as string) : (r[k] as number | null) ?? -1
    rows.sort((a, b) => {
      for (const [k, dir] of params.sort) {
        const c = value(a, k) - value(b, k)
        if (c !== 0) return dir === 'DESC' ? -c : c
      }
      return (a.currentDay as number) - (b.currentDay as number)
    })
    return rows.slice(offset, offset + limit)
  }
}
