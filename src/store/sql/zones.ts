import { randomUUID } from 'node:crypto'
import { sql, type Kysely, type QueryCreator, type SelectQueryBuilder } from 'kysely'
import { ZonalError } from '../../errors/catalog.ts'
import type { Engine } from '../engine.ts'
import type { Database, ZoneRow } from '../schema.ts'
import type { ListedZone, NewZone, Scope, Zone, ZoneChanges, ZoneDataChange, ZoneVersion, ZoneFilter, ZoneListQuery, ZoneSort, ZoneStore, ZoneWithAccount } from '../store.ts'
import { auditRow, SqlAuditStore } from './audit.ts'
import { decodeTextList, decodeZone, encodeSettings, newSettingsColumns, reversedName } from './codec.ts'
import { rrsetWrite } from './rrsets.ts'
import { journalRow, journalTrim, SqlZoneChangeStore, TRIM_EVERY } from './zone-changes.ts'

/** The column each list order sorts by (then by name, which is unique). */
const SORT_COLUMN: Record<ZoneSort, 'z.name' | 'z.account_name_key' | 'z.record_count' | 'z.zone_type'> = {
  NAME: 'z.name',
  ACCOUNT_NAME: 'z.account_name_key',
  RECORD_COUNT: 'z.record_count',
  ZONE_TYPE: 'z.zone_type'
}

/** The columns of a {@link ListedZone}: no settings kept as JSON (a page of 1,000 zones parses less). */
const LISTED_COLUMNS = ['z.id', 'z.account_id', 'z.name', 'z.zone_type', 'z.status', 'z.dnssec_status', 'z.owner', 'z.serial', 'z.version',
  'z.record_count', 'z.mail_monitor', 'z.cert_enabled', 'z.valimail_monitor', 'z.network2', 'z.original_zone_id', 'z.account_name_key',
  'z.name_reversed', 'z.created_at', 'z.updated_at'] as const

const VERSION_COLUMNS = ['id', 'name', 'zone_type', 'status', 'version', 'serial', 'original_zone_id'] as const

type ZoneRowWithAccount = ZoneRow & { account_name: string }
type ZoneQuery = SelectQueryBuilder<Database & { z: ZoneRow, a: Database['accounts'] }, 'z' | 'a', ZoneRowWithAccount>

const decoded = (row: ZoneRowWithAccount | undefined): ZoneWithAccount | undefined => row === undefined ? undefined : decodeZone(row)

/** Index hints of a list query (SQLite only; see `SqlZoneStore.listHints`). */
interface ListHints {
  hideScope: boolean
  hideStatus: boolean
}
const NO_HINTS: ListHints = { hideScope: false, hideStatus: false }
/** The PostgreSQL advisory lock key zone creations share (`othersAround`). */
const ZONE_NAMES_LOCK = 0x7a6e_616d

/** From this many zones in the caller's accounts, a sorted page walks the order index. */
const LARGE_SCOPE = 10_000

export class SqlZoneStore implements ZoneStore {
  private readonly db: Kysely<Database>
  private readonly engine: Engine
  /** Told of every zone created, changed or deleted (the DNS index follows). */
  /** Announces a changed zone (`announced`: the statement that changed it did already). */
  private readonly touched: (zoneId: string, announced?: boolean) => Promise<void>

  constructor (
    db: Kysely<Database>,
    engine: Engine,
    touched: (zoneId: string, announced?: boolean) => Promise<void> = async () => {}
  ) {
    this.db = db
    this.engine = engine
    this.touched = touched
  }

  async create (zone: NewZone): Promise<Zone> {
    const now = new Date().toISOString()
    const row: ZoneRow = {
      id: randomUUID(),
      account_id: zone.accountId,
      name: zone.name,
      zone_type: zone.type,
      status: zone.status ?? 'ACTIVE',
      dnssec_status: 'UNSIGNED',
      owner: zone.owner ?? '',
      serial: zone.serial ?? 0,
      version: 1,
      record_count: zone.recordCount ?? 0,
      network2: 0,
      ...newSettingsColumns(zone.settings),
      original_zone_id: zone.originalZoneId ?? null,
      account_name_key: zone.accountNameKey,
      name_reversed: reversedName(zone.name),
      created_at: now,
      updated_at: now
    }
    try {
      await this.db.insertInto('zones').values(row).execute()
    } catch (err) {
      if (this.engine.isUniqueViolation(err)) throw new ZonalError('ZONE_ALREADY_EXISTS')
      throw err
    }
    await this.touched(row.id)
    return decodeZone(row)
  }

