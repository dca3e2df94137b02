import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Engine } from '../engine.ts'
import type { Database, UsageCountColumns, UsageDayTable } from '../schema.ts'
import type { UsageCounts, UsageDay, UsageStore } from '../store.ts'

/** The count columns, `domains` first (the others are also a zone's). */
const COUNTS = ['domains', 'records', 'failover_records', 'tc_records', 'dir_records', 'url_forwards', 'email_forwards'] as const
type CountColumn = typeof COUNTS[number]
type ZoneCountColumn = Exclude<CountColumn, 'domains'>
const ZONE_COUNTS = COUNTS.slice(1) as ZoneCountColumn[]

/** Pool kinds counted, by column. */
const POOL_COLUMNS: ReadonlyArray<[ZoneCountColumn, string[]]> = [
  ['failover_records', ['SB_POOLS', 'SF_POOLS']],
  ['tc_records', ['TC_POOLS']],
  ['dir_records', ['DIR_POOLS']]
]

/** Deleted zones are remembered this many days (their queries' account, while `query_volume` keeps them). */
const DELETED_ZONES_KEPT_DAYS = 430

type Counts = Record<CountColumn, number>
const ZERO: Counts = { domains: 0, records: 0, failover_records: 0, tc_records: 0, dir_records: 0, url_forwards: 0, email_forwards: 0 }

/** The clock shared by a store and its transactions. */
export interface UsageClock { now: () => Date }

function dayOf (d: Date): string {
  return d.toISOString().slice(0, 10)
}

