import type { Kysely, Selectable } from 'kysely'
import { ZonalError } from '../../errors/catalog.ts'
import type { Engine } from '../engine.ts'
import type { Database, HealthCheckTable } from '../schema.ts'
import type { StatusCounts } from '../../health/score.ts'
import type { HealthCheckStore, HealthReport, HealthSummary, Scope } from '../store.ts'

function reportOf (row: Selectable<HealthCheckTable>): HealthReport {
  return {
    zoneId: row.zone_id,
    version: row.version,
    state: row.state as HealthReport['state'],
    checks: row.checks,
    counts: row.counts === null ? null : JSON.parse(row.counts),
    message: row.message,
    finishedAt: row.finished_at
  }
}

/** Health check reports over Kysely, both engines (migration 0019). */
export class SqlHealthCheckStore implements HealthCheckStore {
  private readonly db: Kysely<Database>
  private readonly engine: Engine
  private readonly inTransaction: boolean

  constructor (db: Kysely<Database>, engine: Engine, inTransaction: boolean) {
    this.db = db
    this.engine = engine
    this.inTransaction = inTransaction
  }

  async start (zoneId: string, version: string, keep: number): Promise<boolean> {
    const write = async (db: Kysely<Database>): Promise<boolean> => {
      const existing = await db.selectFrom('health_checks').select('version').where('zone_id', '=', zoneId).orderBy('version', 'desc').execute()
      if (existing.some(r => r.version === version)) return false
      const drop = existing.slice(Math.max(0, keep - 1)).map(r => r.version)
      if (drop.length > 0) await db.deleteFrom('health_checks').where('zone_id', '=', zoneId).where('version', 'in', drop).execute()
      await db.insertInto('health_checks').values({ zone_id: zoneId, version, state: 'IN_PROGRESS', checks: null, counts: null, message: null, delegation: null, finished_at: null }).execute()
      return true
    }
    try {
      return this.inTransaction ? await write(this.db) : await this.engine.transaction(write)
    } catch (err) {
      // The zone was deleted meanwhile.
      if (this.engine.isForeignKeyViolation(err)) throw new ZonalError('ZONE_NOT_FOUND')
      throw err
    }
  }

  async finish (zoneId: string, version: string, end: Parameters<HealthCheckStore['finish']>[2]): Promise<boolean> {
    const r = await this.db.updateTable('health_checks')
      .set({ state: end.state, checks: end.checks, counts: end.counts === null ? null : JSON.stringify(end.counts), message: end.message, finished_at: end.finishedAt, delegation: end.delegation == null ? null : JSON.stringify(end.delegation) })
      .where('zone_id', '=', zoneId).where('version', '=', version)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }

  async find (zoneId: string, version: string): Promise<HealthReport | undefined> {
    const row = await this.db.selectFrom('health_checks').selectAll().where('zone_id', '=', zoneId).where('version', '=', version).executeTakeFirst()
    return row === undefined ? undefined : reportOf(row)
  }

  async latest (zoneId: string): Promise<HealthReport | undefined> {
    const row = await this.db.selectFrom('health_checks').selectAll().where('zone_id', '=', zoneId).orderBy('version', 'desc').limit(1).executeTakeFirst()
    return row === undefined ? undefined : reportOf(row)
  }

  async delegation (zoneId: string): Promise<string[] | undefined> {
    const row = await this.db.selectFrom('health_checks').select('delegation')
      .where('zone_id', '=', zoneId).where('state', '=', 'COMPLETED').where('delegation', 'is not', null)
      .orderBy('version', 'desc').limit(1).executeTakeFirst()
    return row?.delegation == null ? undefined : JSON.parse(row.delegation)
  }

  async versions (zoneId: string): Promise<string[]> {
    return (await this.db.selectFrom('health_checks').select('version').where('zone_id', '=', zoneId).orderBy('version', 'desc').execute()).map(r => r.version)
  }

  async summaries (scope: Scope): Promise<HealthSummary[]> {
    if (scope.accountIds.length === 0) return []
    // At most two versions per zone are kept: read the completed ones and keep each zone's newest.
    const rows = await this.db.selectFrom('health_checks as h')
      .innerJoin('zones as z', 'z.id', 'h.zone_id')
      .innerJoin('accounts as a', 'a.id', 'z.account_id')
      .select(['h.zone_id', 'h.version', 'h.counts', 'z.name as zone_name', 'a.name as account_name'])
      .where('z.account_id', 'in', scope.accountIds)
      .where('h.state', '=', 'COMPLETED')
      .orderBy('h.zone_id').orderBy('h.version', 'desc')
      .execute()
    const out: HealthSummary[] = []
    let last: string | undefined
    for (const r of rows) {
      if (r.zone_id === last || r.counts === null) continue
      last = r.zone_id
      out.push({ zoneName: r.zone_name, accountName: r.account_name, counts: JSON.parse(r.counts) })
    }
    return out
  }

  async accountZones (scope: Scope): Promise<Array<{ accountName: string, zoneName: string, type: string, dnssecStatus: string, counts: Record<string, StatusCounts> | null }>> {
    if (scope.accountIds.length === 0) return []
    const completed = new Map((await this.summaries(scope)).map(s => [s.zoneName, s.counts]))
    const rows = await this.db.selectFrom('zones as z')
      .innerJoin('accounts as a', 'a.id', 'z.account_id')
      .select(['a.name as account_name', 'z.name as zone_name', 'z.zone_type', 'z.dnssec_status'])
      .where('z.account_id', 'in', scope.accountIds)
      .orderBy('a.name').orderBy('z.name')
      .execute()
    return rows.map(r => ({ accountName: r.account_name, zoneName: r.zone_name, type: r.zone_type, dnssecStatus: r.dnssec_status, counts: completed.get(r.zone_name) ?? null }))
  }

  async due (before: string, limit: number): Promise<Array<{ id: string, name: string }>> {
    const newest = this.db.selectFrom('health_checks').select(['zone_id', (eb) => eb.fn.max('version').as('version')]).groupBy('zone_id').as('h')
    const rows = await this.db.selectFrom('zones as z')
      .leftJoin(newest, 'h.zone_id', 'z.id')
      .select(['z.id', 'z.name', 'h.version'])
      .where('z.zone_type', 'in', ['PRIMARY', 'ALIAS'])
      .where('z.status', '=', 'ACTIVE')
      .where(eb => eb.or([eb('h.version', 'is', null), eb('h.version', '<', before)]))
      .orderBy('h.version', (ob) => ob.asc().nullsFirst())
      .orderBy('z.name')
      .limit(limit)
      .execute()
    return rows.map(r => ({ id: r.id, name: r.name }))
  }
}