  private base (): ZoneQuery {
    return this.db.selectFrom('zones as z')
      .innerJoin('accounts as a', 'a.id', 'z.account_id')
      .selectAll('z')
      .select('a.name as account_name') as unknown as ZoneQuery
  }

  async findByName (name: string, scope: Scope): Promise<ZoneWithAccount | undefined> {
    if (scope.accountIds.length === 0) return undefined
    return decoded(await this.base().where('z.name', '=', name).where('z.account_id', 'in', scope.accountIds).executeTakeFirst())
  }

  async findWithApex (name: string, scope: Scope, apexKey: string, type: number): Promise<{ zone: ZoneWithAccount, apexRdataText: string[] | undefined } | undefined> {
    if (scope.accountIds.length === 0) return undefined
    const apex = this.db.selectFrom('rrsets as r').select('r.rdata_text')
      .whereRef('r.zone_id', '=', sql.ref('z.id')).where('r.owner_key', '=', apexKey).where('r.rrtype', '=', type)
    const row = await this.base().select(apex.as('apex_rdata_text') as never)
      .where('z.name', '=', name).where('z.account_id', 'in', scope.accountIds).executeTakeFirst() as (ZoneRowWithAccount & { apex_rdata_text?: string | null }) | undefined
    if (row === undefined) return undefined
    const { apex_rdata_text: text, ...zone } = row
    return { zone: decodeZone(zone), apexRdataText: text === null || text === undefined ? undefined : decodeTextList(text) }
  }

  async exists (name: string): Promise<boolean> {
    return (await this.db.selectFrom('zones').select('id').where('name', '=', name).executeTakeFirst()) !== undefined
  }

  async othersAround (name: string, ancestors: readonly string[], accountId: string, limit: number): Promise<Array<{ name: string, accountId: string }>> {
    if (this.engine.name === 'postgres') await sql`select pg_advisory_xact_lock(${ZONE_NAMES_LOCK})`.execute(this.db)
    // Names below `name` start, reversed, with `reversed + '.'`: the range up to the next character ('.' + 1 is '/').
    const below = name === '.' ? '.' : reversedName(name) + '.'
    const end = below.slice(0, -1) + '/'
    const rows = await this.db.selectFrom('zones').select(['name', 'account_id'])
      .where('account_id', '<>', accountId)
      .where(eb => eb.or([
        eb.and([eb('name_reversed', '>=', below), eb('name_reversed', '<', end)]),
        ...(ancestors.length === 0 ? [] : [eb('name', 'in', [...ancestors])])
      ]))
      .limit(limit)
      .execute()
    return rows.map(r => ({ name: r.name, accountId: r.account_id }))
  }

  async findById (id: string): Promise<ZoneWithAccount | undefined> {
    return decoded(await this.base().where('z.id', '=', id).executeTakeFirst())
  }

  async lockById (id: string): Promise<ZoneWithAccount | undefined> {
    const q = this.base().where('z.id', '=', id)
    return decoded(await (this.engine.name === 'postgres' ? q.forUpdate('z') : q).executeTakeFirst())
  }

  async lockByName (name: string, scope: Scope): Promise<ZoneWithAccount | undefined> {
    if (scope.accountIds.length === 0) return undefined
    const q = this.base().where('z.name', '=', name).where('z.account_id', 'in', scope.accountIds)
    return decoded(await (this.engine.name === 'postgres' ? q.forUpdate('z') : q).executeTakeFirst())
  }

  /** The update of {@link update}, returning the new row (and announcing the zone where the engine can). */
  private updateQuery (db: QueryCreator<Database>, id: string, changes: ZoneChanges, now: string) {
    const { settings, ...columns } = changes
    const q = db.updateTable('zones')
      .set(eb => ({ ...columns, ...encodeSettings(settings ?? {}), version: eb('version', '+', 1), updated_at: now }))
      .where('id', '=', id)
      .returningAll()
    // The announcement rides on the update where the engine can (one round trip less).
    const announcement = this.engine.zoneAnnouncement?.(id)
    return announcement === undefined ? q : q.returning(announcement.as('announced'))
  }

