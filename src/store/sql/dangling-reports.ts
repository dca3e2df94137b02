import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import type { DanglingFinding, DanglingReport, DanglingReportStore, Scope } from '../store.ts'

/** The stored JSON of one finding (short keys: a report may hold 20,000). */
interface StoredFinding { o: string, t: number, d: string, u: string, s: string }

function encodeFindings (findings: readonly DanglingFinding[]): string {
  return JSON.stringify(findings.map((f): StoredFinding => ({ o: f.ownerName, t: f.type, d: f.rdataText, u: f.ultimateTarget, s: f.description })))
}

function decodeFindings (text: string | null): DanglingFinding[] | null {
  if (text === null) return null
  return (JSON.parse(text) as StoredFinding[]).map(f => ({ ownerName: f.o, type: f.t, rdataText: f.d, ultimateTarget: f.u, description: f.s }))
}

/** Dangling DNS reports (migration 0020): one row per zone, its latest scan. */
export class SqlDanglingReportStore implements DanglingReportStore {
  private readonly db: Kysely<Database>

  constructor (db: Kysely<Database>) {
    this.db = db
  }

  async start (report: { zoneId: string, accountId: string, version: string, taskId: string | null, message: string }): Promise<void> {
    const row = { account_id: report.accountId, version: report.version, task_id: report.taskId, status: 'IN_PROGRESS' as const, message: report.message, records: null, finished_at: null }
    await this.db.insertInto('dangling_reports').values({ zone_id: report.zoneId, ...row })
      .onConflict(oc => oc.column('zone_id').doUpdateSet(row))
      .execute()
  }

  async find (zoneId: string, scope: Scope): Promise<DanglingReport | undefined> {
    if (scope.accountIds.length === 0) return undefined
    return await this.read(zoneId, scope)
  }

  async current (zoneId: string): Promise<DanglingReport | undefined> {
    return await this.read(zoneId)
  }

  private async read (zoneId: string, scope?: Scope): Promise<DanglingReport | undefined> {
    let q = this.db.selectFrom('dangling_reports as d')
      .leftJoin('tasks as t', 't.id', 'd.task_id')
      .select(['d.zone_id', 'd.account_id', 'd.version', 'd.task_id', 'd.status', 'd.message', 'd.records', 'd.finished_at', 't.code as task_code', 't.message as task_message'])
      .where('d.zone_id', '=', zoneId)
    if (scope !== undefined) q = q.where('d.account_id', 'in', scope.accountIds)
    const r = await q.executeTakeFirst()
    if (r === undefined) return undefined
    return {
      zoneId: r.zone_id,
      accountId: r.account_id,
      version: r.version,
      taskId: r.task_id,
      status: r.status,
      message: r.message,
      findings: decodeFindings(r.records),
      finishedAt: r.finished_at,
      ...(r.task_code === null || r.task_code === undefined ? {} : { task: { code: r.task_code, message: r.task_message ?? '' } })
    }
  }

  async progress (zoneId: string, version: string, message: string): Promise<boolean> {
    return await this.finish(zoneId, version, { message })
  }

  async complete (zoneId: string, version: string, findings: readonly DanglingFinding[], message: string, at: string): Promise<boolean> {
    return await this.finish(zoneId, version, { status: 'COMPLETED', message, records: encodeFindings(findings), finished_at: at })
  }

  async fail (zoneId: string, version: string, message: string, at: string): Promise<boolean> {
    return await this.finish(zoneId, version, { status: 'FAILED', message, finished_at: at })
  }

  private async finish (zoneId: string, version: string, set: { status?: 'COMPLETED' | 'FAILED', message: string, records?: string, finished_at?: string }): Promise<boolean> {
    const r = await this.db.updateTable('dangling_reports').set(set)
      .where('zone_id', '=', zoneId).where('version', '=', version).where('status', '=', 'IN_PROGRESS')
      .executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }
}
