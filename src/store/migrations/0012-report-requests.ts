import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/**
 * Report requests (`POST /reports/dns_resolution/...`, read back with `GET /requests/{id}`):
 * one row per request, with what was asked (`params`: the parsed body, offset and limit), the
 * accounts it covers (a JSON list of ids: who may read it back), the task computing it, its state, and once computed
 * the page of rows (gzip-compressed JSON) and whether a next page exists. Kept 60 days
 * (`expires_at`), as the real API keeps report data.
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  const blob = engine === 'postgres' ? 'bytea' : 'blob'
  await db.schema.createTable('report_requests')
    .addColumn('id', 'text', c => c.primaryKey())
    .addColumn('kind', 'text', c => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('task_id', 'text')
    .addColumn('account_ids', 'text', c => c.notNull())
    .addColumn('params', 'text', c => c.notNull())
    .addColumn('state', 'text', c => c.notNull())
    .addColumn('message', 'text')
    .addColumn('row_count', 'integer')
    .addColumn('has_next', 'integer')
    .addColumn('rows', blob as any)
    .addColumn('created_at', 'text', c => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('expires_at', 'text', c => c.notNull())
    .execute()
  await db.schema.createIndex('report_requests_expires').on('report_requests').column('expires_at').execute()
}
