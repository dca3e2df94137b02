import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/**
 * Indexes for the task runner's periodic sweeps: expired leases (`code = 'IN_PROCESS' and
 * locked_until < now`) and retention (`code in ('COMPLETE', 'ERROR') and updated_at < cutoff`).
 * The claim itself uses `tasks_claim` (code, run_at) from 0001.
 */
export async function up (db: Kysely<any>, _engine: EngineName): Promise<void> {
  await db.schema.createIndex('tasks_lease').on('tasks').columns(['code', 'locked_until']).execute()
  await db.schema.createIndex('tasks_finished').on('tasks').columns(['code', 'updated_at']).execute()
}
