import type { Kysely } from 'kysely'
import type { AuditRow, Database } from '../schema.ts'
import type { AuditStore, NewAuditRecord } from '../store.ts'

/** Append-only: this store has no update or delete. */
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

  async recent (limit: number, changeType?: string): Promise<AuditRow[]> {
    let q = this.db.selectFrom('audit_records').selectAll()
    if (changeType !== undefined) q = q.where('change_type', '=', changeType)
    return await q.orderBy('change_time', 'desc').orderBy('id', 'desc').limit(limit).execute()
  }
}
