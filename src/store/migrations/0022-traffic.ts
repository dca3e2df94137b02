import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'
import { partitionByMonth } from '../partitions.ts'

/**
 * Traffic services (issue 18): probes of pools, what they found, and the state they decided.
 *
 * - `probes`: probe definitions of SiteBacker and Traffic Controller pools, per pool (`pool_record`
 *   null) or per pool record (its rdata); `details` the type's details (JSON), `agents` the
 *   regions named (JSON list). They go with their zone.
 * - `probe_results`: every probe run, by the agent (node) that ran it: the history of the probe
 *   reports. An analytics table (`analytics-tables.ts`): `day` first in the primary key, on
 *   PostgreSQL partitioned by month, rows past their retention removed daily. `probe_id` is ''
 *   for the monitor of an SF or SLB pool.
 * - `pool_observations`: per (pool record, probe, agent) the agent's latest result, what the
 *   decision over every agent reads (a silent agent's row grows stale and is then ignored).
 * - `pool_health`: the decided state of each probed pool record (UP or DOWN; a record without a
 *   row is UP), with the change waiting for its delay (`pending_state`, `pending_since`).
 * - `failover_events`: every state change, what the failover report lists; an analytics table
 *   as `probe_results` (kept past the report's 3 months), names copied so it outlives the pool.
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  await db.schema.createTable('probes')
    .addColumn('id', 'text', c => c.primaryKey())
    .addColumn('zone_id', 'text', c => c.notNull().references('zones.id').onDelete('cascade'))
    .addColumn('owner_key', 'text', c => c.notNull())
    .addColumn('rrtype', 'integer', c => c.notNull())
    .addColumn('pool_record', 'text')
    .addColumn('probe_type', 'text', c => c.notNull())
    .addColumn('interval', 'text', c => c.notNull())
    .addColumn('agents', 'text', c => c.notNull())
    .addColumn('threshold', 'integer', c => c.notNull())
    .addColumn('details', 'text', c => c.notNull())
    .addColumn('created_at', 'text', c => c.notNull())
    .execute()
  await db.schema.createIndex('probes_pool').on('probes').columns(['zone_id', 'owner_key', 'rrtype']).execute()

  await db.schema.createTable('probe_results')
    .addColumn('day', 'text', c => c.notNull())
    .addColumn('at', 'text', c => c.notNull())
    .addColumn('zone_id', 'text', c => c.notNull())
    .addColumn('owner_key', 'text', c => c.notNull())
    .addColumn('rrtype', 'integer', c => c.notNull())
    .addColumn('record', 'text', c => c.notNull())
    .addColumn('probe_id', 'text', c => c.notNull())
    .addColumn('agent', 'text', c => c.notNull())
    .addColumn('region', 'text', c => c.notNull())
    .addColumn('probe_type', 'text', c => c.notNull())
    .addColumn('ok', 'integer', c => c.notNull())
    .addColumn('message', 'text', c => c.notNull())
    .addColumn('duration_ms', 'integer', c => c.notNull())
    .addPrimaryKeyConstraint('probe_results_pk', ['day', 'zone_id', 'owner_key', 'rrtype', 'record', 'probe_id', 'agent', 'at'])
    .execute()
  await partitionByMonth(db, engine, 'probe_results')

  await db.schema.createTable('pool_observations')
    .addColumn('zone_id', 'text', c => c.notNull().references('zones.id').onDelete('cascade'))
    .addColumn('owner_key', 'text', c => c.notNull())
    .addColumn('rrtype', 'integer', c => c.notNull())
    .addColumn('record', 'text', c => c.notNull())
    .addColumn('probe_id', 'text', c => c.notNull())
    .addColumn('agent', 'text', c => c.notNull())
    .addColumn('region', 'text', c => c.notNull())
    .addColumn('ok', 'integer', c => c.notNull())
    .addColumn('message', 'text', c => c.notNull())
    .addColumn('at', 'text', c => c.notNull())
    .addPrimaryKeyConstraint('pool_observations_pk', ['zone_id', 'owner_key', 'rrtype', 'record', 'probe_id', 'agent'])
    .execute()

  await db.schema.createTable('pool_health')
    .addColumn('zone_id', 'text', c => c.notNull().references('zones.id').onDelete('cascade'))
    .addColumn('owner_key', 'text', c => c.notNull())
    .addColumn('rrtype', 'integer', c => c.notNull())
    .addColumn('record', 'text', c => c.notNull())
    .addColumn('state', 'text', c => c.notNull())
    .addColumn('changed_at', 'text')
    .addColumn('pending_state', 'text')
    .addColumn('pending_since', 'text')
    .addPrimaryKeyConstraint('pool_health_pk', ['zone_id', 'owner_key', 'rrtype', 'record'])
    .execute()

  await db.schema.createTable('failover_events')
    .addColumn('day', 'text', c => c.notNull())
    .addColumn('id', 'text', c => c.notNull())
    .addColumn('at', 'text', c => c.notNull())
    .addColumn('account_id', 'text', c => c.notNull())
    .addColumn('account_name', 'text', c => c.notNull())
    .addColumn('zone_id', 'text', c => c.notNull())
    .addColumn('zone_name', 'text', c => c.notNull())
    .addColumn('pool_name', 'text', c => c.notNull())
    .addColumn('pool_record', 'text', c => c.notNull())
    .addColumn('record_type', 'text', c => c.notNull())
    .addColumn('pool_type', 'text', c => c.notNull())
    .addColumn('old_state', 'text', c => c.notNull())
    .addColumn('new_state', 'text', c => c.notNull())
    .addColumn('reason', 'text', c => c.notNull())
    .addColumn('all_fail', 'integer', c => c.notNull())
    .addColumn('node', 'text', c => c.notNull())
    .addPrimaryKeyConstraint('failover_events_pk', ['day', 'id'])
    .execute()
  await partitionByMonth(db, engine, 'failover_events')
  // The report: one account's events in a time range, in time order.
  await db.schema.createIndex('failover_events_account').on('failover_events').columns(['account_id', 'at', 'id']).execute()
}
