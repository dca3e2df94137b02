import { sql, type Kysely } from 'kysely'
import { PLAN_EACH_TIME, type Engine } from '../engine.ts'
import type { Database } from '../schema.ts'
import type {
  ClientNetworkQuery, ClientNetworkRow, ClientResponseQuery, ClientResponseReportRow, ClientResponseRow, ClientResponseStore, ClientTrafficQuery, ClientZoneCountries
} from '../store.ts'

/** Rows per INSERT (PostgreSQL): 9 parameters a row stays far below its limit. */
const ROWS_PER_STATEMENT = 500
/** SQLite: one prepared statement a row (`Engine.runEach`). */
const UPSERT_ONE = 'insert into client_responses (day, zone, client_ip, node, country, region, city, class_c, responses) values (?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
  'on conflict (day, zone, client_ip, node, country, region, city) do update set responses = client_responses.responses + excluded.responses'

export class SqlClientResponseStore implements ClientResponseStore {
  private readonly db: Kysely<Database>
  private readonly inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>
  private readonly engine: Engine

  /** `inTransaction` runs its function in one write transaction (the current one inside a transaction). */
  constructor (db: Kysely<Database>, inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>, engine: Engine) {
    this.db = db
    this.inTransaction = inTransaction
    this.engine = engine
  }

