import { randomUUID } from 'node:crypto'
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely'
import type { Engine } from '../engine.ts'
import type { Database, TaskRow } from '../schema.ts'
import type { NewTask, RecoveredTasks, Scope, TaskInfo, TaskListQuery, TaskResultFile, TaskSort, TaskStore } from '../store.ts'

/** Every task column but the result file, which only `result()` reads. */
const INFO_COLUMNS = [
  'id', 'account_id', 'user_id', 'kind', 'code', 'message', 'progress', 'payload',
  'result_content_type', 'result_extension', 'result_file_name', 'run_at', 'locked_by',
  'locked_until', 'attempts', 'created_at', 'updated_at'
] as const

const hasData = sql<SqlBool>`(result_data is not null)`

/**
 * The first sort key of each list order; ties go by creation time, then id. Nullable columns
 * sort as '' so both engines put them in the same place (their NULL orders differ).
 */
const SORT_KEY: Record<TaskSort, Expression<unknown>> = {
  CODE: sql`code`,
  CONTENT_TYPE: sql`coalesce(result_content_type, '')`,
  EXTENSIONS: sql`coalesce(result_extension, '')`,
  HAS_DATA: sql`(case when result_data is null then 0 else 1 end)`,
  DATE: sql`created_at`
}

function until (leaseSeconds: number, from = Date.now()): string {
  return new Date(from + leaseSeconds * 1000).toISOString()
}

function toInfo (row: Omit<TaskRow, 'result_data'> & { has_data: unknown }): TaskInfo {
  return { ...row, has_data: row.has_data === true || Number(row.has_data) === 1 }
}

export class SqlTaskStore implements TaskStore {
  private readonly db: Kysely<Database>
  private readonly engine: Pick<Engine, 'supportsSkipLocked'>

  constructor (db: Kysely<Database>, engine: Pick<Engine, 'supportsSkipLocked'>) {
    this.db = db
    this.engine = engine
  }

  async create (task: NewTask): Promise<TaskRow> {
    const now = new Date().toISOString()
    const row: TaskRow = {
      id: randomUUID(),
      account_id: task.accountId,
      user_id: task.userId,
      kind: task.kind,
      code: 'PENDING',
      message: task.message,
      progress: 0,
      payload: task.payload === undefined ? null : JSON.stringify(task.payload),
      result_content_type: null,
      result_extension: null,
      result_data: null,
      result_file_name: null,
      run_at: now,
      locked_by: null,
      locked_until: null,
      attempts: 0,
      created_at: now,
      updated_at: now
    }
    await this.db.insertInto('tasks').values(row).execute()
    return row
  }

  private info () {
    return this.db.selectFrom('tasks').select(INFO_COLUMNS).select(hasData.as('has_data'))
  }

  async findById (id: string, scope: Scope): Promise<TaskInfo | undefined> {
    if (scope.accountIds.length === 0) return undefined
    const row = await this.info().where('id', '=', id).where('account_id', 'in', scope.accountIds).executeTakeFirst()
    return row === undefined ? undefined : toInfo(row)
  }

  async result (id: string, scope: Scope): Promise<TaskResultFile | undefined> {
    if (scope.accountIds.length === 0) return undefined
    const row = await this.db.selectFrom('tasks')
      .select(['result_data', 'result_content_type', 'result_extension', 'result_file_name'])
      .where('id', '=', id).where('account_id', 'in', scope.accountIds).where('code', '=', 'COMPLETE')
      .executeTakeFirst()
    if (row?.result_data == null) return undefined
    return {
      data: new Uint8Array(row.result_data),
      contentType: row.result_content_type ?? 'application/octet-stream',
      extension: row.result_extension ?? '',
      fileName: row.result_file_name ?? id
    }
  }

  async list (scope: Scope, query: TaskListQuery): Promise<{ rows: TaskInfo[], total: number }> {
    if (scope.accountIds.length === 0) return { rows: [], total: 0 }
    let q = this.info().where('account_id', 'in', scope.accountIds)
    if (query.code !== undefined) q = q.where('code', '=', query.code)
    if (query.hasData !== undefined) q = q.where('result_data', query.hasData ? 'is not' : 'is', null)
    const counted = await q.clearSelect().select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    const dir = query.reverse ? 'desc' : 'asc'
    const rows = await q.orderBy(SORT_KEY[query.sort], dir).orderBy('created_at', dir).orderBy('id', dir)
      .offset(query.offset).limit(query.limit).execute()
    return { rows: rows.map(toInfo), total: Number(counted.n) }
  }

