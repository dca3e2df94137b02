import { sql, type Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import type { StoredRrset, ZoneSnapshot, ZoneSnapshotStore } from '../store.ts'
import { rrsetFromRow } from './rrsets.ts'

/** The columns a snapshot copies from `rrsets` and a restore writes back. */
const COPIED = ['zone_id', 'owner_key', 'owner_name', 'rrtype', 'ttl', 'rdata_text', 'rdata_wire', 'profile', 'kind', 'value_key'] as const

/**
 * Zone snapshots over Kysely, both engines. `take` and `restore` are a delete and one
 * `INSERT … SELECT` each, so a zone of a million records is copied by the database without
 * passing through the process; run them in the transaction of the change they belong to.
 */
export class SqlZoneSnapshotStore implements ZoneSnapshotStore {
  private readonly db: Kysely<Database>

  constructor (db: Kysely<Database>) {
    this.db = db
  }

  async take (zoneId: string, info: Omit<ZoneSnapshot, 'zoneId'>): Promise<ZoneSnapshot> {
    await this.db.deleteFrom('zone_snapshot_rrsets').where('zone_id', '=', zoneId).execute()
    await this.db.deleteFrom('zone_snapshots').where('zone_id', '=', zoneId).execute()
    await this.db.insertInto('zone_snapshot_rrsets').columns([...COPIED])
      .expression(this.db.selectFrom('rrsets').select([...COPIED]).where('zone_id', '=', zoneId))
      .execute()
    await this.db.insertInto('zone_snapshots').values({ zone_id: zoneId, serial: info.serial, record_count: info.recordCount, created_at: info.createdAt }).execute()
    return { zoneId, ...info }
  }

  async find (zoneId: string): Promise<ZoneSnapshot | undefined> {
    const row = await this.db.selectFrom('zone_snapshots').selectAll().where('zone_id', '=', zoneId).executeTakeFirst()
    return row === undefined ? undefined : { zoneId, serial: Number(row.serial), recordCount: Number(row.record_count), createdAt: row.created_at }
  }

  async list (zoneId: string, limit: number, after?: { ownerKey: string, type: number }): Promise<StoredRrset[]> {
    let q = this.db.selectFrom('zone_snapshot_rrsets').selectAll().where('zone_id', '=', zoneId)
    if (after !== undefined) {
      // As `rrsets` pages: the `>=` term starts the index range at the position.
      q = q.where('owner_key', '>=', after.ownerKey).where(eb => eb.or([
        eb('owner_key', '>', after.ownerKey),
        eb.and([eb('owner_key', '=', after.ownerKey), eb('rrtype', '>', after.type)])
      ]))
    }
    const rows = await q.orderBy('owner_key').orderBy('rrtype').limit(limit).execute()
    return rows.map(rrsetFromRow)
  }

  async restore (zoneId: string): Promise<boolean> {
    if (await this.find(zoneId) === undefined) return false
    const now = new Date().toISOString()
    await this.db.deleteFrom('rrsets').where('zone_id', '=', zoneId).execute()
    await this.db.insertInto('rrsets').columns([...COPIED, 'updated_at'])
      .expression(this.db.selectFrom('zone_snapshot_rrsets').select([...COPIED, sql<string>`cast(${now} as text)`.as('updated_at')]).where('zone_id', '=', zoneId))
      .execute()
    return true
  }
}
