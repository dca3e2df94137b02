import { sql, type Expression, type InsertObject, type Kysely, type QueryCreator } from 'kysely'
import type { ZoneRecord } from '../../zone/record.ts'
import type { Database, ZoneChangeTable } from '../schema.ts'
import type { JournalEntry, ZoneChange, ZoneChangeStore } from '../store.ts'

/** Versions of a zone kept in the journal; older entries are trimmed. */
export const JOURNAL_KEEP_VERSIONS = 1000
/** Age after which entries are trimmed. */
export const JOURNAL_KEEP_DAYS = 30
/** Trim a zone's journal once every this many versions (trimming is one indexed delete). */
export const TRIM_EVERY = 64

/** Records on disk: owner (length octet, wire name), type, TTL, rdata length, rdata. */
export function packRecords (records: readonly ZoneRecord[]): Uint8Array {
  let size = 0
  for (const r of records) size += 1 + r.owner.length + 8 + r.rdata.length
  const out = new Uint8Array(size)
  const view = new DataView(out.buffer)
  let p = 0
  for (const r of records) {
    out[p++] = r.owner.length
    out.set(r.owner, p)
    p += r.owner.length
    view.setUint16(p, r.type)
    view.setUint32(p + 2, r.ttl)
    view.setUint16(p + 6, r.rdata.length)
    p += 8
    out.set(r.rdata, p)
    p += r.rdata.length
  }
  return out
}

export function unpackRecords (packed: Uint8Array): ZoneRecord[] {
  const out: ZoneRecord[] = []
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength)
  let p = 0
  while (p < packed.length) {
    const ownerLength = packed[p++]!
    const owner = packed.slice(p, p + ownerLength)
    p += ownerLength
    const type = view.getUint16(p)
    const ttl = view.getUint32(p + 2)
    const rdlength = view.getUint16(p + 6)
    p += 8
    out.push({ owner, type, ttl, rdata: packed.slice(p, p + rdlength) })
    p += rdlength
  }
  return out
}

function fromRow (r: Pick<ZoneChangeTable, 'version' | 'serial_from' | 'serial_to' | 'reset' | 'removed' | 'added'>): ZoneChange {
  const head = { version: Number(r.version), serialFrom: Number(r.serial_from), serialTo: Number(r.serial_to) }
  if (Number(r.reset) === 1 || r.removed === null || r.added === null) return { ...head, reset: true }
  return { ...head, reset: false, removed: unpackRecords(new Uint8Array(r.removed)), added: unpackRecords(new Uint8Array(r.added)) }
}

/** The journal row of `change` at `version` (a number, or an expression giving it). */
export function journalRow (zoneId: string, change: JournalEntry, version: number | Expression<number>, now: Date): InsertObject<Database, 'zone_changes'> {
  return {
    zone_id: zoneId,
    version,
    serial_from: change.serialFrom,
    serial_to: change.serialTo,
    reset: change.reset ? 1 : 0,
    removed: change.reset ? null : packRecords(change.removed),
    added: change.reset ? null : packRecords(change.added),
    created_at: now.toISOString()
  }
}

/**
 * The delete that trims a zone's journal after `version` (a number, or an expression giving it):
 * entries more than {@link JOURNAL_KEEP_VERSIONS} versions back or older than
 * {@link JOURNAL_KEEP_DAYS} days. Run once every {@link TRIM_EVERY} versions.
 */
export function journalTrim (db: QueryCreator<Database>, zoneId: string, version: number | Expression<number>, now: Date) {
  const cutoff = new Date(now.getTime() - JOURNAL_KEEP_DAYS * 86_400_000).toISOString()
  const last = typeof version === 'number' ? version - JOURNAL_KEEP_VERSIONS : sql<number>`${version} - ${JOURNAL_KEEP_VERSIONS}`
  return db.deleteFrom('zone_changes')
    .where('zone_id', '=', zoneId)
    .where(eb => eb.or([eb('version', '<=', last), eb('created_at', '<', cutoff)]))
}

export class SqlZoneChangeStore implements ZoneChangeStore {
  private readonly db: Kysely<Database>

  constructor (db: Kysely<Database>) {
    this.db = db
  }

  async append (zoneId: string, change: ZoneChange): Promise<void> {
    const now = new Date()
    await this.db.insertInto('zone_changes').values(journalRow(zoneId, change, change.version, now)).execute()
    if (change.version % TRIM_EVERY !== 0) return
    await journalTrim(this.db, zoneId, change.version, now).execute()
  }

  async since (zoneId: string, version: number, limit: number): Promise<ZoneChange[]> {
    const rows = await this.db.selectFrom('zone_changes')
      .select(['version', 'serial_from', 'serial_to', 'reset', 'removed', 'added'])
      .where('zone_id', '=', zoneId).where('version', '>', version)
      .orderBy('version').limit(limit).execute()
    return rows.map(fromRow)
  }

  async latest (zoneId: string, limit: number): Promise<ZoneChange[]> {
    const rows = await this.db.selectFrom('zone_changes')
      .select(['version', 'serial_from', 'serial_to', 'reset', 'removed', 'added'])
      .where('zone_id', '=', zoneId)
      .orderBy('version', 'desc').limit(limit).execute()
    return rows.map(fromRow).reverse()
  }
}
