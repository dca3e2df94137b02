import { randomUUID } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { Database, TokenTable } from '../schema.ts'
import type { BearerHolder, NewToken, TokenRecord, TokenStore } from '../store.ts'

export class SqlTokenStore implements TokenStore {
  private readonly db: Kysely<Database>
  /** Announces a revocation (see `Store.watchAuth`). */
  private readonly authChanged: () => Promise<void>

  constructor (db: Kysely<Database>, authChanged: () => Promise<void> = async () => {}) {
    this.db = db
    this.authChanged = authChanged
  }

  async insert (token: NewToken): Promise<TokenRecord> {
    const record: TokenRecord = { ...token, id: randomUUID(), createdAt: new Date().toISOString() }
    await this.db.insertInto('tokens').values({
      id: record.id,
      token_hash: token.tokenHash,
      kind: token.kind,
      user_id: token.userId,
      family_id: token.familyId,
      expires_at: token.expiresAt,
      created_at: record.createdAt
    }).execute()
    return record
  }

  async findByHash (tokenHash: string): Promise<TokenRecord | undefined> {
    const row = await this.db.selectFrom('tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()
    return row === undefined ? undefined : toRecord(row)
  }

  async findBearer (tokenHash: string, now: string): Promise<BearerHolder | undefined> {
    // One row per membership (one with null account columns for a user without any): the token
    // check of every request is one round trip.
    const rows = await this.db.selectFrom('tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('memberships as m', 'm.user_id', 'u.id')
      .leftJoin('accounts as a', 'a.id', 'm.account_id')
      .select(['u.id as userId', 'u.username as username', 't.expires_at as expiresAt', 'a.id as accountId', 'a.name as accountName', 'm.group_name as group'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.kind', '=', 'access')
      .where('t.expires_at', '>', now)
      .where('u.status', '=', 'ACTIVE')
      .orderBy('a.name_key')
      .execute()
    const first = rows[0]
    if (first === undefined) return undefined
    const memberships = rows.flatMap(r => r.accountId === null || r.accountName === null || r.group === null ? [] : [{ accountId: r.accountId, accountName: r.accountName, group: r.group }])
    return { userId: first.userId, username: first.username, expiresAt: first.expiresAt, memberships }
  }

  async deleteFamily (familyId: string): Promise<number> {
    const r = await this.db.deleteFrom('tokens').where('family_id', '=', familyId).executeTakeFirst()
    if (Number(r.numDeletedRows) > 0) await this.authChanged()
    return Number(r.numDeletedRows)
  }

  async deleteForUser (userId: string): Promise<number> {
    const r = await this.db.deleteFrom('tokens').where('user_id', '=', userId).executeTakeFirst()
    if (Number(r.numDeletedRows) > 0) await this.authChanged()
    return Number(r.numDeletedRows)
  }

  async deleteExpired (now: string): Promise<number> {
    const r = await this.db.deleteFrom('tokens').where('expires_at', '<=', now).executeTakeFirst()
    return Number(r.numDeletedRows)
  }
}

function toRecord (row: Selectable<TokenTable>): TokenRecord {
  return {
    id: row.id,
    tokenHash: row.token_hash,
    kind: row.kind,
    userId: row.user_id,
    familyId: row.family_id,
    expiresAt: row.expires_at,
    createdAt: row.created_at
  }
}
