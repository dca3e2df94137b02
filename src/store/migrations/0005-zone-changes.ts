import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/**
 * The zone change journal (DESIGN.md "Data model"): one row per zone version that changed the
 * zone's records, holding the records removed and added and the serials before and after — what
 * IXFR out serves (RFC 1995) and what other nodes apply to catch up without reloading a zone.
 * A row with `reset` set says the zone's records were replaced wholesale (no diff kept).
 * Serials are unsigned 32-bit, so `bigint` on PostgreSQL.
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  await db.schema.createTable('zone_changes')
    .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', c => c.primaryKey().notNull())
    .addColumn('zone_id', 'text', c => c.notNull())
    .addColumn('version', 'integer', c => c.notNull())
    .addColumn('serial_from', 'bigint', c => c.notNull())
    .addColumn('serial_to', 'bigint', c => c.notNull())
    .addColumn('reset', 'integer', c => c.notNull().defaultTo(0))
    .addColumn('removed', engine === 'postgres' ? 'bytea' : 'blob')
    .addColumn('added', engine === 'postgres' ? 'bytea' : 'blob')
    .addColumn('created_at', 'text', c => c.notNull())
    .execute()
  await db.schema.createIndex('zone_changes_zone_version').unique().on('zone_changes').columns(['zone_id', 'version']).execute()
  await db.schema.createIndex('zone_changes_created').on('zone_changes').columns(['created_at']).execute()
}