  /** The zone row an update returned: announced, decoded. */
  private async updated (id: string, row: ZoneRow | undefined): Promise<Zone> {
    if (row === undefined) throw new ZonalError('ZONE_NOT_FOUND')
    const announced = this.engine.zoneAnnouncement !== undefined
    await this.touched(id, announced)
    if (announced) delete (row as { announced?: unknown }).announced
    return decodeZone(row)
  }

  async update (id: string, changes: ZoneChanges): Promise<Zone> {
    return await this.updated(id, await this.updateQuery(this.db, id, changes, new Date().toISOString()).executeTakeFirst())
  }

  async writeChange (id: string, change: ZoneDataChange): Promise<Zone> {
    const now = new Date()
    const iso = now.toISOString()
    if (this.engine.name !== 'postgres') {
      for (const w of change.rrsets) await rrsetWrite(this.db, id, w, iso).execute()
      const zone = await this.update(id, change.zone)
      await new SqlZoneChangeStore(this.db).append(id, { ...change.journal, version: zone.version })
      if (change.audit !== undefined) await new SqlAuditStore(this.db, this.engine.name).append(change.audit)
      return zone
    }
    // One statement: each write a common table expression of its own (PostgreSQL runs them all,
    // on one snapshot; none of them touches a row another one does), the journal entry taking the
    // version from the zone update's RETURNING.
    let q: QueryCreator<Database> = this.db
    change.rrsets.forEach((w, i) => { q = q.with(`r${i}`, db => rrsetWrite(db, id, w, iso)) as unknown as QueryCreator<Database> })
    q = q.with('u', db => this.updateQuery(db, id, change.zone, iso)) as unknown as QueryCreator<Database>
    const version = sql<number>`(select version from u)`
    q = q.with('j', db => db.insertInto('zone_changes').values(journalRow(id, change.journal, version, now))) as unknown as QueryCreator<Database>
    q = q.with('t', db => journalTrim(db, id, version, now).where(sql<boolean>`${version} % ${TRIM_EVERY} = 0`)) as unknown as QueryCreator<Database>
    if (change.audit !== undefined) {
      const audit = change.audit
      q = q.with('a', db => db.insertInto('audit_records').values(auditRow(audit))) as unknown as QueryCreator<Database>
    }
    const last = q as unknown as QueryCreator<Database & { u: ZoneRow }>
    return await this.updated(id, await last.selectFrom('u').selectAll().executeTakeFirst())
  }

  async deleteById (id: string): Promise<void> {
    await this.db.deleteFrom('rrsets').where('zone_id', '=', id).execute()
    await this.db.deleteFrom('zone_changes').where('zone_id', '=', id).execute()
    await this.db.deleteFrom('zone_snapshot_rrsets').where('zone_id', '=', id).execute()
    await this.db.deleteFrom('zone_snapshots').where('zone_id', '=', id).execute()
    await this.db.deleteFrom('web_forwards').where('zone_id', '=', id).execute()
    await this.db.deleteFrom('zones').where('id', '=', id).execute()
    await this.touched(id)
  }

  async delete (name: string, scope: Scope): Promise<boolean> {
    const zone = await this.findByName(name, scope)
    if (zone === undefined) return false
    await this.deleteById(zone.id)
    return true
  }

  async aliasesOf (zoneId: string): Promise<Zone[]> {
    return (await this.db.selectFrom('zones').selectAll().where('original_zone_id', '=', zoneId).orderBy('name').execute()).map(decodeZone)
  }

  /**
   * The zones of `scope` matching `filter`. `hints` keep the scope or status term off an index on
   * SQLite (`+column`, SQLite's documented way to do that): see {@link listHints}.
   */
  private filtered (scope: Scope, filter: ZoneFilter, hints: ListHints = NO_HINTS): ZoneQuery {
    let q = hints.hideScope
      ? this.base().where(sql<boolean>`+z.account_id in (${sql.join(scope.accountIds)})`)
      : this.base().where('z.account_id', 'in', scope.accountIds)
    if (filter.name !== undefined && filter.name !== '') {
      const pattern = '%' + filter.name.replace(/[\\%_]/g, c => '\\' + c) + '%'
      q = q.where(sql<boolean>`z.name like ${pattern} escape '\\'`)
    }
    if (filter.type !== undefined) q = q.where('z.zone_type', '=', filter.type)
    if (filter.status !== undefined) {
      q = hints.hideStatus ? q.where(sql<boolean>`+z.status = ${filter.status}`) : q.where('z.status', '=', filter.status)
    }
    if (filter.accountNameKey !== undefined) q = q.where('z.account_name_key', '=', filter.accountNameKey)
    if (filter.network2 !== undefined) q = q.where('z.network2', '=', filter.network2 ? 1 : 0)
    if (filter.dnssecStatus !== undefined) q = q.where('z.dnssec_status', '=', filter.dnssecStatus)
    return q
  }