/** 'YYYY-MM-DD' `n` days after `day`. */
export function addDays (day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`)
  return dayOf(new Date(d.getTime() + n * 86_400_000))
}

function toNumber (v: unknown): number {
  return typeof v === 'number' ? v : Number(v ?? 0)
}

function countsOf (row: Record<string, unknown>, prefix = ''): Counts {
  const out = { ...ZERO }
  for (const c of COUNTS) out[c] = toNumber(row[`${prefix}${c}`])
  return out
}

function apiCounts (c: Counts): UsageCounts {
  return {
    domains: c.domains,
    records: c.records,
    failoverRecords: c.failover_records,
    tcRecords: c.tc_records,
    dirRecords: c.dir_records,
    urlForwards: c.url_forwards,
    emailForwards: c.email_forwards
  }
}

/**
 * The URL and email forwards of the zone `zoneId` (an SQL expression: the id of the zone row
 * read), as SQL expressions: its web forwards (migration 0024); the service has no email
 * forwards (the real API's pages have no API for them), so none.
 */
function forwardCounts (zoneId: RawBuilder<unknown>): Record<'url_forwards' | 'email_forwards', RawBuilder<number>> {
  return { url_forwards: sql<number>`(select count(*) from web_forwards w where w.zone_id = ${zoneId})`, email_forwards: sql<number>`0` }
}

/** A zone's state as accounted before a change and as it stands after it. */
interface ZoneState {
  accountId: string
  name: string
  counts: Counts
}

export class SqlUsageStore implements UsageStore {
  private readonly db: Kysely<Database>
  private readonly engine: Engine
  private readonly clock: UsageClock

  constructor (db: Kysely<Database>, engine: Engine, clock: UsageClock) {
    this.db = db
    this.engine = engine
    this.clock = clock
  }

  useClock (clock: () => Date): void {
    this.clock.now = clock
  }

  private greatest (a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<unknown> {
    return this.engine.name === 'postgres' ? sql`greatest(${a}, ${b})` : sql`max(${a}, ${b})`
  }

  /**
   * The counts of the zone row `z` as SQL select items (records, pool records through the
   * partial index of pool rrsets, forwards), named as the count columns.
   */
  private zoneCounts (): RawBuilder<unknown> {
    const length = this.engine.name === 'postgres' ? sql`json_array_length(r.rdata_text::json)` : sql`json_array_length(r.rdata_text)`
    const pool = (kinds: string[]): RawBuilder<unknown> =>
      sql`coalesce((select sum(${length}) from rrsets r where r.zone_id = z.id and r.kind is not null and r.kind in (${sql.join(kinds)})), 0)`
    const forwards = forwardCounts(sql.ref('z.id'))
    const items = ZONE_COUNTS.map(c => {
      const pooled = POOL_COLUMNS.find(([column]) => column === c)
      const value = c === 'records' ? sql.ref('z.record_count') : pooled !== undefined ? pool(pooled[1]) : forwards[c as 'url_forwards' | 'email_forwards']
      return sql`${value} as ${sql.id(c)}`
    })
    return sql.join(items)
  }

  /** The zone's counts as stored now (one statement); undefined when it no longer exists. */
  private async current (zoneId: string): Promise<ZoneState | undefined> {
    const found = await sql<Record<string, unknown>>`select z.account_id, z.name, ${this.zoneCounts()} from zones z where z.id = ${zoneId}`.execute(this.db)
    const zone = found.rows[0]
    if (zone === undefined) return undefined
    return { accountId: zone.account_id as string, name: zone.name as string, counts: { ...countsOf(zone), domains: 1 } }
  }

  /**
   * Account the changes of these zones, in the transaction that made them (`db` its
   * connection): each zone's counts now against those last accounted, the differences added to
   * its account's totals (a row lock on PostgreSQL until commit, so concurrent changes of one
   * account add up in turn), and the day's row raised to the totals before and after (the
   * day's peak: any value the totals took during the day was one of these). Accounts are
   * updated in id order, so two transactions never wait on each other's accounts.
   */
  async account (zoneIds: Iterable<string>): Promise<void> {
    const day = dayOf(this.clock.now())
    const ids = [...new Set(zoneIds)].sort()
    if (this.engine.name === 'postgres' && ids.length === 1 && await this.accountOneZone(ids[0]!, day)) return
    const deltas = new Map<string, Counts>()
    const addDelta = (accountId: string, counts: Counts, sign: 1 | -1): void => {
      let d = deltas.get(accountId)
      if (d === undefined) deltas.set(accountId, d = { ...ZERO })
      for (const c of COUNTS) d[c] += sign * counts[c]
    }
    for (const zoneId of ids) {
      // Locked on PostgreSQL: two changes of one zone are accounted in turn, each against the other's result.
      const q = this.db.selectFrom('usage_zones').selectAll().where('zone_id', '=', zoneId)
      const before = await (this.engine.name === 'postgres' ? q.forUpdate() : q).executeTakeFirst()
      const previous: ZoneState | undefined = before === undefined || before.deleted_day !== null
        ? undefined
        : { accountId: before.account_id, name: before.name, counts: { ...countsOf(before), domains: 1 } }
      const now = await this.current(zoneId)
      if (previous === undefined && now === undefined) continue
      if (previous !== undefined && now !== undefined && previous.accountId === now.accountId && previous.name === now.name &&
        COUNTS.every(c => previous.counts[c] === now.counts[c])) continue
      if (previous !== undefined) addDelta(previous.accountId, previous.counts, -1)
      if (now !== undefined) addDelta(now.accountId, now.counts, 1)
      if (now === undefined) {
        await this.db.updateTable('usage_zones').set({ deleted_day: day }).where('zone_id', '=', zoneId).execute()
      } else {
        const zoneCounts = Object.fromEntries(ZONE_COUNTS.map(c => [c, now.counts[c]])) as Record<ZoneCountColumn, number>
        await this.db.insertInto('usage_zones')
          .values({ zone_id: zoneId, account_id: now.accountId, name: now.name, created_day: day, deleted_day: null, ...zoneCounts })
          .onConflict(oc => oc.column('zone_id').doUpdateSet({ account_id: now.accountId, name: now.name, ...zoneCounts }))
          .execute()
      }
    }
    for (const accountId of [...deltas.keys()].sort()) {
      const delta = deltas.get(accountId)!
      if (COUNTS.every(c => delta[c] === 0)) continue
      const totals = await this.db.insertInto('usage_accounts')
        .values({ account_id: accountId, ...delta })
        .onConflict(oc => oc.column('account_id').doUpdateSet(eb => Object.fromEntries(COUNTS.map(c =>
          [c, eb(`usage_accounts.${c}`, '+', eb.ref(`excluded.${c}`))])) as Partial<UsageCountColumns>))
        .returningAll()
        .executeTakeFirstOrThrow()
      const after = countsOf(totals)
      const peak: Partial<Record<string, number>> = {}
      const last: Partial<Record<string, number>> = {}
      for (const c of COUNTS) {
        peak[c] = Math.max(after[c], after[c] - delta[c])
        last[`last_${c}`] = after[c]
      }
      await this.db.insertInto('usage_days')
        .values({ day, account_id: accountId, ...peak, ...last } as unknown as UsageDayTable)
        .onConflict(oc => oc.columns(['day', 'account_id']).doUpdateSet(Object.fromEntries([
          ...COUNTS.map(c => [c, this.greatest(sql.ref(`usage_days.${c}`), sql.ref(`excluded.${c}`))]),
          ...COUNTS.map(c => [`last_${c}`, sql.ref(`excluded.last_${c}`)])
        ]) as never))
        .execute()
    }
  }

  /**
   * {@link account} of one zone on PostgreSQL in one statement (data-modifying common table
   * expressions; the usual case: a write changes one zone, and this is one round trip more in
   * its transaction). Resolves to false, having changed nothing, when the zone moved to
   * another account (the general path accounts that).
   */
  private async accountOneZone (zoneId: string, day: string): Promise<boolean> {
    const id = sql`${zoneId}::text`
    const on = sql`${day}::text`
    const list = (cols: readonly string[], prefix = ''): RawBuilder<unknown> => sql.raw(cols.map(c => `${prefix}${c}`).join(', '))
    const deltas = ZONE_COUNTS.map(c => sql`coalesce(c.${sql.raw(c)}, 0) - coalesce(p.${sql.raw(c)}, 0) as ${sql.raw(c)}`)
    const changed = sql.raw(COUNTS.map(c => `${c} <> 0`).join(' or '))
    const result = await sql<{ moved: boolean }>`
      with prev as (
        select * from usage_zones where zone_id = ${id} and deleted_day is null for update
      ), cur as (
        select z.account_id, z.name, ${this.zoneCounts()} from zones z where z.id = ${id}
      ), moved as (
        select 1 from cur c join prev p on c.account_id <> p.account_id
      ), d as (
        select coalesce(c.account_id, p.account_id) as account_id,
          (case when c.account_id is null then 0 else 1 end) - (case when p.zone_id is null then 0 else 1 end) as domains,
          ${sql.join(deltas)}
        from (select 1) one left join cur c on true left join prev p on true
        where (c.account_id is not null or p.zone_id is not null) and not exists (select 1 from moved)
      ), ch as (
        select * from d where ${changed}
      ), zone_now as (
        insert into usage_zones (zone_id, account_id, name, created_day, ${list(ZONE_COUNTS)})
        select ${id}, c.account_id, c.name, ${on}, ${list(ZONE_COUNTS, 'c.')} from cur c where exists (select 1 from ch)
        on conflict (zone_id) do update set account_id = excluded.account_id, name = excluded.name,
          ${sql.raw(ZONE_COUNTS.map(c => `${c} = excluded.${c}`).join(', '))}
      ), zone_gone as (
        update usage_zones set deleted_day = ${on} where zone_id = ${id} and deleted_day is null
          and not exists (select 1 from cur) and exists (select 1 from ch)
      ), totals as (
        insert into usage_accounts (account_id, ${list(COUNTS)}) select account_id, ${list(COUNTS)} from ch
        on conflict (account_id) do update set ${sql.raw(COUNTS.map(c => `${c} = usage_accounts.${c} + excluded.${c}`).join(', '))}
        returning *
      ), today as (
        insert into usage_days (day, account_id, ${list(COUNTS)}, ${list(COUNTS, 'last_')})
        select ${on}, t.account_id, ${sql.raw(COUNTS.map(c => `greatest(t.${c}, t.${c} - ch.${c})`).join(', '))}, ${list(COUNTS, 't.')}
        from totals t join ch on ch.account_id = t.account_id
        on conflict (day, account_id) do update set
          ${sql.raw([...COUNTS.map(c => `${c} = greatest(usage_days.${c}, excluded.${c})`), ...COUNTS.map(c => `last_${c} = excluded.last_${c}`)].join(', '))}
      )
      select exists (select 1 from moved) as moved`.execute(this.db)
    return result.rows[0]?.moved !== true
  }

  async closeDays (now: Date): Promise<string[]> {
    const today = dayOf(now)
    const closed: string[] = []
    for (const day of [addDays(today, -2), addDays(today, -1), today]) {
      // Every account with usage gets the day's row: the values after its last change before the
      // day; for today (a change today has written its row already), its totals as they stand.
      const counts = sql.join(COUNTS.map(c => sql.id(c)))
      const insert = sql`insert into usage_days (day, account_id, ${counts}, ${sql.join(COUNTS.map(c => sql.id(`last_${c}`)))})`
      if (day === today) {
        await sql`${insert} select ${day}, account_id, ${counts}, ${counts} from usage_accounts
          where ${sql.raw(COUNTS.map(c => `${c} <> 0`).join(' or '))}
          on conflict (day, account_id) do nothing`.execute(this.db)
        continue
      }
      const lasts = sql.join(COUNTS.map(c => sql.ref(`u.last_${c}`)))
      await sql`${insert} select ${day}, u.account_id, ${lasts}, ${lasts}
        from usage_accounts a join usage_days u on u.account_id = a.account_id
          and u.day = (select max(p.day) from usage_days p where p.account_id = a.account_id and p.day < ${day})
        on conflict (day, account_id) do nothing`.execute(this.db)
      await sql`
        update usage_days set closed = 1, query_responses = coalesce((${this.queriesOf(sql.ref('usage_days.account_id'), day)}), 0)
        where day = ${day}`.execute(this.db)
      closed.push(day)
    }
    await this.db.deleteFrom('usage_zones').where('deleted_day', 'is not', null).where('deleted_day', '<', addDays(today, -DELETED_ZONES_KEPT_DAYS)).execute()
    return closed
  }

  /** The responses of `day` to the zones the account had that day (each name once). */
  private queriesOf (accountId: RawBuilder<unknown> | string, day: string): RawBuilder<unknown> {
    return sql`select sum(q.rsp_total) from query_volume q where q.day = ${day} and q.zone in (
      select uz.name from usage_zones uz where uz.account_id = ${accountId} and uz.created_day <= ${day}
        and (uz.deleted_day is null or uz.deleted_day >= ${day}))`
  }

  /** Query responses per day of [from, to] to the account's zones, read from `query_volume` as it stands. */
  private async liveQueries (accountId: string, from: string, to: string): Promise<Map<string, number>> {
    const rows = await sql<{ day: string, n: unknown }>`
      select q.day as day, sum(q.rsp_total) as n from query_volume q
      where q.day >= ${from} and q.day <= ${to} and exists (
        select 1 from usage_zones uz where uz.account_id = ${accountId} and uz.name = q.zone
          and uz.created_day <= q.day and (uz.deleted_day is null or uz.deleted_day >= q.day))
      group by q.day`.execute(this.db)
    return new Map(rows.rows.map(r => [r.day, toNumber(r.n)]))
  }

  async days (accountIds: readonly string[], from: string, to: string): Promise<UsageDay[]> {
    const out = new Map<string, { peaks: Counts, queries: number }>()
    for (let day = from; day <= to; day = addDays(day, 1)) out.set(day, { peaks: { ...ZERO }, queries: 0 })
    for (const accountId of new Set(accountIds)) {
      const prior = await this.db.selectFrom('usage_days').selectAll()
        .where('account_id', '=', accountId).where('day', '<', from).orderBy('day', 'desc').limit(1).executeTakeFirst()
      const rows = new Map((await this.db.selectFrom('usage_days').selectAll()
        .where('account_id', '=', accountId).where('day', '>=', from).where('day', '<=', to).execute()).map(r => [r.day, r]))
      // Before its first row the account had nothing recorded (no zone yet, or before migration 0021).
      const first = prior?.day ?? [...rows.keys()].sort()[0] ?? '9999-12-31'
      const open = [...out.keys()].filter(d => d >= first && rows.get(d)?.closed !== 1)
      const live = open.length === 0 ? new Map<string, number>() : await this.liveQueries(accountId, open[0]!, open[open.length - 1]!)
      let carried = prior === undefined ? { ...ZERO } : countsOf(prior, 'last_')
      for (const [day, sum] of out) {
        const row = rows.get(day)
        const peaks = row === undefined ? carried : countsOf(row)
        if (row !== undefined) carried = countsOf(row, 'last_')
        for (const c of COUNTS) sum.peaks[c] += peaks[c]
        sum.queries += row?.closed === 1 ? toNumber(row.query_responses) : (live.get(day) ?? 0)
      }
    }
    return [...out].map(([day, v]) => ({ day, peaks: apiCounts(v.peaks), queryResponses: v.queries }))
  }
}
