import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { ZonalError } from '../../errors/catalog.ts'
import type { Engine } from '../engine.ts'
import type { Database, UserRow } from '../schema.ts'
import type { AccountMembership, UserStore } from '../store.ts'

export class SqlUserStore implements UserStore {
  private readonly db: Kysely<Database>
  private readonly engine: Engine
  /** Announces a change of a user's access (see `Store.watchAuth`). */
  private readonly authChanged: () => Promise<void>

  constructor (db: Kysely<Database>, engine: Engine, authChanged: () => Promise<void> = async () => {}) {
    this.db = db
    this.engine = engine
    this.authChanged = authChanged
  }

  async create (username: string, passwordHash: string): Promise<UserRow> {
    const now = new Date().toISOString()
    const row: UserRow = {
      id: randomUUID(),
      username,
      username_key: username.toLowerCase(),
      password_hash: passwordHash,
      status: 'ACTIVE',
      failed_logins: 0,
      locked_until: null,
      created_at: now,
      updated_at: now
    }
    try {
      await this.db.insertInto('users').values(row).execute()
    } catch (err) {
      if (this.engine.isUniqueViolation(err)) throw new ZonalError('USER_ALREADY_EXISTS', username)
      throw err
    }
    return row
  }

  async findByUsername (username: string): Promise<UserRow | undefined> {
    return await this.db.selectFrom('users').selectAll().where('username_key', '=', username.toLowerCase()).executeTakeFirst()
  }

  async findById (id: string): Promise<UserRow | undefined> {
    return await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  }

  async list (): Promise<UserRow[]> {
    return await this.db.selectFrom('users').selectAll().orderBy('username_key').execute()
  }

  async count (): Promise<number> {
    const r = await this.db.selectFrom('users').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    return Number(r.n)
  }

  async setPassword (userId: string, passwordHash: string): Promise<void> {
    await this.db.updateTable('users')
      .set({ password_hash: passwordHash, failed_logins: 0, locked_until: null, updated_at: new Date().toISOString() })
      .where('id', '=', userId).execute()
    await this.authChanged()
  }

  async setStatus (userId: string, status: UserRow['status']): Promise<void> {
    await this.db.updateTable('users').set({ status, updated_at: new Date().toISOString() }).where('id', '=', userId).execute()
    await this.authChanged()
  }

  async claimLoginAttempt (userId: string, now: string, maxFailures: number, lockUntil: string): Promise<boolean> {
    // The SET expressions read the row as it was; the WHERE is evaluated again on PostgreSQL
    // after waiting for a concurrent attempt's row lock, and SQLite runs one writer at a time.
    const count = sql<number>`case when locked_until is not null and locked_until <= ${now} then 1 else failed_logins + 1 end`
    const lock = maxFailures > 0
      ? sql<string | null>`case when (${count}) >= ${maxFailures} then ${lockUntil} else null end`
      : sql<string | null>`null`
    const row = await this.db.updateTable('users')
      .set({ failed_logins: count, locked_until: lock })
      .where('id', '=', userId)
      .where(eb => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .returning('failed_logins')
      .executeTakeFirst()
    return row !== undefined
  }

  async resetFailedLogins (userId: string): Promise<void> {
    await this.db.updateTable('users').set({ failed_logins: 0, locked_until: null }).where('id', '=', userId).execute()
  }

  async grant (userId: string, accountId: string, group: string): Promise<void> {
    await this.db.insertInto('memberships')
      .values({ user_id: userId, account_id: accountId, group_name: group, created_at: new Date().toISOString() })
      .onConflict(oc => oc.columns(['user_id', 'account_id']).doUpdateSet({ group_name: group }))
      .execute()
    await this.authChanged()
  }

  async memberships (userId: string): Promise<AccountMembership[]> {
    const rows = await this.db.selectFrom('memberships as m')
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .select(['a.id as accountId', 'a.name as accountName', 'm.group_name as group'])
      .where('m.user_id', '=', userId)
      .orderBy('a.name_key')
      .execute()
    return rows
  }

  async delete (userId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('users').where('id', '=', userId).executeTakeFirst()
    if (Number(r.numDeletedRows) > 0) await this.authChanged()
    return Number(r.numDeletedRows) > 0
  }
}
