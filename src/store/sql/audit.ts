import { sql, type Expression, type ExpressionBuilder, type Insertable, type Kysely, type SqlBool } from 'kysely'
import type { EngineName } from '../engine.ts'
import type { AuditRecordTable, AuditRow, Database } from '../schema.ts'
import type { AuditEntry, AuditFilterValues, AuditQuery, AuditStore, NewAuditRecord } from '../store.ts'
import { decodeAuditDetail, encodeAuditDetail } from './codec.ts'

type AuditEb = ExpressionBuilder<Database, 'audit_records'>
type TextColumn = 'user_name' | 'object' | 'parent' | 'change_comment'

/** `lower(column)` matches any of the (lowercase) LIKE patterns, escape character `\`. */
function likeAny (eb: AuditEb, column: TextColumn, patterns: readonly string[]): Expression<SqlBool> {
  return eb.or(patterns.map(p => sql<SqlBool>`lower(${sql.ref(column)}) like ${p.toLowerCase()} escape '\\'`))
}

/** The row of a new audit record. */
export function auditRow (record: NewAuditRecord): Insertable<AuditRecordTable> {
  return {
    account_id: record.accountId,
    account_name: record.accountName,
    user_name: record.user,
    ip_address: record.ipAddress,
    object_type: record.objectType,
    change_type: record.changeType,
    object: record.object,
    parent: record.parent ?? null,
    detail: encodeAuditDetail(record.detail),
    change_comment: record.changeComment ?? null,
    change_time: record.changeTime ?? new Date().toISOString()
  }
}

/**
 * Append-only: the API and the CLI never update or delete a record; `deleteBefore` exists for
 * the retention setting alone.
 */
export class SqlAuditStore implements AuditStore {
  private readonly db: Kysely<Database>
  private readonly engine: EngineName

  constructor (db: Kysely<Database>, engine: EngineName) {
    this.db = db
    this.engine = engine
  }

  async append (record: NewAuditRecord): Promise<void> {
    await this.db.insertInto('audit_records').values(auditRow(record)).execute()
  }

  /**
   * One page by keyset on (change_time, id), newest first: `after` reads on towards older
   * records, `before` reads the oldest records newer than it (in ascending order, then flipped),
   * so a page costs the same at any depth and records added meanwhile never shift a page.
   */
  async list (query: AuditQuery): Promise<AuditEntry[]> {
    if (query.accountIds.length === 0) return []
    const backwards = query.before !== undefined
    const dir = backwards ? 'asc' : 'desc'
    const pos = query.after ?? query.before
    // One bound per side on change_time: the window's, or the position's where it is tighter.
    // (SQLite takes only one upper and one lower bound into the index range, the first written;
    // with the window's end there, page 100 would scan the 99 pages before it.)
    const lower = backwards && pos !== undefined && pos.time >= query.from ? { op: '>=' as const, time: pos.time } : { op: '>=' as const, time: query.from }
    const upper = !backwards && pos !== undefined && pos.time < query.to ? { op: '<=' as const, time: pos.time } : { op: '<' as const, time: query.to }
    const objects = query.objects ?? []
    const objectNames = query.objectNames ?? []
    // Looking for exact names, SQLite would still walk the account and time index (it has no
    // statistics to know better): hiding those terms (unary +) leaves it the object index.
    const hide = this.engine === 'sqlite' && objects.length > 0 && objectNames.length === 0
    let q = this.db.selectFrom('audit_records').selectAll()
    q = hide
      ? q.where(sql<SqlBool>`+account_id in (${sql.join(query.accountIds)}) and +change_time ${sql.raw(lower.op)} ${lower.time} and +change_time ${sql.raw(upper.op)} ${upper.time}`)
      : q.where('account_id', 'in', [...query.accountIds]).where('change_time', lower.op, lower.time).where('change_time', upper.op, upper.time)
    if (pos !== undefined) {
      q = q.where(eb => eb(eb.refTuple('change_time', 'id'), backwards ? '>' : '<', eb.tuple(pos.time, pos.id)))
    }
    const users = query.users ?? []
    if (users.length > 0) q = q.where(eb => eb(eb.fn<string>('lower', ['user_name']), 'in', users.map(u => u.toLowerCase())))
    if ((query.objectTypes ?? []).length > 0) q = q.where('object_type', 'in', [...query.objectTypes!])
    if ((query.changeTypes ?? []).length > 0) q = q.where('change_type', 'in', [...query.changeTypes!])
    if (objects.length > 0 || objectNames.length > 0) {
      q = q.where(eb => eb.or([
        ...(objects.length > 0 ? [eb(eb.fn<string>('lower', ['object']), 'in', [...objects])] : []),
        ...(objectNames.length > 0 ? [likeAny(eb, 'object', objectNames)] : [])
      ]))
    }
    if ((query.parentNames ?? []).length > 0) q = q.where(eb => likeAny(eb, 'parent', query.parentNames!))
    if ((query.changeComments ?? []).length > 0) q = q.where(eb => likeAny(eb, 'change_comment', query.changeComments!))
    const rows = (await q.orderBy('change_time', dir).orderBy('id', dir).limit(query.limit).execute()).map(r => ({ ...r, detail: decodeAuditDetail(r.detail) }))
    return backwards ? rows.reverse() : rows
  }

  /** One pass over the window (grouped by the four columns), then the distinct values of each. */
  async filterValues (accountIds: readonly string[], from: string, to: string): Promise<AuditFilterValues> {
    if (accountIds.length === 0) return { objectTypes: [], changeTypes: [], users: [], accounts: [] }
    const rows = await this.db.selectFrom('audit_records')
      .select(['object_type', 'change_type', 'user_name', 'account_name'])
      .where('account_id', 'in', [...accountIds])
      .where('change_time', '>=', from)
      .where('change_time', '<', to)
      .groupBy(['object_type', 'change_type', 'user_name', 'account_name'])
      .execute()
    const sorted = (values: (string | null)[]): string[] => [...new Set(values.filter((v): v is string => v !== null))].sort()
    return {
      objectTypes: sorted(rows.map(r => r.object_type)),
      changeTypes: sorted(rows.map(r => r.change_type)),
      users: sorted(rows.map(r => r.user_name)),
      accounts: sorted(rows.map(r => r.account_name))
    }
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