  /**
   * SQLite plans without statistics and takes any equality on an indexed column for a selective
   * one, so it would read the list through the status index (or the account index) and sort every
   * zone of the caller for each page. The status term never narrows much, so it is always kept off
   * its index; the account term is kept off too when the caller's accounts hold many zones and the
   * order is not by name (the account index already reads in name order), so the page is read along
   * the index of the sort order and stops after `limit` rows. A small scope keeps the account index:
   * sorting a few thousand rows beats walking the whole order index past other accounts' zones.
   * PostgreSQL keeps statistics and plans this itself.
   */
  private async listHints (query: ZoneListQuery): Promise<ListHints> {
    if (this.engine.name !== 'sqlite') return NO_HINTS
    if (query.sort === 'NAME') return { hideStatus: true, hideScope: false }
    const probe = this.db.selectFrom('zones').select(sql.lit(1).as('one')).where('account_id', 'in', query.scope.accountIds).limit(LARGE_SCOPE)
    const { n } = await this.db.selectFrom(probe.as('s')).select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    return { hideStatus: true, hideScope: Number(n) >= LARGE_SCOPE }
  }

  /**
   * One page of the zone list. Keyset paging (STYLE: cost independent of depth): the order is
   * (sort column, name), and `after`/`before` are positions in that order, compared as row values
   * so both engines read them as one index range. `before: 'end'` reads the last page.
   */
  async list (query: ZoneListQuery): Promise<ListedZone[]> {
    if (query.scope.accountIds.length === 0) return []
    const col = SORT_COLUMN[query.sort]
    const backwards = query.before !== undefined
    // Reading backwards flips the order, then the page is flipped back.
    const descending = query.reverse !== backwards
    const dir = descending ? 'desc' : 'asc'
    let q = this.filtered(query.scope, query.filter, await this.listHints(query))
    const pos = query.after ?? (query.before === 'end' ? undefined : query.before)
    if (pos !== undefined) {
      const cmp = descending ? '<' : '>'
      q = col === 'z.name'
        ? q.where('z.name', cmp, pos.name)
        : q.where(eb => eb(eb.refTuple(col, 'z.name'), cmp, eb.tuple(pos.value as never, pos.name)))
    }
    q = col === 'z.name' ? q.orderBy('z.name', dir) : q.orderBy(col, dir).orderBy('z.name', dir)
    if (query.offset !== undefined && query.offset > 0) q = q.offset(query.offset)
    const page = q.clearSelect().select(LISTED_COLUMNS).select('a.name as account_name').limit(query.limit)
    const rows = (await page.execute()).map(({ mail_monitor: m, cert_enabled: c, valimail_monitor: v, ...row }) => ({
      ...row,
      settings: { mailMonitor: Number(m) === 1, certEnabled: Number(c) === 1, valimailMonitor: Number(v) === 1 }
    }))
    return backwards ? rows.reverse() : rows
  }

  async versions (): Promise<ZoneVersion[]> {
    return await this.db.selectFrom('zones').select(VERSION_COLUMNS).execute()
  }

  async versionsOf (ids: readonly string[]): Promise<ZoneVersion[]> {
    if (ids.length === 0) return []
    return await this.db.selectFrom('zones').select(VERSION_COLUMNS)
      .where(eb => eb.or([eb('id', 'in', [...ids]), eb('original_zone_id', 'in', [...ids])]))
      .execute()
  }

  async count (scope: Scope, filter: ZoneFilter): Promise<number> {
    if (scope.accountIds.length === 0) return 0
    const r = await this.filtered(scope, filter).clearSelect().select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    return Number((r as unknown as { n: number }).n)
  }
}
