import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/**
 * DNSSEC (signed primary zones; docs/decisions.md "DNSSEC").
 *
 * - `dnssec_keys`: the keys of each signed zone: role KSK or ZSK, DNSSEC algorithm number, DNSKEY
 *   flags, bits, key tag, the DNSKEY public key field (base64) and the private key as PKCS#8 DER
 *   in base64, sealed with `ZONAL_SECRET_KEY` when it is set (`auth/secrets.ts`, as TSIG secrets
 *   are). `state` is where the key is in its life (PUBLISHED: in the DNSKEY rrset, signing
 *   nothing; ACTIVE: signing; RETIRED: still published, no longer signing; REMOVED: gone from the
 *   zone) and the `*_at` columns the times of each state, past or planned: a key moves on when
 *   its next time has come (the rollover job). The keys go with their zone.
 * - `zone_dnssec`: one row per signed zone: its policy (JSON of the store's `DnssecPolicy`),
 *   when it was signed and last (re)signed, and `next_event_at`, the earliest time something
 *   is due for it (signatures to refresh, a key to move on), what the periodic job looks up.
 *   An unsigned zone has no row.
 */
export async function up (db: Kysely<any>, _engine: EngineName): Promise<void> {
  await db.schema.createTable('dnssec_keys')
    .addColumn('id', 'text', c => c.primaryKey())
    .addColumn('zone_id', 'text', c => c.notNull().references('zones.id').onDelete('cascade'))
    .addColumn('role', 'text', c => c.notNull())
    .addColumn('algorithm', 'integer', c => c.notNull())
    .addColumn('flags', 'integer', c => c.notNull())
    .addColumn('bits', 'integer', c => c.notNull())
    .addColumn('key_tag', 'integer', c => c.notNull())
    .addColumn('public_key', 'text', c => c.notNull())
    .addColumn('private_key', 'text', c => c.notNull())
    .addColumn('state', 'text', c => c.notNull())
    .addColumn('created_at', 'text', c => c.notNull())
    .addColumn('published_at', 'text')
    .addColumn('active_at', 'text')
    .addColumn('retired_at', 'text')
    .addColumn('removed_at', 'text')
    .execute()
  await db.schema.createIndex('dnssec_keys_zone').on('dnssec_keys').column('zone_id').execute()

  await db.schema.createTable('zone_dnssec')
    .addColumn('zone_id', 'text', c => c.primaryKey().references('zones.id').onDelete('cascade'))
    .addColumn('policy', 'text', c => c.notNull())
    .addColumn('signed_at', 'text', c => c.notNull())
    .addColumn('modified_at', 'text', c => c.notNull())
    .addColumn('next_event_at', 'text')
    .execute()
  await db.schema.createIndex('zone_dnssec_next_event').on('zone_dnssec').column('next_event_at').execute()
}
