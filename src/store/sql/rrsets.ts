import { sql, type Expression, type ExpressionBuilder, type Kysely, type QueryCreator, type SelectQueryBuilder, type SqlBool } from 'kysely'
import { VALUE_KEY_LENGTH } from '../migrations/0004-rrsets.ts'
import type { Database, RrsetTable } from '../schema.ts'
import type { RrsetFilter, RrsetPageQuery, RrsetSort, RrsetStore, RrsetWrite, Scope, ShownRrset, StoredRrset, WireRrset } from '../store.ts'
import { decodeProfile, decodeTextList, encodeProfile, encodeTextList } from './codec.ts'
import { yieldToLoop } from '../../util/yield.ts'

/** The DNAME type code (RFC 6672). */
const DNAME = 39

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

/** Columns of each order after the zone: every one ends in (owner_key, rrtype), which is unique. */
const ORDER: Record<RrsetSort, readonly ('ttl' | 'rrtype' | 'owner_key' | 'value_key')[]> = {
  OWNER: ['owner_key', 'rrtype'],
  TTL: ['ttl', 'owner_key', 'rrtype'],
  TYPE: ['rrtype', 'owner_key'],
  VALUE: ['value_key', 'owner_key', 'rrtype']
}

/** The columns of a {@link ShownRrset}. */
const SHOWN_COLUMNS = ['owner_key', 'owner_name', 'rrtype', 'ttl', 'rdata_text', 'profile'] as const

/** `LIKE` pattern for a substring, with `%`, `_` and `\` taken literally. */
function containing (text: string): string {
  return '%' + text.toLowerCase().replace(/[\\%_]/g, c => '\\' + c) + '%'
}

/** The first owner key after every key below `ownerKey` (keys of names below it extend it with hex digits). */
function belowEnd (ownerKey: string): string {
  return ownerKey + '~'
}

/** The least owner key of the names below `ownerKey`: theirs go on with a hex digit, and '0' is the least. */
function belowStart (ownerKey: string): string {
  return ownerKey + '0'
}

/** `(owner_key, rrtype)` among these keys, as row values in a VALUES list. */
function ownerTypeIn (keys: ReadonlyArray<{ ownerKey: string, type: number }>): Expression<SqlBool> {
  return sql<SqlBool>`(owner_key, rrtype) in (values ${sql.join(keys.map(k => sql`(${k.ownerKey}, cast(${k.type} as integer))`))})`
}

/** An index range of owner keys: `from` included, `to` not. */
interface OwnerRange { from: string, to: string }

function toRow (zoneId: string, r: StoredRrset, now: string): Omit<RrsetTable, 'id'> {
  const rdataText = encodeTextList(r.rdataText)
  return {
    zone_id: zoneId,
    owner_key: r.ownerKey,
    owner_name: r.ownerName,
    rrtype: r.type,
    ttl: r.ttl,
    rdata_text: rdataText,
    rdata_wire: packRdata(r.rdata),
    profile: encodeProfile(r.profile),
    kind: r.profile?.kind ?? null,
    value_key: (r.rdataText[0] ?? '').slice(0, VALUE_KEY_LENGTH),
    updated_at: now
  }
}

/** The update of a stored rrset to `rrset` (same owner and type). */
function rrsetUpdate (db: QueryCreator<Database>, zoneId: string, rrset: StoredRrset, now: string) {
  const { zone_id: _z, owner_key: _o, rrtype: _t, ...changes } = toRow(zoneId, rrset, now)
  return db.updateTable('rrsets').set(changes)
    .where('zone_id', '=', zoneId).where('owner_key', '=', rrset.ownerKey).where('rrtype', '=', rrset.type)
}

/** The statement of one rrset write of a zone change: an insert, an update or a delete. */
export function rrsetWrite (db: QueryCreator<Database>, zoneId: string, w: RrsetWrite, now: string) {
  if (w.rrset === undefined) {
    return db.deleteFrom('rrsets').where('zone_id', '=', zoneId).where('owner_key', '=', w.ownerKey).where('rrtype', '=', w.type)
  }
  return w.existed ? rrsetUpdate(db, zoneId, w.rrset, now) : db.insertInto('rrsets').values(toRow(zoneId, w.rrset, now))
}

