import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'
import { partitionByMonth } from '../partitions.ts'

/**
 * Responses per client for the client IP directional report: `client_responses`, one row per
 * (day 'YYYY-MM-DD' UTC, zone, client address, node, country, region, city), `responses` an
 * additive counter, `class_c` the client's network (IPv4 /24 `a.b.c.0`, IPv6 /48), the report's
 * required filter. Zone '' holds the queries no zone answered; the overflow rows (clients beyond
 * the in-memory bound of a flush) have client_ip, class_c and the place ''. Shaped as the other
 * analytics tables (`analytics-tables.ts`): `day` first in the primary key; on PostgreSQL
 * partitioned by month here (created after migration 0016).
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  await db.schema.createTable('client_responses')
    .addColumn('day', 'text', c => c.notNull())
    .addColumn('zone', 'text', c => c.notNull())
    .addColumn('client_ip', 'text', c => c.notNull())
    .addColumn('node', 'text', c => c.notNull())
    .addColumn('country', 'text', c => c.notNull())
    .addColumn('region', 'text', c => c.notNull())
    .addColumn('city', 'text', c => c.notNull())
    .addColumn('class_c', 'text', c => c.notNull())
    .addColumn('responses', 'bigint', c => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('client_responses_pk', ['day', 'zone', 'client_ip', 'node', 'country', 'region', 'city'])
    .execute()
  await partitionByMonth(db, engine, 'client_responses')
  // The report: one network, a range of days (after partitioning, which carries no other index over).
  await db.schema.createIndex('client_responses_class_c').on('client_responses').columns(['class_c', 'day']).execute()
}
