import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'
import { reversedName } from '../sql/codec.ts'

/**
 * `zones.name_reversed`: the zone name with its characters reversed (`reversedName`), indexed,
 * so the zones below a name are one range read. Zone creation uses it to refuse a zone inside or
 * above another account's.
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  await db.schema.alterTable('zones').addColumn('name_reversed', 'text').execute()
  if (engine === 'postgres') {
    await sql`alter table zones alter column name_reversed type text collate "C"`.execute(db)
    await sql`update zones set name_reversed = reverse(name)`.execute(db)
  } else {
    const rows = await db.selectFrom('zones').select(['id', 'name']).execute() as Array<{ id: string, name: string }>
    for (const row of rows) await db.updateTable('zones').set({ name_reversed: reversedName(row.name) }).where('id', '=', row.id).execute()
  }
  await db.schema.createIndex('zones_name_reversed').on('zones').column('name_reversed').execute()
}
