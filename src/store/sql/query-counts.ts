import { sql, type Kysely, type RawBuilder } from 'kysely'
import { RCODE_COUNTERS, VOLUME_COUNTERS } from '../query-count-columns.ts'
import type { Engine } from '../engine.ts'
import type { Database } from '../schema.ts'
import type { CountedRow, CountReportQuery, CountSortKey, QueryCountRow, QueryCountStore } from '../store.ts'

/** Rows per INSERT … SELECT unnest(…) (PostgreSQL: one array parameter per column). */
const ROWS_PER_ARRAY_STATEMENT = 5000

/** A table of additive counters (query_volume, its sums per month, response_codes, host_volume). */
export type CountTable = 'query_volume' | 'query_volume_months' | 'response_codes' | 'host_volume'

/**
 * A column of the row that is merged, not added, on conflict: the earlier (`min`) or later
 * (`max`) of the stored and the new day (the first and last day of a month's counts).
 */
interface DaySpan { column: string, keep: 'min' | 'max' }

export class SqlQueryCountStore implements QueryCountStore {
  private readonly db: Kysely<Database>
  private readonly inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>
  private readonly engine: Engine

  /** `inTransaction` runs its function in one write transaction (the current one inside a transaction). */
  constructor (db: Kysely<Database>, inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>, engine: Engine) {
    this.db = db
    this.inTransaction = inTransaction
    this.engine = engine
  }

  async volumeByMonth (q: CountReportQuery): Promise<CountedRow[]> { return await countReads.volumeByMonth(this.db, q) }
  async volumeByDay (q: CountReportQuery): Promise<CountedRow[]> { return await countReads.volumeByDay(this.db, q) }
  async responseCodesByZone (q: CountReportQuery): Promise<CountedRow[]> { return await countReads.responseCodesByZone(this.db, q) }
  async dailyTotals (accountIds: string[], from: string, to: string): Promise<Array<{ day: string, total: number }>> { return await countReads.dailyTotals(this.db, accountIds, from, to) }

  async add (flush: { volume: QueryCountRow[], rcodes: QueryCountRow[] }): Promise<void> {
    if (flush.volume.length === 0 && flush.rcodes.length === 0) return
    await this.inTransaction(async (db) => {
      await upsertCounts(db, this.engine, 'query_volume', ['day', 'zone', 'node'], VOLUME_COUNTERS, flush.volume)
      await upsertCounts(db, this.engine, 'query_volume_months', ['day', 'zone', 'node'], VOLUME_COUNTERS, monthsOf(flush.volume),
        [{ column: 'first_day', keep: 'min' }, { column: 'last_day', keep: 'max' }])
      await upsertCounts(db, this.engine, 'response_codes', ['day', 'zone', 'node'], RCODE_COUNTERS, flush.rcodes)
    })
  }
}

/** The daily rows summed per (month, zone, node): `day` the month's first day, with the first and last day counted. */
function monthsOf (volume: readonly QueryCountRow[]): Array<QueryCountRow & { first_day: string, last_day: string }> {
  const months = new Map<string, QueryCountRow & { first_day: string, last_day: string }>()
  for (const r of volume) {
    const day = `${r.day.slice(0, 7)}-01`
    const key = `${day}\u0000${r.zone}\u0000${r.node}`
    const m = months.get(key)
    if (m === undefined) {
      months.set(key, { day, zone: r.zone, node: r.node, first_day: r.day, last_day: r.day, counts: { ...r.counts } })
      continue
    }
    if (r.day < m.first_day) m.first_day = r.day
    if (r.day > m.last_day) m.last_day = r.day
    for (const [c, n] of Object.entries(r.counts)) m.counts[c] = (m.counts[c] ?? 0) + (n ?? 0)
  }
  return [...months.values()]
}

