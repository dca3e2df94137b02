import { randomUUID } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { Database, TokenTable } from '../schema.ts'
import type { NewToken, TokenRecord, TokenStore } from '../store.ts'

export class SqlTokenStore implements TokenStore {
  private readonly db: Kysely<Database>

  constructor (db: Kysely<Database>) {
    this.db = db
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

  async deleteFamily (familyId: string): Promise<number> {
    const r = await this.db.deleteFrom('tokens').where('family_id', '=', familyId).executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  async deleteForUser (userId: string): Promise<number> {
    const r = await this.db.deleteFrom('tokens').where('user_id', '=', userId).executeTakeFirst()
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