/** A stored rrset from its row (also the rows of zone snapshots, which copy the columns). */
export function rrsetFromRow (r: Omit<RrsetTable, 'id' | 'updated_at'>): StoredRrset {
  return {
    ownerKey: r.owner_key,
    ownerName: r.owner_name,
    type: r.rrtype,
    ttl: Number(r.ttl),
    rdata: unpackRdata(new Uint8Array(r.rdata_wire)),
    rdataText: decodeTextList(r.rdata_text),
    profile: decodeProfile(r.profile)
  }
}

/**
 * The SQL condition of a filter (the zone first, so every query reads one zone's index range);
 * `zone` (the filter's zone id, or a subquery giving it) stands for its `zoneId`.
 */
function matching (f: Omit<RrsetFilter, 'zoneId'>, zone: string | SelectQueryBuilder<Database, 'zones', { id: string }>) {
  return (eb: ExpressionBuilder<Database, 'rrsets'>): Expression<SqlBool> => {
    const terms: Expression<SqlBool>[] = [eb('zone_id', '=', zone)]
    if (f.ownerKey !== undefined) terms.push(eb('owner_key', '=', f.ownerKey))
    if (f.type !== undefined) terms.push(eb('rrtype', '=', f.type))
    if (f.ttl !== undefined) terms.push(eb('ttl', '=', f.ttl))
    if (f.ownerSubstring !== undefined && f.ownerSubstring !== '') {
      terms.push(sql<SqlBool>`lower(owner_name) like ${containing(f.ownerSubstring)} escape '\\'`)
    }
    if (f.valueSubstring !== undefined && f.valueSubstring !== '') {
      // rdata_text is a JSON list: look for the value as JSON spells it (`"` and `\` escaped).
      terms.push(sql<SqlBool>`lower(rdata_text) like ${containing(JSON.stringify(f.valueSubstring).slice(1, -1))} escape '\\'`)
    }
    if (f.hiddenWhenSigned !== undefined && f.hiddenWhenSigned.length > 0) {
      // The zone's state read once per statement (an uncorrelated scalar subquery).
      const signed = eb.selectFrom('zones').select(sql<number>`case when dnssec_status = 'SIGNED' then 1 else 0 end`.as('s')).where('id', '=', zone)
      terms.push(eb.or([eb('rrtype', 'not in', [...f.hiddenWhenSigned]), eb(signed, '=', 0)]))
    }
    const k = f.kinds
    if (k !== undefined) {
      // `kind is not null` spelled out so both engines may read the partial pool index.
      const pools: Expression<SqlBool> | undefined = k.pools === true
        ? eb('kind', 'is not', null)
        : k.pools === false || k.pools.length === 0 ? undefined : eb.and([eb('kind', 'is not', null), eb('kind', 'in', [...k.pools])])
      const records = k.records ? eb('kind', 'is', null) : undefined
      const either = [records, pools].filter(e => e !== undefined)
      terms.push(either.length === 0 ? sql<SqlBool>`1 = 0` : either.length === 1 ? either[0]! : eb.or(either))
    }
    return eb.and(terms)
  }
}

export class SqlRrsetStore implements RrsetStore {
  private readonly db: Kysely<Database>

  constructor (db: Kysely<Database>) {
    this.db = db
  }

  async insertMany (zoneId: string, rrsets: readonly StoredRrset[]): Promise<void> {
    const now = new Date().toISOString()
    for (let i = 0; i < rrsets.length; i += BATCH) {
      // better-sqlite3 runs each statement synchronously: between batches, let the event loop
      // answer (HTTP, DNS, timers) so a large zone's insert never holds it for long. The
      // transaction stays open; nobody else sees its rows before it commits.
      if (i > 0) await yieldToLoop()
      await this.db.insertInto('rrsets').values(rrsets.slice(i, i + BATCH).map(r => toRow(zoneId, r, now))).execute()
    }
  }

  async deleteAll (zoneId: string): Promise<void> {
    await this.db.deleteFrom('rrsets').where('zone_id', '=', zoneId).execute()
  }

  async replace (zoneId: string, rrset: StoredRrset): Promise<void> {
    const updated = await rrsetUpdate(this.db, zoneId, rrset, new Date().toISOString()).executeTakeFirst()
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto('rrsets').values(toRow(zoneId, rrset, new Date().toISOString())).execute()
  }

