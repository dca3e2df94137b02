import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'
import { RCODE_COUNTERS, VOLUME_COUNTERS } from '../query-count-columns.ts'

/**
 * Query counts per host for the host query volume and NXDOMAIN reports: `host_volume`, one row
 * per (day 'YYYY-MM-DD' UTC, zone, host = question name in presentation form, node), the query
 * volume counters then the response code counters, all additive.
 */
export async function up (db: Kysely<any>, _engine: EngineName): Promise<void> {
  let t = db.schema.createTable('host_volume')
    .addColumn('day', 'text', c => c.notNull())
    .addColumn('zone', 'text', c => c.notNull())
    .addColumn('host', 'text', c => c.notNull())
    .addColumn('node', 'text', c => c.notNull())
  for (const col of [...VOLUME_COUNTERS, ...RCODE_COUNTERS]) t = t.addColumn(col, 'bigint', c => c.notNull().defaultTo(0))
  await t.addPrimaryKeyConstraint('host_volume_pk', ['day', 'zone', 'host', 'node']).execute()
}
