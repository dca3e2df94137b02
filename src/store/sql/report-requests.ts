import type { Kysely } from 'kysely'
import type { Database, ReportRequestRow } from '../schema.ts'
import type { NewReportRequest, ReportRequestStore } from '../store.ts'

/** Report requests (migration 0012): created with their task, completed or failed by it, expired after 60 days. */
export class SqlReportRequestStore implements ReportRequestStore {
  private readonly db: Kysely<Database>

  constructor (db: Kysely<Database>) {
    this.db = db
  }

  async create (request: NewReportRequest): Promise<void> {
    await this.db.insertInto('report_requests').values({
      id: request.id,
      kind: request.kind,
      user_id: request.userId,
      task_id: request.taskId,
      account_ids: JSON.stringify(request.accountIds),
      params: JSON.stringify(request.params),
      state: 'PENDING',
      message: null,
      row_count: null,
      has_next: null,
      rows: null,
      created_at: request.createdAt,
      finished_at: null,
      expires_at: request.expiresAt
    }).execute()
  }

  async find (id: string): Promise<ReportRequestRow | undefined> {
    return await this.db.selectFrom('report_requests').selectAll().where('id', '=', id).executeTakeFirst()
  }

  async complete (id: string, result: { rows: Uint8Array, rowCount: number, hasNext: boolean }, at: string): Promise<void> {
    await this.db.updateTable('report_requests')
      .set({ state: 'COMPLETE', rows: result.rows, row_count: result.rowCount, has_next: result.hasNext ? 1 : 0, finished_at: at })
      .where('id', '=', id).execute()
  }

  async fail (id: string, message: string, at: string): Promise<void> {
    await this.db.updateTable('report_requests').set({ state: 'ERROR', message, finished_at: at }).where('id', '=', id).execute()
  }

  async deleteExpired (at: string): Promise<number> {
    const r = await this.db.deleteFrom('report_requests').where('expires_at', '<=', at).executeTakeFirst()
    return Number(r.numDeletedRows)
  }
}