  async add (rows: readonly ClientResponseRow[]): Promise<void> {
    if (rows.length === 0) return
    await this.inTransaction(async (db) => {
      const runEach = this.engine.runEach
      if (runEach !== undefined) {
        runEach(UPSERT_ONE, rows.map(r => [r.day, r.zone, r.clientIp, r.node, r.country, r.region, r.city, r.classC, r.responses]))
        return
      }
      for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
        const values = rows.slice(from, from + ROWS_PER_STATEMENT).map(r => ({
          day: r.day,
          zone: r.zone,
          client_ip: r.clientIp,
          node: r.node,
          country: r.country,
          region: r.region,
          city: r.city,
          class_c: r.classC,
          responses: r.responses
        }))
        await db.insertInto('client_responses').values(values)
          .onConflict(oc => oc.columns(['day', 'zone', 'client_ip', 'node', 'country', 'region', 'city'])
            .doUpdateSet({ responses: sql`${sql.ref('client_responses.responses')} + ${sql.ref('excluded.responses')}` }))
          .execute()
      }
    })
  }

  async report (q: ClientResponseQuery): Promise<ClientResponseReportRow[]> {
    if (q.accountIds.length === 0) return []
    let query = this.db.selectFrom('client_responses as c')
      .innerJoin('zones as z', join => join.onRef('z.name', '=', 'c.zone').on('z.account_id', 'in', [...q.accountIds]))
      .where('c.class_c', '=', q.classC)
      .where('c.day', '>=', q.from)
      .where('c.day', '<=', q.to)
    if (q.zone !== undefined) query = query.where('c.zone', '=', q.zone)
    if (q.clientIp !== undefined) query = query.where('c.client_ip', '=', q.clientIp)
    if (q.country !== undefined) query = query.where('c.country', '=', q.country.toLowerCase())
    if (q.region !== undefined) query = query.where('c.region', '=', q.region.toLowerCase())
    if (q.city !== undefined) query = query.where('c.city', '=', q.city.toLowerCase())
    const rows = await query
      .select(['z.account_id', 'c.class_c', 'c.client_ip', 'c.country', 'c.region', 'c.city', 'c.node'])
      .select(eb => [
        eb.fn.min('c.day').as('first_day'),
        eb.fn.max('c.day').as('last_day'),
        eb.fn.sum<string | number>('c.responses').as('responses')
      ])
      .groupBy(['z.account_id', 'c.class_c', 'c.client_ip', 'c.country', 'c.region', 'c.city', 'c.node'])
      // Addresses of one /24 share their first three octets: by length, then text, is numeric order.
      .orderBy(sql`length(c.client_ip)`)
      .orderBy('c.client_ip')
      .orderBy('c.node')
      .orderBy('c.country')
      .orderBy('c.region')
      .orderBy('c.city')
      .orderBy('z.account_id')
      .limit(q.limit)
      .offset(q.offset)
      .execute()
    return rows.map(r => ({
      accountId: r.account_id,
      classC: r.class_c,
      clientIp: r.client_ip,
      country: r.country,
      region: r.region,
      city: r.city,
      node: r.node,
      firstDay: r.first_day,
      lastDay: r.last_day,
      responses: Number(r.responses)
    }))
  }

  /**
   * The names of the zones the query covers: the accounts' zones, or the one asked for when it
   * is one of them.
   */
  private async zonesOf (q: ClientTrafficQuery): Promise<Array<{ name: string, account_id: string }>> {
    let query = this.db.selectFrom('zones').select(['name', 'account_id']).where('account_id', 'in', [...q.accountIds])
    if (q.zone !== undefined) query = query.where('name', '=', q.zone)
    return await query.execute()
  }

  /**
   * The rows of the zones named in the range of days. The names are one bound parameter (a
   * PostgreSQL array; a JSON array read by SQLite's json_each), whatever their number, and the
   * rows are filtered by them in one pass over the range: joined to `zones` instead, SQLite
   * without statistics (fresh rows, no ANALYZE yet) looped over the accounts' zones and read
   * the whole range for each (minutes for 1,000 zones). The
   * statements are planned each time ({@link PLAN_EACH_TIME}), so PostgreSQL sees the array.
   */
  private traffic (zones: ReadonlyArray<{ name: string }>, q: ClientTrafficQuery) {
    const names = zones.map(z => z.name)
    const inZones = this.engine.name === 'postgres'
      ? sql<boolean>`${sql.ref('c.zone')} = any(${names}::text[])`
      : sql<boolean>`${sql.ref('c.zone')} in (select value from json_each(${JSON.stringify(names)}))`
    return this.db.selectFrom('client_responses as c')
      .where('c.day', '>=', q.from)
      .where('c.day', '<=', q.to)
      .where(inZones)
  }

  async countriesByZone (q: ClientTrafficQuery): Promise<ClientZoneCountries[]> {
    if (q.accountIds.length === 0) return []
    const zones = await this.zonesOf(q)
    if (zones.length === 0) return []
    // One pass over the range: the sums per (zone, country), each numbered by its zone's place
    // in name order, the page kept by that number. (A page of zones chosen first and its
    // countries read after made PostgreSQL read the range once a zone of the page.)
    const byCountry = this.traffic(zones, q)
      .select(['c.zone', 'c.country'])
      .select(eb => [
        eb.fn.min('c.day').as('first_day'),
        eb.fn.max('c.day').as('last_day'),
        eb.fn.sum<string | number>('c.responses').as('responses'),
        sql<number>`dense_rank() over (order by ${sql.ref('c.zone')})`.as('place')
      ])
      .groupBy(['c.zone', 'c.country'])
    // A zone name is one zone (names are unique): its account joined after summing.
    const rows = await this.db.selectFrom(byCountry.as('t'))
      .modifyFront(sql.raw(PLAN_EACH_TIME))
      .innerJoin('zones as z', 'z.name', 't.zone')
      .select(['z.account_id', 't.zone', 't.country', 't.first_day', 't.last_day', 't.responses'])
      .where('t.place', '>', q.offset)
      .where('t.place', '<=', q.offset + q.limit)
      .orderBy('t.zone')
      .orderBy('t.country')
      .execute()
    const out: ClientZoneCountries[] = []
    for (const r of rows) {
      let zone = out.at(-1)
      if (zone === undefined || zone.zone !== r.zone) {
        zone = { accountId: r.account_id, zone: r.zone, firstDay: r.first_day, lastDay: r.last_day, countries: [] }
        out.push(zone)
      }
      if (r.first_day < zone.firstDay) zone.firstDay = r.first_day
      if (r.last_day > zone.lastDay) zone.lastDay = r.last_day
      zone.countries.push({ country: r.country, responses: Number(r.responses) })
    }
    return out
  }

  async networks (q: ClientNetworkQuery): Promise<ClientNetworkRow[]> {
    if (q.accountIds.length === 0) return []
    const zones = await this.zonesOf(q)
    if (zones.length === 0) return []
    let inRange = this.traffic(zones, q).where('c.class_c', '<>', '')
    if (q.country !== undefined) inRange = inRange.where('c.country', '=', q.country.toLowerCase())
    const accounts = new Set(zones.map(z => z.account_id))
    if (accounts.size === 1) {
      // One account (the usual request): summed by network alone, without a group per zone.
      const accountId = zones[0]!.account_id
      const rows = await inRange
        .modifyFront(sql.raw(PLAN_EACH_TIME))
        .select('c.class_c')
        .select(eb => [
          eb.fn.min('c.day').as('first_day'),
          eb.fn.max('c.day').as('last_day'),
          eb.fn.sum<string | number>('c.responses').as('responses')
        ])
        .groupBy('c.class_c')
        .orderBy(eb => eb.fn.sum('c.responses'), 'desc')
        .orderBy('c.class_c')
        .limit(q.limit)
        .offset(q.offset)
        .execute()
      return rows.map(r => ({ accountId, classC: r.class_c, firstDay: r.first_day, lastDay: r.last_day, responses: Number(r.responses) }))
    }
    // Several: summed per zone and network, then per account (a zone name is one zone) and network.
    const byZone = inRange
      .select(['c.zone', 'c.class_c'])
      .select(eb => [
        eb.fn.min('c.day').as('first_day'),
        eb.fn.max('c.day').as('last_day'),
        eb.fn.sum<string | number>('c.responses').as('responses')
      ])
      .groupBy(['c.zone', 'c.class_c'])
    const rows = await this.db.selectFrom(byZone.as('t'))
      .modifyFront(sql.raw(PLAN_EACH_TIME))
      .innerJoin('zones as z', 'z.name', 't.zone')
      .select(['z.account_id', 't.class_c'])
      .select(eb => [
        eb.fn.min('t.first_day').as('first_day'),
        eb.fn.max('t.last_day').as('last_day'),
        eb.fn.sum<string | number>('t.responses').as('responses')
      ])
      .groupBy(['z.account_id', 't.class_c'])
      .orderBy(eb => eb.fn.sum('t.responses'), 'desc')
      .orderBy('t.class_c')
      .orderBy('z.account_id')
      .limit(q.limit)
      .offset(q.offset)
      .execute()
    return rows.map(r => ({ accountId: r.account_id, classC: r.class_c, firstDay: r.first_day, lastDay: r.last_day, responses: Number(r.responses) }))
  }
}
