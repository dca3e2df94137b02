import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/**
 * DNS health check reports (`POST /zones/{zone}/healthchecks`): one row per report version of a
 * zone, the two newest kept (as UltraDNS keeps them). `version` is the check's start time,
 * 'YYYY-MM-DDTHH:mm:ss.sssZ'; `state` IN_PROGRESS, COMPLETED or FAILED; `checks` the report's
 * categories and results (JSON) once done; `counts` the results counted by category and status
 * (JSON), what the health status reports read without parsing whole reports; `delegation` the
 * NS names the parent zone delegates the zone to, as the check found them (JSON list; null when
 * it found no delegation), what the zone's `registrarInfo.nameServers` shows; `message` why a
 * check FAILED. The rows go with their zone (foreign key with cascade).
 */
export async function up (db: Kysely<any>, _engine: EngineName): Promise<void> {
  await db.schema.createTable('health_checks')
    .addColumn('zone_id', 'text', c => c.notNull().references('zones.id').onDelete('cascade'))
    .addColumn('version', 'text', c => c.notNull())
    .addColumn('state', 'text', c => c.notNull())
    .addColumn('checks', 'text')
    .addColumn('counts', 'text')
    .addColumn('message', 'text')
    .addColumn('delegation', 'text')
    .addColumn('finished_at', 'text')
    .addPrimaryKeyConstraint('health_checks_pk', ['zone_id', 'version'])
    .execute()
  // The scheduler's question: the zones whose newest check is oldest.
  await db.schema.createIndex('health_checks_version').on('health_checks').column('version').execute()
}
