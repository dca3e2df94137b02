import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'
import { partitionByMonth } from '../partitions.ts'

/** The peak counts of the usage summary, in every usage table (and `domains` in the account and day tables). */
const ZONE_COUNTS = ['records', 'failover_records', 'tc_records', 'dir_records', 'url_forwards', 'email_forwards'] as const
const COUNTS = ['domains', ...ZONE_COUNTS] as const

/**
 * The usage summary's tables (docs/decisions.md "Usage summary"):
 *
 * - `usage_zones`: per zone (kept after its deletion, `deleted_day` set), its account and name,
 *   the days it was created and deleted (which account its queries count for, which day), and
 *   its counts as last accounted (records, failover, traffic controller and directional pool
 *   records, URL and email forwards).
 * - `usage_accounts`: per account, the current totals (domains and the sums of `usage_zones`).
 * - `usage_days`: per (UTC day, account), each count's peak over the day and its value after
 *   the day's last change (`last_*`, carried to the days after), and once the day is closed the
 *   query responses of the account's zones that day. `day` first in the key, partitioned by
 *   month on PostgreSQL, kept 37 months (`analytics-tables.ts`).
 *
 * Filled from the zones already stored (today's row holds their counts) and from the query
 * volume stored (each earlier day with responses closed with them; peaks were not recorded then).
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  let zones = db.schema.createTable('usage_zones')
    .addColumn('zone_id', 'text', c => c.primaryKey())
    .addColumn('account_id', 'text', c => c.notNull())
    .addColumn('name', 'text', c => c.notNull())
    .addColumn('created_day', 'text', c => c.notNull())
    .addColumn('deleted_day', 'text')
  for (const col of ZONE_COUNTS) zones = zones.addColumn(col, 'bigint', c => c.notNull().defaultTo(0))
  await zones.execute()
  await db.schema.createIndex('usage_zones_account_name').on('usage_zones').columns(['account_id', 'name']).execute()
  await db.schema.createIndex('usage_zones_deleted').on('usage_zones').column('deleted_day').where(sql.ref('deleted_day'), 'is not', null).execute()

  let accounts = db.schema.createTable('usage_accounts').addColumn('account_id', 'text', c => c.primaryKey())
  for (const col of COUNTS) accounts = accounts.addColumn(col, 'bigint', c => c.notNull().defaultTo(0))
  await accounts.execute()

  let days = db.schema.createTable('usage_days')
    .addColumn('day', 'text', c => c.notNull())
    .addColumn('account_id', 'text', c => c.notNull())
  for (const col of COUNTS) days = days.addColumn(col, 'bigint', c => c.notNull().defaultTo(0))
  for (const col of COUNTS) days = days.addColumn(`last_${col}`, 'bigint', c => c.notNull().defaultTo(0))
  days = days.addColumn('query_responses', 'bigint', c => c.notNull().defaultTo(0))
    .addColumn('closed', 'integer', c => c.notNull().defaultTo(0))
  await days.addPrimaryKeyConstraint('usage_days_pk', ['day', 'account_id']).execute()
  await partitionByMonth(db, engine, 'usage_days')
  // The latest row of an account before a day (the values carried into it).
  await db.schema.createIndex('usage_days_account_day').on('usage_days').columns(['account_id', 'day']).execute()

  const length = engine === 'postgres' ? sql`json_array_length(r.rdata_text::json)` : sql`json_array_length(r.rdata_text)`
  const pool = (kinds: string[]): ReturnType<typeof sql> =>
    sql`(select coalesce(sum(${length}), 0) from rrsets r where r.zone_id = z.id and r.kind is not null and r.kind in (${sql.join(kinds)}))`
  await sql`
    insert into usage_zones (zone_id, account_id, name, created_day, records, failover_records, tc_records, dir_records)
    select z.id, z.account_id, z.name, substr(z.created_at, 1, 10), z.record_count,
      ${pool(['SB_POOLS', 'SF_POOLS'])}, ${pool(['TC_POOLS'])}, ${pool(['DIR_POOLS'])}
    from zones z`.execute(db)
  await sql`
    insert into usage_accounts (account_id, ${sql.join(COUNTS.map(c => sql.id(c)))})
    select account_id, count(*), ${sql.join(ZONE_COUNTS.map(c => sql`sum(${sql.id(c)})`))}
    from usage_zones group by account_id`.execute(db)
  const today = new Date().toISOString().slice(0, 10)
  // The days query_volume still holds, closed with their query responses (their peaks were not recorded).
  await sql`
    insert into usage_days (day, account_id, query_responses, closed)
    select q.day, uz.account_id, sum(q.rsp_total), 1
    from query_volume q join usage_zones uz on uz.name = q.zone
    where q.day < ${today}
    group by q.day, uz.account_id`.execute(db)
  await sql`
    insert into usage_days (day, account_id, ${sql.join(COUNTS.map(c => sql.id(c)))}, ${sql.join(COUNTS.map(c => sql.id(`last_${c}`)))})
    select ${today}, account_id, ${sql.join(COUNTS.map(c => sql.id(c)))}, ${sql.join(COUNTS.map(c => sql.id(c)))}
    from usage_accounts`.execute(db)
}
