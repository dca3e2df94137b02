import type { Kysely, Selectable } from 'kysely'
import type { ForwardAlternative, ForwardMode, RelativeMode } from '../../forwards/model.ts'
import type { Database, WebForwardTable } from '../schema.ts'
import type { StoredWebForward, WebForwardStore } from '../store.ts'

type Row = Selectable<WebForwardTable> & { zone_name: string }

function modeOf (text: string): ForwardMode {
  return text === 'framed' ? 'framed' : Number(text) as ForwardMode
}

function forwardOf (r: Row): StoredWebForward {
  return {
    id: r.id,
    zoneId: r.zone_id,
    zone: r.zone_name,
    requestTo: r.request_to,
    requestKey: r.request_key,
    host: r.host,
    ownerKey: r.owner_key,
    path: r.path,
    anchor: r.anchor,
    redirectTo: r.redirect_to,
    mode: modeOf(r.mode),
    relative: r.relative as RelativeMode,
    alternatives: (JSON.parse(r.alternatives) as Array<Omit<ForwardAlternative, 'mode'> & { mode: string }>).map(a => ({ ...a, mode: modeOf(a.mode) }))
  }
}

function columns (f: StoredWebForward): Omit<WebForwardTable, 'id' | 'zone_id' | 'created_at' | 'modified_at'> {
  return {
    request_to: f.requestTo,
    request_key: f.requestKey,
    host: f.host,
    owner_key: f.ownerKey,
    path: f.path,
    anchor: f.anchor,
    redirect_to: f.redirectTo,
    mode: String(f.mode),
    relative: f.relative,
    alternatives: JSON.stringify(f.alternatives.map(a => ({ ...a, mode: String(a.mode) })))
  }
}

/** Web forwards and custom header names (migration 0024). */
export class SqlWebForwardStore implements WebForwardStore {
  private readonly db: Kysely<Database>

  constructor (db: Kysely<Database>) {
    this.db = db
  }

  private base () {
    return this.db.selectFrom('web_forwards as w').innerJoin('zones as z', 'z.id', 'w.zone_id').selectAll('w').select('z.name as zone_name')
  }

  async list (zoneId: string): Promise<StoredWebForward[]> {
    return (await this.base().where('w.zone_id', '=', zoneId).orderBy('w.request_key').orderBy('w.id').execute()).map(forwardOf)
  }

  async find (zoneId: string, id: string): Promise<StoredWebForward | undefined> {
    const r = await this.base().where('w.zone_id', '=', zoneId).where('w.id', '=', id).executeTakeFirst()
    return r === undefined ? undefined : forwardOf(r)
  }

  async findByRequest (zoneId: string, requestKey: string): Promise<StoredWebForward | undefined> {
    const r = await this.base().where('w.zone_id', '=', zoneId).where('w.request_key', '=', requestKey).executeTakeFirst()
    return r === undefined ? undefined : forwardOf(r)
  }

  async count (zoneId: string): Promise<number> {
    const r = await this.db.selectFrom('web_forwards').select(eb => eb.fn.countAll().as('n')).where('zone_id', '=', zoneId).executeTakeFirst()
    return Number(r?.n ?? 0)
  }

  async countAtHost (zoneId: string, ownerKey: string): Promise<number> {
    const r = await this.db.selectFrom('web_forwards').select(eb => eb.fn.countAll().as('n')).where('zone_id', '=', zoneId).where('owner_key', '=', ownerKey).executeTakeFirst()
    return Number(r?.n ?? 0)
  }

  async insert (f: StoredWebForward, at: string): Promise<void> {
    await this.db.insertInto('web_forwards').values({ id: f.id, zone_id: f.zoneId, ...columns(f), created_at: at, modified_at: at }).execute()
  }

  async replace (f: StoredWebForward, at: string): Promise<boolean> {
    const r = await this.db.updateTable('web_forwards').set({ ...columns(f), modified_at: at }).where('zone_id', '=', f.zoneId).where('id', '=', f.id).executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }

  async delete (zoneId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('web_forwards').where('zone_id', '=', zoneId).where('id', '=', id).executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }

  async page (limit: number, after?: string): Promise<StoredWebForward[]> {
    let q = this.base()
    if (after !== undefined) q = q.where('w.id', '>', after)
    return (await q.orderBy('w.id').limit(limit).execute()).map(forwardOf)
  }

  async headers (accountId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('custom_headers').select('name').where('account_id', '=', accountId).orderBy('name_key').execute()
    return rows.map(r => r.name)
  }

  async addHeaders (accountId: string, names: readonly string[], at: string): Promise<string[]> {
    const added: string[] = []
    for (const name of names) {
      const r = await this.db.insertInto('custom_headers').values({ account_id: accountId, name_key: name.toLowerCase(), name, created_at: at })
        .onConflict(oc => oc.columns(['account_id', 'name_key']).doNothing()).executeTakeFirst()
      if (Number(r.numInsertedOrUpdatedRows ?? 0) > 0) added.push(name)
    }
    return added
  }

  async deleteHeader (accountId: string, name: string): Promise<boolean> {
    const r = await this.db.deleteFrom('custom_headers').where('account_id', '=', accountId).where('name_key', '=', name.toLowerCase()).executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }
}