  async delete (id: string, scope: Scope): Promise<boolean> {
    if (scope.accountIds.length === 0) return false
    const r = await this.db.deleteFrom('tasks').where('id', '=', id).where('account_id', 'in', scope.accountIds).executeTakeFirst()
    return r.numDeletedRows > 0n
  }

  async claim (workerId: string, leaseSeconds: number): Promise<TaskRow | undefined> {
    const now = Date.now()
    const nowIso = new Date(now).toISOString()
    let pick = this.db.selectFrom('tasks').select('id')
      .where('code', '=', 'PENDING').where('run_at', '<=', nowIso)
      .orderBy('run_at').orderBy('id').limit(1)
    // libraries.md §6: PostgreSQL skips rows another claimer holds; SQLite runs one writer at a time.
    if (this.engine.supportsSkipLocked === true) pick = pick.forUpdate().skipLocked()
    return await this.db.updateTable('tasks')
      .set(eb => ({
        code: 'IN_PROCESS',
        locked_by: workerId,
        locked_until: until(leaseSeconds, now),
        attempts: eb('attempts', '+', 1),
        updated_at: nowIso
      }))
      .where('id', '=', pick)
      .where('code', '=', 'PENDING')
      .returningAll()
      .executeTakeFirst()
  }

  /** An update of a task this worker holds; false when it no longer does. */
  private async held (id: string, workerId: string, set: Partial<TaskRow>): Promise<boolean> {
    const r = await this.db.updateTable('tasks')
      .set({ ...set, updated_at: new Date().toISOString() })
      .where('id', '=', id).where('locked_by', '=', workerId).where('code', '=', 'IN_PROCESS')
      .executeTakeFirst()
    return r.numUpdatedRows > 0n
  }

  async progress (id: string, workerId: string, message: string, progress: number, leaseSeconds: number): Promise<boolean> {
    const percent = Math.max(0, Math.min(100, Math.round(progress)))
    return await this.held(id, workerId, { message, progress: percent, locked_until: until(leaseSeconds) })
  }

  async heartbeat (id: string, workerId: string, leaseSeconds: number): Promise<boolean> {
    return await this.held(id, workerId, { locked_until: until(leaseSeconds) })
  }

  async complete (id: string, workerId: string, result: TaskResultFile | null, message: string): Promise<boolean> {
    return await this.held(id, workerId, {
      code: 'COMPLETE',
      message,
      progress: 100,
      result_data: result?.data ?? null,
      result_content_type: result?.contentType ?? null,
      result_extension: result?.extension ?? null,
      result_file_name: result?.fileName ?? null,
      locked_by: null,
      locked_until: null
    })
  }

  async fail (id: string, workerId: string, message: string): Promise<boolean> {
    return await this.held(id, workerId, { code: 'ERROR', message, locked_by: null, locked_until: null })
  }

  async recoverExpired (maxAttempts: number): Promise<RecoveredTasks> {
    const now = new Date().toISOString()
    const failed = await this.db.updateTable('tasks')
      .set({
        code: 'ERROR',
        message: sql<string>`'Task failed: the worker running it stopped (' || cast(attempts as varchar(20)) || ' attempts)'`,
        locked_by: null,
        locked_until: null,
        updated_at: now
      })
      .where('code', '=', 'IN_PROCESS').where('locked_until', '<', now).where('attempts', '>=', maxAttempts)
      .executeTakeFirst()
    const requeued = await this.db.updateTable('tasks')
      .set({
        code: 'PENDING',
        message: 'Pending: to be retried, the worker running it stopped',
        locked_by: null,
        locked_until: null,
        updated_at: now
      })
      .where('code', '=', 'IN_PROCESS').where('locked_until', '<', now).where('attempts', '<', maxAttempts)
      .executeTakeFirst()
    return { requeued: Number(requeued.numUpdatedRows), failed: Number(failed.numUpdatedRows) }
  }

  async deleteFinishedBefore (iso: string): Promise<number> {
    const r = await this.db.deleteFrom('tasks')
      .where('code', 'in', ['COMPLETE', 'ERROR']).where('updated_at', '<', iso)
      .executeTakeFirst()
    return Number(r.numDeletedRows)
  }
}
