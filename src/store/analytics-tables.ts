/**
 * The tables of query analytics and how long their rows are kept (the history each report
 * may ask for). Every one has `day` ('YYYY-MM-DD', UTC) as the first column of its primary key,
 * and on PostgreSQL is partitioned by month on it (`partitions.ts`, migration 0016). The
 * retention job (`AnalyticsDataStore`) reads this list and nothing else.
 */
export interface AnalyticsTable {
  name: string
  /** Rows of days before the day this long before today are removed. */
  keep: { days: number } | { months: number }
  /**
   * The migration that partitions it by month on PostgreSQL (`partitionTablesOf`): a table
   * created before 0016 names 0016; a later one, the migration creating it.
   */
  partitionedBy: string
}

/** Adding a table is one line here (its migration creates it with `day` first in its primary key). */
export const ANALYTICS_TABLES: readonly AnalyticsTable[] = [
  { name: 'query_volume', keep: { months: 13 }, partitionedBy: '0016' },
  // A month's row (`day` its first day) outlives the month's first days by one month: while
  // any day of the month is kept, so is the month's sum.
  { name: 'query_volume_months', keep: { months: 14 }, partitionedBy: '0018' },
  { name: 'response_codes', keep: { days: 90 }, partitionedBy: '0016' },
  { name: 'host_volume', keep: { days: 90 }, partitionedBy: '0016' },
  { name: 'raw_queries', keep: { days: 90 }, partitionedBy: '0016' },
  { name: 'client_responses', keep: { days: 90 }, partitionedBy: '0017' },
  // The usage summary's 36 months, and the month before them (the values carried into the first).
  { name: 'usage_days', keep: { months: 37 }, partitionedBy: '0021' },
  // Probe runs (the probe reports' history) and pool state changes (the failover report's 3 months, and a month more).
  { name: 'probe_results', keep: { days: 90 }, partitionedBy: '0022' },
  { name: 'failover_events', keep: { months: 4 }, partitionedBy: '0022' }
]

/** The first day kept of a table at `now`: 'YYYY-MM-DD' (rows of earlier days are removed). */
export function firstDayKept (keep: AnalyticsTable['keep'], now: Date): string {
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth()
  const d = now.getUTCDate()
  if ('days' in keep) return new Date(Date.UTC(y, m, d - keep.days)).toISOString().slice(0, 10)
  // The same day of the month `months` before, or that month's last day when it is shorter.
  const lastDay = new Date(Date.UTC(y, m - keep.months + 1, 0)).getUTCDate()
  return new Date(Date.UTC(y, m - keep.months, Math.min(d, lastDay))).toISOString().slice(0, 10)
}
