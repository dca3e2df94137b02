import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/**
 * Web forwards (issue 21; docs/decisions.md "Web forwards").
 *
 * - `web_forwards`: one row per forward of a primary zone: its `guid` (16 upper-case hex
 *   digits), `request_to` as the user wrote it, and parsed: `host` (lower case, no trailing
 *   dot), `owner_key` (the host's canonical sort key in the zone, as `rrsets.owner_key`: which
 *   rows own the host's A/AAAA records), `path` and `anchor`; `request_key` (host, path and
 *   `#anchor`: unique in the zone), the default redirect target, `mode` (framed, 301 … 307),
 *   `relative` (none, parameter, path, parameterAndPath) and `alternatives` (JSON: the advanced
 *   records, each with its priority, target, mode and header rules). The host's A/AAAA records
 *   are ordinary rrsets of the zone; a host is forward-owned while a row here names it. The rows
 *   go with their zone (foreign key with cascade, and `zones.deleteById` deletes them).
 * - `custom_headers`: the HTTP header names an account's advanced forwards may match, `name` as
 *   the user wrote it, `name_key` lower case (header names are case-insensitive, RFC 9110 §5.1).
 */
export async function up (db: Kysely<any>, _engine: EngineName): Promise<void> {
  await db.schema.createTable('web_forwards')
    .addColumn('id', 'text', c => c.primaryKey())
    .addColumn('zone_id', 'text', c => c.notNull().references('zones.id').onDelete('cascade'))
    .addColumn('request_to', 'text', c => c.notNull())
    .addColumn('request_key', 'text', c => c.notNull())
    .addColumn('host', 'text', c => c.notNull())
    .addColumn('owner_key', 'text', c => c.notNull())
    .addColumn('path', 'text', c => c.notNull())
    .addColumn('anchor', 'text', c => c.notNull())
    .addColumn('redirect_to', 'text', c => c.notNull())
    .addColumn('mode', 'text', c => c.notNull())
    .addColumn('relative', 'text', c => c.notNull())
    .addColumn('alternatives', 'text', c => c.notNull())
    .addColumn('created_at', 'text', c => c.notNull())
    .addColumn('modified_at', 'text', c => c.notNull())
    .execute()
  await db.schema.createIndex('web_forwards_request').on('web_forwards').columns(['zone_id', 'request_key']).unique().execute()
  await db.schema.createIndex('web_forwards_owner').on('web_forwards').columns(['zone_id', 'owner_key']).execute()

  await db.schema.createTable('custom_headers')
    .addColumn('account_id', 'text', c => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name_key', 'text', c => c.notNull())
    .addColumn('name', 'text', c => c.notNull())
    .addColumn('created_at', 'text', c => c.notNull())
    .addPrimaryKeyConstraint('custom_headers_pk', ['account_id', 'name_key'])
    .execute()
}
