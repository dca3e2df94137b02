import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'
import { partitionByMonth } from '../partitions.ts'
import { VOLUME_COUNTERS } from '../query-count-columns.ts'

/**
 * The query volume summed per calendar month: `query_volume_months`, one row per (month, zone,
 * node), `day` the month's first day ('YYYY-MM-01', so the table is shaped as the other
 * analytics tables: `day` first in the primary key, partitioned by month on PostgreSQL),
 * `first_day` and `last_day` the first and last day with counts, then the counters of
 * `query_volume`. Written in the flush's transaction with the daily rows; the zone query volume
 * report reads a month wholly inside its range from here (one row instead of up to 31).
 * Filled from the daily rows already stored.
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  let t = db.schema.createTable('query_volume_months')
    .addColumn('day', 'text', c => c.notNull())
    .addColumn('zone', 'text', c => c.notNull())
    .addColumn('node', 'text', c => c.notNull())
    .addColumn('first_day', 'text', c => c.notNull())
    .addColumn('last_day', 'text', c => c.notNull())
  for (const col of VOLUME_COUNTERS) t = t.addColumn(col, 'bigint', c => c.notNull().defaultTo(0))
  await t.addPrimaryKeyConstraint('query_volume_months_pk', ['day', 'zone', 'node']).execute()
  await partitionByMonth(db, engine, 'query_volume_months')
  const counters = VOLUME_COUNTERS.map(c => sql.id(c))
  await sql`
    insert into query_volume_months (day, zone, node, first_day, last_day, ${sql.join(counters)})
    select substr(day, 1, 7) || '-01', zone, node, min(day), max(day), ${sql.join(VOLUME_COUNTERS.map(c => sql`sum(${sql.id(c)})`))}
    from query_volume group by substr(day, 1, 7), zone, node`.execute(db)
}
