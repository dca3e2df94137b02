import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/**
 * The dangling DNS report (`/v1/zones/{zone}/healthchecks/dangling`): the latest report of each
 * zone, one row, replaced by every new scan. `version` is the time the scan started (ISO 8601
 * UTC), `status` IN_PROGRESS, COMPLETED or FAILED, `message` the progress, the failure's reason
 * or the outcome, `records` the flagged records (JSON, once COMPLETED), `task_id` the task
 * running the scan. Deleted with its zone.
 */
export async function up (db: Kysely<any>, _engine: EngineName): Promise<void> {
  await db.schema.createTable('dangling_reports')
    .addColumn('zone_id', 'text', c => c.primaryKey().references('zones.id').onDelete('cascade'))
    .addColumn('account_id', 'text', c => c.notNull())
    .addColumn('version', 'text', c => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('status', 'text', c => c.notNull())
    .addColumn('message', 'text')
    .addColumn('records', 'text')
    .addColumn('finished_at', 'text')
    .execute()
}
