import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import type { RrsetStore, StoredRrset } from '../store.ts'

/** Rdata of an rrset on disk: each record as a 16-bit length and its wire octets. */
export function packRdata (rdata: readonly Uint8Array[]): Uint8Array {
  let size = 0
  for (const r of rdata) size += 2 + r.length
  const out = new Uint8Array(size)
  let p = 0
  for (const r of rdata) {
    out[p++] = r.length >> 8
    out[p++] = r.length & 0xff
    out.set(r, p)
    p += r.length
  }
  return out
}

export function unpackRdata (packed: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = []
  let p = 0
  while (p + 2 <= packed.length) {
    const len = (packed[p]! << 8) | packed[p + 1]!
    out.push(packed.subarray(p + 2, p + 2 + len))
    p += 2 + len
  }
  return out
}

const BATCH = 400

export class SqlRrsetStore implements RrsetStore {
  constructor (private readonly db: Kysely<Database>) {}

  async insertMany (zoneId: string, rrsets: readonly StoredRrset[]): Promise<void> {
    const now = new Date().toISOString()
    for (let i = 0; i < rrsets.length; i += BATCH) {
      await this.db.insertInto('rrsets').values(rrsets.slice(i, i + BATCH).map(r => ({
        zone_id: zoneId,
        owner_key: r.ownerKey,
        owner_name: r.ownerName,
        rrtype: r.type,
        ttl: r.ttl,
        rdata_text: JSON.stringify(r.rdataText),
        rdata_wire: packRdata(r.rdata),
        profile: r.profile,
        updated_at: now
      }))).execute()
    }
  }

  async deleteAll (zoneId: string): Promise<void> {
    await this.db.deleteFrom('rrsets').where('zone_id', '=', zoneId).execute()
  }

  async replace (zoneId: string, rrset: StoredRrset): Promise<void> {
    await this.db.deleteFrom('rrsets')
      .where('zone_id', '=', zoneId).where('owner_key', '=', rrset.ownerKey).where('rrtype', '=', rrset.type)
      .execute()
    await this.insertMany(zoneId, [rrset])
  }

  async list (zoneId: string, limit: number, after?: { ownerKey: string, type: number }): Promise<StoredRrset[]> {
    let q = this.db.selectFrom('rrsets').selectAll().where('zone_id', '=', zoneId)
    if (after !== undefined) {
      q = q.where(eb => eb.or([
        eb('owner_key', '>', after.ownerKey),
        eb.and([eb('owner_key', '=', after.ownerKey), eb('rrtype', '>', after.type)])
      ]))
    }
    const rows = await q.orderBy('owner_key').orderBy('rrtype').limit(limit).execute()
    return rows.map(r => ({
      ownerKey: r.owner_key,
      ownerName: r.owner_name,
      type: r.rrtype,
      ttl: Number(r.ttl),
      rdata: unpackRdata(new Uint8Array(r.rdata_wire)),
      rdataText: JSON.parse(r.rdata_text) as string[],
      profile: r.profile
    }))
  }

  async countRecords (zoneId: string): Promise<number> {
    const rows = await this.db.selectFrom('rrsets').select('rdata_text').where('zone_id', '=', zoneId).execute()
    let n = 0
    for (const r of rows) n += (JSON.parse(r.rdata_text) as unknown[]).length
    return n
  }
}