/**
 * INSERT … ON CONFLICT (keys) DO UPDATE SET c = c + excluded.c, on both engines: each row's
 * counters (missing ones as 0) are added to the stored row of its key, created when missing.
 * PostgreSQL takes one array a column (`SELECT unnest($1::text[]), …`): 5,000 rows cost one
 * short statement to parse, where VALUES lists took 2.6 times as long (docs/decisions.md).
 * SQLite runs one prepared statement a row (`Engine.runEach`) naming only the row's counters
 * that are not zero: a host row counts a handful of its 56, and an update of those few cost
 * SQLite a quarter of a full-width one; the statements are as many as the sets of counters seen.
 */
export async function upsertCounts<R extends { counts: Partial<Record<string, number>> }> (
  db: Kysely<Database>, engine: Engine, table: CountTable, keys: ReadonlyArray<keyof R & string>, counters: readonly string[], rows: readonly R[],
  spans: readonly DaySpan[] = []
): Promise<void> {
  const spanSet = (quote: (c: string) => string, ref: (c: string) => string): string[] =>
    spans.map(s => `${quote(s.column)} = ${engine.name === 'postgres' ? (s.keep === 'min' ? 'least' : 'greatest') : s.keep}(${ref(s.column)}, excluded.${quote(s.column)})`)
  if (engine.runEach !== undefined) {
    const bySet = new Map<string, Array<readonly unknown[]>>()
    for (const r of rows) {
      const named: string[] = []
      const params: unknown[] = keys.map(k => r[k])
      for (const span of spans) params.push((r as unknown as Record<string, unknown>)[span.column])
      for (const c of counters) {
        const n = r.counts[c]
        if (n === undefined || n === 0) continue
        named.push(c)
        params.push(n)
      }
      const set = named.join(',')
      let list = bySet.get(set)
      if (list === undefined) bySet.set(set, list = [])
      list.push(params)
    }
    for (const [set, list] of bySet) {
      const named = set === '' ? [] : set.split(',')
      const inserted = [...keys, ...spans.map(s => s.column), ...named]
      const conflict = keys.map(k => `"${k}"`).join(', ')
      const updates = [
        ...spanSet(c => `"${c}"`, c => `"${table}"."${c}"`),
        ...named.map(c => `"${c}" = "${table}"."${c}" + excluded."${c}"`)
      ]
      const update = updates.length === 0 ? 'nothing' : `update set ${updates.join(', ')}`
      engine.runEach(`insert into "${table}" (${inserted.map(c => `"${c}"`).join(', ')}) values (${inserted.map(() => '?').join(', ')}) on conflict (${conflict}) do ${update}`, list)
    }
    return
  }
  for (let from = 0; from < rows.length; from += ROWS_PER_ARRAY_STATEMENT) {
    const part = rows.slice(from, from + ROWS_PER_ARRAY_STATEMENT)
    const columns = [
      ...keys.map(k => sql`unnest(${part.map(r => r[k])}::text[])`),
      ...spans.map(s => sql`unnest(${part.map(r => (r as unknown as Record<string, unknown>)[s.column])}::text[])`),
      ...counters.map(c => sql`unnest(${part.map(r => r.counts[c] ?? 0)}::bigint[])`)
    ]
    const set = [
      ...spanSet(c => `"${c}"`, c => `"${table}"."${c}"`).map(s => sql.raw(s)),
      ...counters.map(c => sql`${sql.id(c)} = ${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`)
    ]
    await sql`
      insert into ${sql.table(table)} (${sql.join([...keys, ...spans.map(s => s.column), ...counters].map(c => sql.id(c)))})
      select ${sql.join(columns)}
      on conflict (${sql.join(keys.map(k => sql.id(k)))}) do update set ${sql.join(set)}`.execute(db)
  }
}

/** Sum of one counter over the group, as a number on both engines. */
function sumOf (table: string, counter: string): RawBuilder<unknown> {
  return sql`coalesce(sum(${sql.ref(`${table}.${counter}`)}), 0)`
}

function toNumber (v: unknown): number {
  return typeof v === 'number' ? v : Number(v)
}

type Grouping = 'month' | 'day' | 'range'

