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
const POOL_KINDS = POOL_COLUMNS.flatMap(([, kinds]) => kinds)

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
 * The URL and email forwards of a zone. The service has no forwards yet (web forwards come
 * with a later issue, which counts them here): every zone has none.
 */
async function forwardCounts (_db: Kysely<Database>, _zoneId: string): Promise<Pick<Counts, 'url_forwards' | 'email_forwards'>> {
  return { url_forwards: 0, email_forwards: 0 }
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

  private rdataCount (): RawBuilder<number> {
    return this.engine.name === 'postgres' ? sql`json_array_length(rdata_text::json)` : sql`json_array_length(rdata_text)`
  }

  /** The zone's counts as stored now; undefined when it no longer exists. */
  private async current (zoneId: string): Promise<ZoneState | undefined> {
    const zone = await this.db.selectFrom('zones').select(['account_id', 'name', 'record_count']).where('id', '=', zoneId).executeTakeFirst()
    if (zone === undefined) return undefined
    const pools = await this.db.selectFrom('rrsets').select(['kind', sql<number>`coalesce(sum(${this.rdataCount()}), 0)`.as('n')])
      .where('zone_id', '=', zoneId).where('kind', 'is not', null).where('kind', 'in', POOL_KINDS)
      .groupBy('kind').execute()
    const counts: Counts = { ...ZERO, domains: 1, records: toNumber(zone.record_count), ...await forwardCounts(this.db, zoneId) }
    for (const p of pools) {
      const column = POOL_COLUMNS.find(([, kinds]) => kinds.includes(p.kind ?? ''))?.[0]
      if (column !== undefined) counts[column] += toNumber(p.n)
    }
    return { accountId: zone.account_id, name: zone.name, counts }
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
    const deltas = new Map<string, Counts>()
    const addDelta = (accountId: string, counts: Counts, sign: 1 | -1): void => {
      let d = deltas.get(accountId)
      if (d === undefined) deltas.set(accountId, d = { ...ZERO })
      for (const c of COUNTS) d[c] += sign * counts[c]
    }
    for (const zoneId of [...new Set(zoneIds)].sort()) {
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

  async closeDays (now: Date): Promise<string[]> {
    const today = dayOf(now)
    const closed: string[] = []
    for (const day of [addDays(today, -2), addDays(today, -1), today]) {
      // Every account with usage gets the day's row: the values after its last change before the day.
      const counts = sql.join(COUNTS.map(c => sql.id(c)))
      const lasts = sql.join(COUNTS.map(c => sql.ref(`u.last_${c}`)))
      await sql`
        insert into usage_days (day, account_id, ${counts}, ${sql.join(COUNTS.map(c => sql.id(`last_${c}`)))})
        select ${day}, u.account_id, ${lasts}, ${lasts}
        from usage_accounts a join usage_days u on u.account_id = a.account_id
          and u.day = (select max(p.day) from usage_days p where p.account_id = a.account_id and p.day < ${day})
        on conflict (day, account_id) do nothing`.execute(this.db)
      if (day === today) continue
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
      const open = [...out.keys()].filter(d => rows.get(d)?.closed !== 1)
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
