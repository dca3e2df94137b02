import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'
import { RCODE_COUNTERS, VOLUME_COUNTERS } from '../query-count-columns.ts'

/**
 * Aggregated query counts for the reports: `query_volume` and `response_codes`, one row per
 * (day 'YYYY-MM-DD' UTC, zone, node), every other column an additive counter. Zone '' holds
 * the queries no zone answered.
 */
export async function up (db: Kysely<any>, _engine: EngineName): Promise<void> {
  for (const [table, counters] of [['query_volume', VOLUME_COUNTERS], ['response_codes', RCODE_COUNTERS]] as const) {
    let t = db.schema.createTable(table)
      .addColumn('day', 'text', c => c.notNull())
      .addColumn('zone', 'text', c => c.notNull())
      .addColumn('node', 'text', c => c.notNull())
    for (const col of counters) t = t.addColumn(col, 'bigint', c => c.notNull().defaultTo(0))
    await t.addPrimaryKeyConstraint(`${table}_pk`, ['day', 'zone', 'node']).execute()
  }
}