/**
 * The counters of `table` summed per zone and `grouping` (calendar month, day, or the whole
 * range), for the zones of the accounts, in the query's order.
 */
async function countReport (
  db: Kysely<Database>, table: CountTable, counters: readonly string[], grouping: Grouping, q: CountReportQuery,
  perHost?: { onlyWith?: string }
): Promise<CountedRow[]> {
  if (q.accountIds.length === 0 || q.zones?.length === 0) return []
  const t = 'c'
  const period = grouping === 'month' ? [sql`substr(${sql.ref(`${t}.day`)}, 1, 7)`] : grouping === 'day' ? [sql.ref(`${t}.day`)] : []
  // Read by month, query_volume comes with its sums per month (`byMonthSource`), which carry their own first and last day.
  const months = table === 'query_volume' && grouping === 'month'
  const start = sql`min(${sql.ref(`${t}.${months ? 'start_day' : 'day'}`)})`
  const end = sql`max(${sql.ref(`${t}.${months ? 'end_day' : 'day'}`)})`
  const order: Record<CountSortKey, RawBuilder<unknown>> = {
    zone: sql`${sql.ref(`${t}.zone`)}`,
    start,
    end,
    total: counters.includes('rsp_total') ? sumOf(t, 'rsp_total') : sql`(${sql.join(counters.map(c => sumOf(t, c)), sql` + `)})`,
    day: start,
    host: sql`${sql.ref(`${t}.host`)}`,
    nxdomain: sumOf(t, 'nxdomain')
  }
  let query = (months ? db.selectFrom(byMonthSource(q).as(t) as unknown as 'query_volume as c') : db.selectFrom(`${table} as ${t}` as 'query_volume as c'))
    .innerJoin('zones as z', 'z.name', `${t}.zone` as 'c.zone')
    .innerJoin('accounts as a', 'a.id', 'z.account_id')
    .where('z.account_id', 'in', q.accountIds)
    .where(`${t}.day` as 'c.day', '>=', q.from)
    .where(`${t}.day` as 'c.day', '<=', q.to)
  if (q.zone !== undefined) query = query.where(`${t}.zone` as 'c.zone', '=', q.zone)
  if (q.zones !== undefined) query = query.where(`${t}.zone` as 'c.zone', 'in', q.zones)
  if (q.host !== undefined) query = query.where(sql.ref(`${t}.host`), '=', q.host)
  const host = perHost === undefined ? [] : [sql`${sql.ref(`${t}.host`)}`]
  let select = query
    .select([sql<string>`${sql.ref(`${t}.zone`)}`.as('zone'), 'a.name as account_name', start.as('start_day'), end.as('end_day')])
    .select(host.map(h => h.as('host')))
    .select(counters.map(c => sumOf(t, c).as(c)))
    .groupBy([sql`${sql.ref(`${t}.zone`)}`, 'a.name', ...host, ...period])
  if (perHost?.onlyWith !== undefined) select = select.having(sumOf(t, perHost.onlyWith), '>', 0)
  const tieBreak: Array<[CountSortKey, 'ASC']> = perHost === undefined ? [['zone', 'ASC'], ['start', 'ASC']] : [['zone', 'ASC'], ['host', 'ASC'], ['start', 'ASC']]
  for (const [key, dir] of [...q.sort, ...tieBreak]) {
    select = select.orderBy(order[key], dir === 'DESC' ? 'desc' : 'asc')
  }
  const rows = await select.offset(q.offset).limit(q.limit).execute() as Array<Record<string, unknown>>
  return rows.map(r => ({
    zone: r.zone as string,
    ...(perHost === undefined ? {} : { host: r.host as string }),
    accountName: r.account_name as string,
    start: r.start_day as string,
    end: r.end_day as string,
    counts: Object.fromEntries(counters.map(c => [c, toNumber(r[c])]))
  }))
}

/** 'YYYY-MM-DD' of a UTC date. */
function dayString (d: Date): string {
  return d.toISOString().slice(0, 10)
}

