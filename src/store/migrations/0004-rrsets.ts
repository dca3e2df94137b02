import { sql, type Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/** How many characters of the first rdata value the VALUE order compares (`value_key`). */
export const VALUE_KEY_LENGTH = 64

/**
 * What the rrsets API reads without loading a zone (issue 5):
 *
 * - `kind`: the pool kind of an rrset's profile (`RD_POOLS`, `SB_POOLS` …; null without a
 *   profile), so `q=kind:` is a column test. Pools are few, so a partial index holds only them.
 * - `value_key`: the first characters of the first rdata value in presentation form, the key of
 *   `sort=VALUE` (an index on the whole text would exceed PostgreSQL's btree row limit for long
 *   TXT rdata).
 * - indexes for `sort=TTL` and `sort=VALUE` within a zone; OWNER reads the unique
 *   (zone_id, owner_key, rrtype) index and TYPE the (zone_id, rrtype, owner_key) index of 0001.
 *
 * Existing rows are filled in: `value_key` in SQL, `kind` from each profile's `@context`.
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  await db.schema.alterTable('rrsets').addColumn('kind', 'text').execute()
  await db.schema.alterTable('rrsets').addColumn('value_key', 'text', c => c.notNull().defaultTo('')).execute()
  if (engine === 'postgres') await sql`alter table rrsets alter column value_key type text collate "C"`.execute(db)
  const first = engine === 'postgres' ? sql`(rdata_text::json ->> 0)` : sql`json_extract(rdata_text, '$[0]')`
  await sql`update rrsets set value_key = coalesce(substr(${first}, 1, ${sql.lit(VALUE_KEY_LENGTH)}), '')`.execute(db)
  const pools = await db.selectFrom('rrsets').select(['id', 'profile']).where('profile', 'is not', null).execute() as { id: number, profile: string }[]
  for (const p of pools) await db.updateTable('rrsets').set({ kind: poolKindOfProfile(p.profile) }).where('id', '=', p.id).execute()

  await db.schema.createIndex('rrsets_zone_ttl').on('rrsets').columns(['zone_id', 'ttl', 'owner_key', 'rrtype']).execute()
  await db.schema.createIndex('rrsets_zone_value').on('rrsets').columns(['zone_id', 'value_key', 'owner_key', 'rrtype']).execute()
  await db.schema.createIndex('rrsets_zone_kind').on('rrsets').columns(['zone_id', 'kind', 'owner_key', 'rrtype']).where(sql.ref('kind'), 'is not', null).execute()
}

/**
 * The pool kind of a stored profile from its `@context` (`…/RDPool.jsonschema` → `RD_POOLS`,
 * `…/SLBPool.jsonschema` → `SLB_POOLS`); `POOLS` when the context names no pool type.
 */
export function poolKindOfProfile (profile: string): string {
  let context: unknown
  try {
    context = (JSON.parse(profile) as { '@context'?: unknown })['@context']
  } catch {}
  const m = typeof context === 'string' ? /\/([A-Za-z]+)Pool\.jsonschema$/.exec(context) : null
  return m === null ? 'POOLS' : `${m[1]!.toUpperCase()}_POOLS`
}