  async list (zoneId: string, limit: number, after?: { ownerKey: string, type: number }): Promise<StoredRrset[]> {
    const rows = await this.page(this.db.selectFrom('rrsets').selectAll(), zoneId, limit, after)
    return rows.map(rrsetFromRow)
  }

  async listWire (zoneId: string, limit: number, after?: { ownerKey: string, type: number }): Promise<WireRrset[]> {
    const rows = await this.page(this.db.selectFrom('rrsets').select(['owner_key', 'owner_name', 'rrtype', 'ttl', 'rdata_wire', 'profile']), zoneId, limit, after)
    return rows.map(r => ({ ownerKey: r.owner_key, ownerName: r.owner_name, type: r.rrtype, ttl: Number(r.ttl), rdata: unpackRdata(r.rdata_wire), profile: decodeProfile(r.profile) }))
  }

  /** One keyset page of a zone's rrsets in canonical order, after a position, within `range` when given. */
  private async page<O> (select: SelectQueryBuilder<Database, 'rrsets', O>, zoneId: string, limit: number, after?: { ownerKey: string, type: number }, range?: OwnerRange): Promise<O[]> {
    let q = select.where('zone_id', '=', zoneId)
    if (range !== undefined) q = q.where('owner_key', '>=', range.from).where('owner_key', '<', range.to)
    if (after !== undefined) {
      // The `>=` term lets both engines start the index range at the position (without it
      // SQLite reads the zone from its start on every page).
      q = q.where('owner_key', '>=', after.ownerKey).where(eb => eb.or([
        eb('owner_key', '>', after.ownerKey),
        eb.and([eb('owner_key', '=', after.ownerKey), eb('rrtype', '>', after.type)])
      ]))
    }
    return await q.orderBy('owner_key').orderBy('rrtype').limit(limit).execute()
  }

  async countRecords (zoneId: string): Promise<number> {
    const rows = await this.db.selectFrom('rrsets').select('rdata_text').where('zone_id', '=', zoneId).execute()
    let n = 0
    for (const r of rows) n += decodeTextList(r.rdata_text).length
    return n
  }

  async get (zoneId: string, ownerKey: string, type: number): Promise<StoredRrset | undefined> {
    const row = await this.db.selectFrom('rrsets').selectAll()
      .where('zone_id', '=', zoneId).where('owner_key', '=', ownerKey).where('rrtype', '=', type)
      .executeTakeFirst()
    return row === undefined ? undefined : rrsetFromRow(row)
  }

  async getMany (zoneId: string, keys: ReadonlyArray<{ ownerKey: string, type: number }>): Promise<Array<StoredRrset | undefined>> {
    if (keys.length === 0) return []
    const found = new Map<string, StoredRrset>()
    for (let i = 0; i < keys.length; i += BATCH) {
      // Row values in a VALUES list, as deleteMany: one index lookup per key (an OR of the keys
      // made SQLite read the zone's whole index range once there were three or more).
      const rows = await this.db.selectFrom('rrsets').selectAll()
        .where('zone_id', '=', zoneId)
        .where(ownerTypeIn(keys.slice(i, i + BATCH)))
        .execute()
      for (const row of rows) found.set(`${row.owner_key}/${row.rrtype}`, rrsetFromRow(row))
    }
    return keys.map(k => found.get(`${k.ownerKey}/${k.type}`))
  }

  async listPage (query: RrsetPageQuery): Promise<StoredRrset[]> {
    const dir = query.reverse ? 'desc' : 'asc'
    let q = this.db.selectFrom('rrsets').selectAll().where(matching(query, query.zoneId))
    for (const col of ORDER[query.sort]) q = q.orderBy(col, dir)
    if (query.offset > 0) q = q.offset(query.offset)
    return (await q.limit(query.limit).execute()).map(rrsetFromRow)
  }

  async countPage (filter: RrsetFilter): Promise<number> {
    const r = await this.db.selectFrom('rrsets').select(eb => eb.fn.countAll<number>().as('n')).where(matching(filter, filter.zoneId)).executeTakeFirstOrThrow()
    return Number(r.n)
  }