/**
 * The query volume rows of [q.from, q.to] for a read by month, as one table (zone, day,
 * start_day, end_day, the counters): each month wholly inside the range as its sums
 * (`query_volume_months`, migration 0018: one row a zone and node instead of up to 31), the days
 * of the months cut by either end of the range as stored. A month is read from one of the two,
 * never both.
 */
function byMonthSource (q: CountReportQuery): RawBuilder<unknown> {
  const from = new Date(`${q.from}T00:00:00Z`)
  const to = new Date(`${q.to}T00:00:00Z`)
  // The first month starting on or after `from`, and the last one ending on or before `to`.
  const firstFull = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + (from.getUTCDate() === 1 ? 0 : 1), 1))
  const dayAfterTo = new Date(to.getTime() + 86_400_000)
  const lastFull = new Date(Date.UTC(dayAfterTo.getUTCFullYear(), dayAfterTo.getUTCMonth() - 1, 1))
  const counters = sql.join(VOLUME_COUNTERS.map(c => sql.id(c)))
  const zones = (column: string): RawBuilder<unknown> => q.zone !== undefined
    ? sql` and ${sql.ref(column)} = ${q.zone}`
    : q.zones !== undefined ? sql` and ${sql.ref(column)} in (${sql.join(q.zones)})` : sql``
  const daily = (fromDay: string, toDay: string): RawBuilder<unknown> =>
    sql`select zone, day, day as start_day, day as end_day, ${counters} from query_volume where day >= ${fromDay} and day <= ${toDay}${zones('zone')}`
  if (firstFull > lastFull) return sql`(${daily(q.from, q.to)})`
  // The last day of the last whole month.
  const lastFullEnd = new Date(Date.UTC(lastFull.getUTCFullYear(), lastFull.getUTCMonth() + 1, 0))
  return sql`(select zone, day, first_day as start_day, last_day as end_day, ${counters} from query_volume_months
      where day >= ${dayString(firstFull)} and day <= ${dayString(lastFull)}${zones('zone')}
    union all ${daily(q.from, dayString(new Date(firstFull.getTime() - 86_400_000)))}
    union all ${daily(dayString(new Date(lastFullEnd.getTime() + 86_400_000)), q.to)})`
}

/** The report reads of {@link SqlQueryCountStore}. */
export const countReads = {
  volumeByMonth: async (db: Kysely<Database>, q: CountReportQuery) => await countReport(db, 'query_volume', VOLUME_COUNTERS, 'month', q),
  volumeByDay: async (db: Kysely<Database>, q: CountReportQuery) => await countReport(db, 'query_volume', VOLUME_COUNTERS, 'day', q),
  responseCodesByZone: async (db: Kysely<Database>, q: CountReportQuery) => await countReport(db, 'response_codes', RCODE_COUNTERS, 'range', q),
  volumeByHost: async (db: Kysely<Database>, q: CountReportQuery) => await countReport(db, 'host_volume', VOLUME_COUNTERS, 'range', q, {}),
  nxdomainsByHost: async (db: Kysely<Database>, q: CountReportQuery) => await countReport(db, 'host_volume', ['nxdomain', 'rsp_total'], 'range', q, { onlyWith: 'nxdomain' }),
  async dailyTotals (db: Kysely<Database>, accountIds: string[], from: string, to: string): Promise<Array<{ day: string, total: number }>> {
    if (accountIds.length === 0) return []
    const rows = await db.selectFrom('query_volume as c')
      .innerJoin('zones as z', 'z.name', 'c.zone')
      .where('z.account_id', 'in', accountIds)
      .where('c.day', '>=', from).where('c.day', '<=', to)
      .select(['c.day', sumOf('c', 'rsp_total').as('total')])
      .groupBy('c.day').orderBy('c.day').execute() as Array<{ day: string, total: unknown }>
    return rows.map(r => ({ day: r.day, total: toNumber(r.total) }))
  }
}
