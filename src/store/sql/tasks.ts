import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database, TaskRow } from '../schema.ts'
import type { NewTask, Scope, TaskStore } from '../store.ts'

export class SqlTaskStore implements TaskStore {
  constructor (private readonly db: Kysely<Database>) {}

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

  async findById (id: string, scope: Scope): Promise<TaskRow | undefined> {
    if (scope.accountIds.length === 0) return undefined
    return await this.db.selectFrom('tasks').selectAll()
      .where('id', '=', id)
      .where('account_id', 'in', scope.accountIds)
      .executeTakeFirst()
  }
}
