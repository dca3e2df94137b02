import type { Kysely, Selectable } from 'kysely'
import type { Database, DnssecKeyTable } from '../schema.ts'
import type { DnssecKey, DnssecKeyChanges, DnssecPolicy, DnssecStore, ZoneDnssec } from '../store.ts'
import type { SealedSecret } from '../../zone/settings.ts'

function keyOf (r: Selectable<DnssecKeyTable>): DnssecKey {
  return {
    id: r.id,
    zoneId: r.zone_id,
    role: r.role,
    algorithm: Number(r.algorithm),
    flags: Number(r.flags),
    bits: Number(r.bits),
    keyTag: Number(r.key_tag),
    publicKey: new Uint8Array(Buffer.from(r.public_key, 'base64')),
    privateKey: r.private_key as SealedSecret,
    state: r.state,
    createdAt: r.created_at,
    publishedAt: r.published_at,
    activeAt: r.active_at,
    retiredAt: r.retired_at,
    removedAt: r.removed_at
  }
}

function keyChanges (c: DnssecKeyChanges): Partial<DnssecKeyTable> {
  const out: Partial<DnssecKeyTable> = {}
  if (c.state !== undefined) out.state = c.state
  if (c.publishedAt !== undefined) out.published_at = c.publishedAt
  if (c.activeAt !== undefined) out.active_at = c.activeAt
  if (c.retiredAt !== undefined) out.retired_at = c.retiredAt
  if (c.removedAt !== undefined) out.removed_at = c.removedAt
  return out
}

/** DNSSEC keys and policies (migration 0023); the policy is JSON of {@link DnssecPolicy}. */
export class SqlDnssecStore implements DnssecStore {
  private readonly db: Kysely<Database>

  constructor (db: Kysely<Database>) {
    this.db = db
  }

  async keys (zoneId: string, withRemoved = false): Promise<DnssecKey[]> {
    let q = this.db.selectFrom('dnssec_keys').selectAll().where('zone_id', '=', zoneId)
    if (!withRemoved) q = q.where('state', '<>', 'REMOVED')
    const rows = await q.orderBy('created_at').orderBy('id').execute()
    return rows.map(keyOf)
  }

  async addKey (k: DnssecKey): Promise<void> {
    await this.db.insertInto('dnssec_keys').values({
      id: k.id,
      zone_id: k.zoneId,
      role: k.role,
      algorithm: k.algorithm,
      flags: k.flags,
      bits: k.bits,
      key_tag: k.keyTag,
      public_key: Buffer.from(k.publicKey).toString('base64'),
      private_key: k.privateKey,
      state: k.state,
      created_at: k.createdAt,
      published_at: k.publishedAt,
      active_at: k.activeAt,
      retired_at: k.retiredAt,
      removed_at: k.removedAt
    }).execute()
  }

  async updateKey (id: string, changes: DnssecKeyChanges): Promise<boolean> {
    const set = keyChanges(changes)
    if (Object.keys(set).length === 0) return (await this.db.selectFrom('dnssec_keys').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
    const r = await this.db.updateTable('dnssec_keys').set(set).where('id', '=', id).executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }

  async deleteKeys (zoneId: string): Promise<number> {
    const r = await this.db.deleteFrom('dnssec_keys').where('zone_id', '=', zoneId).executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  async find (zoneId: string): Promise<ZoneDnssec | undefined> {
    const r = await this.db.selectFrom('zone_dnssec').selectAll().where('zone_id', '=', zoneId).executeTakeFirst()
    if (r === undefined) return undefined
    return { zoneId: r.zone_id, policy: JSON.parse(r.policy) as DnssecPolicy, signedAt: r.signed_at, modifiedAt: r.modified_at, nextEventAt: r.next_event_at }
  }

  async save (s: ZoneDnssec): Promise<void> {
    const row = { policy: JSON.stringify(s.policy), signed_at: s.signedAt, modified_at: s.modifiedAt, next_event_at: s.nextEventAt }
    await this.db.insertInto('zone_dnssec').values({ zone_id: s.zoneId, ...row })
      .onConflict(oc => oc.column('zone_id').doUpdateSet(row))
      .execute()
  }

  async schedule (zoneId: string, nextEventAt: string | null, modifiedAt?: string): Promise<void> {
    await this.db.updateTable('zone_dnssec')
      .set({ next_event_at: nextEventAt, ...(modifiedAt === undefined ? {} : { modified_at: modifiedAt }) })
      .where('zone_id', '=', zoneId)
      .execute()
  }

  async delete (zoneId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('zone_dnssec').where('zone_id', '=', zoneId).executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }

  async due (now: string, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('zone_dnssec as d')
      .innerJoin('zones as z', 'z.id', 'd.zone_id')
      .select('d.zone_id')
      .where('d.next_event_at', '<=', now)
      .where('z.dnssec_status', '=', 'SIGNED')
      .where('z.status', '=', 'ACTIVE')
      .orderBy('d.next_event_at')
      .limit(limit)
      .execute()
    return rows.map(r => r.zone_id)
  }
}
