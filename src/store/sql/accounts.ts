import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { ZonalError } from '../../errors/catalog.ts'
import type { Engine } from '../engine.ts'
import type { AccountRow, Database } from '../schema.ts'
import type { AccountStore, AccountSummary, Scope } from '../store.ts'

export class SqlAccountStore implements AccountStore {
  private readonly db: Kysely<Database>
  private readonly engine: Engine

  constructor (db: Kysely<Database>, engine: Engine) {
    this.db = db
    this.engine = engine
  }

  async create (name: string, accountType = 'ORGANIZATION'): Promise<AccountRow> {
    const row: AccountRow = {
      id: randomUUID(),
      name,
      name_key: name.toLowerCase(),
      account_type: accountType,
      created_at: new Date().toISOString()
    }
    try {
      await this.db.insertInto('accounts').values(row).execute()
    } catch (err) {
      if (this.engine.isUniqueViolation(err)) throw new ZonalError('ACCOUNT_ALREADY_EXISTS', name)
      throw err
    }
    return row
  }

  async findByName (name: string): Promise<AccountRow | undefined> {
    return await this.db.selectFrom('accounts').selectAll().where('name_key', '=', name.toLowerCase()).executeTakeFirst()
  }

  async findById (id: string): Promise<AccountRow | undefined> {
    return await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst()
  }

  async list (): Promise<AccountRow[]> {
    return await this.db.selectFrom('accounts').selectAll().orderBy('name_key').execute()
  }

  async summaries (scope: Scope): Promise<AccountSummary[]> {
    if (scope.accountIds.length === 0) return []
    const rows = await this.db.selectFrom('accounts as a')
      .selectAll('a')
      .select(eb => [
        eb.selectFrom('memberships as m').whereRef('m.account_id', '=', 'a.id')
          .select(eb.fn.countAll<number>().as('n')).as('number_of_users'),
        eb.selectFrom('memberships as m').whereRef('m.account_id', '=', 'a.id')
          .select(ieb => ieb.fn.count<number>('m.group_name').distinct().as('n')).as('number_of_groups'),
        eb.selectFrom('memberships as m').innerJoin('users as u', 'u.id', 'm.user_id')
          .whereRef('m.account_id', '=', 'a.id').where('m.group_name', '=', 'Owner')
          .orderBy('m.created_at').select('u.username').limit(1).as('owner_user_name')
      ])
      .where('a.id', 'in', scope.accountIds)
      .orderBy('a.name_key')
      .execute()
    return rows.map(r => ({
      id: r.id,
      name: r.name,
      name_key: r.name_key,
      account_type: r.account_type,
      created_at: r.created_at,
      numberOfUsers: Number(r.number_of_users ?? 0),
      numberOfGroups: Number(r.number_of_groups ?? 0),
      ownerUserName: r.owner_user_name ?? null
    }))
  }

  async count (): Promise<number> {
    const r = await this.db.selectFrom('accounts').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    return Number(r.n)
  }
}
