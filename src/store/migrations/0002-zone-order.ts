import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/**
 * Byte-wise ordering for zone names and owner keys on PostgreSQL (SQLite compares text
 * byte-wise already), so keyset paging and canonical record order are the same on both
 * engines; and the indexes behind the zone list's sort orders.
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  if (engine === 'postgres') {
    await sql`alter table zones alter column name type text collate "C"`.execute(db)
    await sql`alter table rrsets alter column owner_key type text collate "C"`.execute(db)
    await sql`alter table accounts alter column name_key type text collate "C"`.execute(db)
  }
  await db.schema.createIndex('zones_type_name').on('zones').columns(['zone_type', 'name']).execute()
  await db.schema.createIndex('zones_count_name').on('zones').columns(['record_count', 'name']).execute()
  await db.schema.createIndex('zones_status_name').on('zones').columns(['status', 'name']).execute()
  await db.schema.alterTable('zones').addColumn('account_name_key', 'text').execute()
  if (engine === 'postgres') await sql`alter table zones alter column account_name_key type text collate "C"`.execute(db)
  await sql`update zones set account_name_key = (select name_key from accounts where accounts.id = zones.account_id)`.execute(db)
  await db.schema.createIndex('zones_account_sort').on('zones').columns(['account_name_key', 'name']).execute()
  await db.schema.alterTable('tasks').addColumn('result_file_name', 'text').execute()
}
