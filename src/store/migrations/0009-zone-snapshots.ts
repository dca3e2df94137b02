import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/**
 * Zone snapshots (the UltraDNS "Zone Snapshot and Restore" API): at most one per zone, a
 * point-in-time copy of the zone's rrsets.
 *
 * - `zone_snapshots`: one row per zone that has a snapshot (when it was taken, the zone's serial
 *   and record count then).
 * - `zone_snapshot_rrsets`: the copied rrsets, with the columns of `rrsets` a restore writes
 *   back; unique per (zone, owner key, type), read in canonical order like `rrsets`.
 *
 * Both go with their zone (foreign keys with cascade, and `zones.deleteById` deletes them).
 * The rrsets are stored exactly as `rrsets` stores them: a later migration that changes how a
 * column of `rrsets` is written (as 0008 did for `profile`) must convert `zone_snapshot_rrsets`
 * alike.
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  const blob = engine === 'postgres' ? 'bytea' : 'blob'
  await db.schema.createTable('zone_snapshots')
    .addColumn('zone_id', 'text', c => c.primaryKey().references('zones.id').onDelete('cascade'))
    .addColumn('serial', 'bigint', c => c.notNull())
    .addColumn('record_count', 'bigint', c => c.notNull())
    .addColumn('created_at', 'text', c => c.notNull())
    .execute()
  await db.schema.createTable('zone_snapshot_rrsets')
    .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', c => c.primaryKey().notNull())
    .addColumn('zone_id', 'text', c => c.notNull().references('zones.id').onDelete('cascade'))
    .addColumn('owner_key', 'text', c => c.notNull())
    .addColumn('owner_name', 'text', c => c.notNull())
    .addColumn('rrtype', 'integer', c => c.notNull())
    .addColumn('ttl', 'bigint', c => c.notNull())
    .addColumn('rdata_text', 'text', c => c.notNull())
    .addColumn('rdata_wire', blob as any, c => c.notNull())
    .addColumn('profile', 'text')
    .addColumn('kind', 'text')
    .addColumn('value_key', 'text', c => c.notNull().defaultTo(''))
    .execute()
  // Byte-wise order of owner keys on PostgreSQL, as `rrsets` (migration 0002).
  if (engine === 'postgres') await sql`alter table zone_snapshot_rrsets alter column owner_key type text collate "C"`.execute(db)
  await db.schema.createIndex('zone_snapshot_rrsets_zone_owner_type').unique().on('zone_snapshot_rrsets').columns(['zone_id', 'owner_key', 'rrtype']).execute()
}