  async pageOfZone (zoneName: string, scope: Scope, query: Omit<RrsetPageQuery, 'zoneId'>): Promise<{ rrsets: ShownRrset[], total: number } | undefined> {
    if (scope.accountIds.length === 0) return undefined
    // The zone's id as a scalar subquery, and the count as another (neither refers to the outer
    // row: both engines compute each once per statement).
    const zone = this.db.selectFrom('zones').select('id')
      .where('name', '=', zoneName).where('account_id', 'in', [...scope.accountIds]).where('zone_type', '<>', 'ALIAS')
    const filter = matching(query, zone)
    const count = this.db.selectFrom('rrsets').select(eb => eb.fn.countAll<number>().as('n')).where(filter)
    const dir = query.reverse ? 'desc' : 'asc'
    let q = this.db.selectFrom('rrsets').select(SHOWN_COLUMNS).select(count.as('total')).where(filter)
    for (const col of ORDER[query.sort]) q = q.orderBy(col, dir)
    if (query.offset > 0) q = q.offset(query.offset)
    const rows = await q.limit(query.limit).execute()
    if (rows.length === 0) return undefined
    return {
      rrsets: rows.map(r => ({ ownerKey: r.owner_key, ownerName: r.owner_name, type: r.rrtype, ttl: Number(r.ttl), rdataText: decodeTextList(r.rdata_text), profile: decodeProfile(r.profile) })),
      total: Number(rows[0]!.total)
    }
  }

  async delete (zoneId: string, ownerKey: string, type: number): Promise<boolean> {
    const r = await this.db.deleteFrom('rrsets')
      .where('zone_id', '=', zoneId).where('owner_key', '=', ownerKey).where('rrtype', '=', type)
      .executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }

  async placement (zoneId: string, ownerKey: string, above: readonly string[]): Promise<{ types: number[], dnames: Set<string> }> {
    const rows = await this.db.selectFrom('rrsets').select(['owner_key', 'rrtype'])
      .where('zone_id', '=', zoneId)
      .where(eb => above.length === 0
        ? eb('owner_key', '=', ownerKey)
        : eb.or([eb('owner_key', '=', ownerKey), eb.and([eb('rrtype', '=', DNAME), eb('owner_key', 'in', [...above])])]))
      .orderBy('rrtype')
      .execute()
    return {
      types: rows.filter(r => r.owner_key === ownerKey).map(r => r.rrtype),
      dnames: new Set(rows.filter(r => r.owner_key !== ownerKey && r.rrtype === DNAME).map(r => r.owner_key))
    }
  }

  async readForChange (zoneId: string, keys: ReadonlyArray<{ ownerKey: string, type: number }>, ownerKey: string, above: readonly string[]): Promise<{ rrsets: Array<StoredRrset | undefined>, types: number[], dnames: Set<string> }> {
    const rows = await this.db.selectFrom('rrsets').selectAll()
      .where('zone_id', '=', zoneId)
      .where(eb => eb.or([
        eb('owner_key', '=', ownerKey),
        ...keys.map(k => eb.and([eb('owner_key', '=', k.ownerKey), eb('rrtype', '=', k.type)])),
        ...(above.length === 0 ? [] : [eb.and([eb('rrtype', '=', DNAME), eb('owner_key', 'in', [...above])])])
      ]))
      .orderBy('rrtype')
      .execute()
    return {
      rrsets: keys.map(k => {
        const row = rows.find(r => r.owner_key === k.ownerKey && r.rrtype === k.type)
        return row === undefined ? undefined : rrsetFromRow(row)
      }),
      types: rows.filter(r => r.owner_key === ownerKey).map(r => r.rrtype),
      dnames: new Set(rows.filter(r => r.owner_key !== ownerKey && r.rrtype === DNAME && above.includes(r.owner_key)).map(r => r.owner_key))
    }
  }

  async typesAt (zoneId: string, ownerKey: string): Promise<number[]> {
    const rows = await this.db.selectFrom('rrsets').select('rrtype')
      .where('zone_id', '=', zoneId).where('owner_key', '=', ownerKey)
      .orderBy('rrtype').execute()
    return rows.map(r => r.rrtype)
  }

