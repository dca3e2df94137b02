import { sql, type Kysely } from 'kysely'

/**
 * The audit log's `object_name` search (the history of one record, zone or user): an index on
 * the object's lower-case name, so finding a name's records does not read the whole window.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_object').on('audit_records').expression(sql`lower(object)`).execute()
}
