import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely'
import type { AuditRow, Database } from '../schema.ts'
import type { AuditFilterValues, AuditQuery, AuditStore, NewAuditRecord } from '../store.ts'

type AuditEb = ExpressionBuilder<Database, 'audit_records'>
type TextColumn = 'user_name' | 'object' | 'parent' | 'change_comment'

/** `lower(column)` matches any of the (lowercase) LIKE patterns, escape character `\`. */
function likeAny (eb: AuditEb, column: TextColumn, patterns: readonly string[]): Expression<SqlBool> {
  return eb.or(patterns.map(p => sql<SqlBool>`lower(${sql.ref(column)}) like ${p.toLowerCase()} escape '\\'`))
}

/**
 * Append-only: the API and the CLI never update or delete a record; `deleteBefore` exists for
 * the retention setting alone.
 */
export class SqlAuditStore implements AuditStore {
  constructor (private readonly db: Kysely<Database>) {}

  async append (record: NewAuditRecord): Promise<void> {
    await this.db.insertInto('audit_records').values({
      account_id: record.accountId,
      account_name: record.accountName,
      user_name: record.user,
      ip_address: record.ipAddress,
      object_type: record.objectType,
      change_type: record.changeType,
      object: record.object,
      parent: record.parent ?? null,
      detail: JSON.stringify({ changes: record.detail?.changes ?? [], others: record.detail?.others ?? [] }),
      change_comment: record.changeComment ?? null,
      change_time: record.changeTime ?? new Date().toISOString()
    }).execute()
  }

  /**
   * One page by keyset on (change_time, id), newest first: `after` reads on towards older
   * records, `before` reads the oldest records newer than it (in ascending order, then flipped),
   * so a page costs the same at any depth and records added meanwhile never shift a page.
   */
  async list (query: AuditQuery): Promise<AuditRow[]> {
    if (query.accountIds.length === 0) return []
    const backwards = query.before !== undefined
    const dir = backwards ? 'asc' : 'desc'
    let q = this.db.selectFrom('audit_records').selectAll()
      .where('account_id', 'in', [...query.accountIds])
      .where('change_time', '>=', query.from)
      .where('change_time', '<', query.to)
    const pos = query.after ?? query.before
    if (pos !== undefined) {
      q = q.where(eb => eb(eb.refTuple('change_time', 'id'), backwards ? '>' : '<', eb.tuple(pos.time, pos.id)))
    }
    const users = query.users ?? []
    if (users.length > 0) q = q.where(eb => eb(eb.fn<string>('lower', ['user_name']), 'in', users.map(u => u.toLowerCase())))
    if ((query.objectTypes ?? []).length > 0) q = q.where('object_type', 'in', [...query.objectTypes!])
    if ((query.changeTypes ?? []).length > 0) q = q.where('change_type', 'in', [...query.changeTypes!])
    if ((query.objectNames ?? []).length > 0) q = q.where(eb => likeAny(eb, 'object', query.objectNames!))
    if ((query.parentNames ?? []).length > 0) q = q.where(eb => likeAny(eb, 'parent', query.parentNames!))
    if ((query.changeComments ?? []).length > 0) q = q.where(eb => likeAny(eb, 'change_comment', query.changeComments!))
    const rows = await q.orderBy('change_time', dir).orderBy('id', dir).limit(query.limit).execute()
    return backwards ? rows.reverse() : rows
  }

  async filterValues (accountIds: readonly string[], from: string, to: string): Promise<AuditFilterValues> {
    if (accountIds.length === 0) return { objectTypes: [], changeTypes: [], users: [], accounts: [] }
    const distinct = async (column: 'object_type' | 'change_type' | 'user_name' | 'account_name'): Promise<string[]> => {
      const rows = await this.db.selectFrom('audit_records').select(column).distinct()
        .where('account_id', 'in', [...accountIds])
        .where('change_time', '>=', from)
        .where('change_time', '<', to)
        .orderBy(column)
        .execute()
      return rows.map(r => (r as Record<string, string | null>)[column]).filter((v): v is string => v !== null)
    }
    const [objectTypes, changeTypes, users, accounts] = await Promise.all([
      distinct('object_type'), distinct('change_type'), distinct('user_name'), distinct('account_name')
    ])
    return { objectTypes, changeTypes, users, accounts }
  }

  async deleteBefore (iso: string, batch = 10_000): Promise<number> {
    let total = 0
    for (;;) {
      const victims = this.db.selectFrom('audit_records').select('id').where('change_time', '<', iso).limit(batch)
      const result = await this.db.deleteFrom('audit_records').where('id', 'in', victims).executeTakeFirst()
      const n = Number(result.numDeletedRows)
      total += n
      if (n < batch) return total
    }
  }

  async recent (limit: number, changeType?: string): Promise<AuditRow[]> {
    let q = this.db.selectFrom('audit_records').selectAll()
    if (changeType !== undefined) q = q.where('change_type', '=', changeType)
    return await q.orderBy('change_time', 'desc').orderBy('id', 'desc').limit(limit).execute()
  }
}