  async hasBelow (zoneId: string, ownerKey: string): Promise<boolean> {
    const row = await this.db.selectFrom('rrsets').select('rrtype')
      .where('zone_id', '=', zoneId).where('owner_key', '>', ownerKey).where('owner_key', '<', belowEnd(ownerKey))
      .limit(1).executeTakeFirst()
    return row !== undefined
  }

  async ownerTypesAt (zoneId: string, ownerKeys: readonly string[], exceptTypes: readonly number[]): Promise<Array<{ ownerKey: string, ownerName: string, type: number }>> {
    const out: Array<{ ownerKey: string, ownerName: string, type: number }> = []
    for (let i = 0; i < ownerKeys.length; i += BATCH) {
      let q = this.db.selectFrom('rrsets').select(['owner_key', 'owner_name', 'rrtype'])
        .where('zone_id', '=', zoneId).where('owner_key', 'in', ownerKeys.slice(i, i + BATCH))
      if (exceptTypes.length > 0) q = q.where('rrtype', 'not in', [...exceptTypes])
      for (const r of await q.orderBy('owner_key').orderBy('rrtype').execute()) out.push({ ownerKey: r.owner_key, ownerName: r.owner_name, type: Number(r.rrtype) })
    }
    return out
  }

  async ownerTypesBelow (zoneId: string, ownerKey: string, exceptTypes: readonly number[], limit: number, after?: { ownerKey: string, type: number }): Promise<Array<{ ownerKey: string, ownerName: string, type: number }>> {
    let select = this.db.selectFrom('rrsets').select(['owner_key', 'owner_name', 'rrtype'])
    if (exceptTypes.length > 0) select = select.where('rrtype', 'not in', [...exceptTypes])
    const rows = await this.page(select, zoneId, limit, after, { from: belowStart(ownerKey), to: belowEnd(ownerKey) })
    return rows.map(r => ({ ownerKey: r.owner_key, ownerName: r.owner_name, type: Number(r.rrtype) }))
  }

  async listWireSubtree (zoneId: string, ownerKey: string, limit: number, after?: { ownerKey: string, type: number }): Promise<WireRrset[]> {
    const rows = await this.page(this.db.selectFrom('rrsets').select(['owner_key', 'owner_name', 'rrtype', 'ttl', 'rdata_wire', 'profile']), zoneId, limit, after, { from: ownerKey, to: belowEnd(ownerKey) })
    return rows.map(r => ({ ownerKey: r.owner_key, ownerName: r.owner_name, type: r.rrtype, ttl: Number(r.ttl), rdata: unpackRdata(r.rdata_wire), profile: decodeProfile(r.profile) }))
  }

  async precedingOwners (zoneId: string, type: number, ownerKeys: readonly string[]): Promise<Array<string | undefined>> {
    const out: Array<string | undefined> = []
    for (let i = 0; i < ownerKeys.length; i += BATCH) {
      const batch = ownerKeys.slice(i, i + BATCH)
      // One scalar subquery per key, each a reverse step on the (zone, type, owner) index.
      const row = await this.db.selectNoFrom(eb => batch.map((key, j) => eb.selectFrom('rrsets').select('owner_key')
        .where('zone_id', '=', zoneId).where('rrtype', '=', type).where('owner_key', '<', key)
        .orderBy('owner_key', 'desc').limit(1).as(`p${j}`))).executeTakeFirstOrThrow() as Record<string, string | null>
      for (let j = 0; j < batch.length; j++) out.push(row[`p${j}`] ?? undefined)
    }
    return out
  }

  async lastOwnerOf (zoneId: string, type: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('rrsets').select('owner_key')
      .where('zone_id', '=', zoneId).where('rrtype', '=', type)
      .orderBy('owner_key', 'desc').limit(1).executeTakeFirst()
    return row?.owner_key
  }

  async deleteMany (zoneId: string, keys: ReadonlyArray<{ ownerKey: string, type: number }>): Promise<void> {
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = keys.slice(i, i + BATCH)
      await this.db.deleteFrom('rrsets')
        .where('zone_id', '=', zoneId)
        // Row values in a VALUES list: both engines read the (zone, owner, type) index per key.
        .where(ownerTypeIn(batch))
        .execute()
      await new Promise(resolve => setImmediate(resolve))
    }
  }
}
