import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { parseDatabaseUrl, PLAN_EACH_TIME } from '../../../src/store/engine.ts'
import { openPostgresEngine } from '../../../src/store/postgres/postgres-engine.ts'
import type { Engine } from '../../../src/store/engine.ts'
import { freshDatabase, postgresUnavailable, type TestDatabase } from '../../helpers/engines.ts'

const skip = await postgresUnavailable()

describe('postgres: statements prepared per connection', { skip }, () => {
  let database: TestDatabase
  let engine: Engine
  let schema: string
  let connectionString: string

  before(async () => {
    database = await freshDatabase('postgres')
    const location = parseDatabaseUrl(database.url)
    if (location.engine !== 'postgres' || location.schema === undefined) throw new Error('not a postgres schema')
    schema = location.schema
    connectionString = location.connectionString
    engine = await openPostgresEngine(connectionString, schema, 1)
    await engine.db.schema.createTable('things').addColumn('id', 'integer', c => c.primaryKey()).addColumn('name', 'text').execute()
    await engine.db.insertInto('things' as any).values({ id: 1, name: 'one' }).execute()
  })
  after(async () => {
    await engine?.close()
    await database?.drop()
  })

  /** The statements the pool's one connection has prepared (their text). */
  async function prepared (): Promise<string[]> {
    const rows = await engine.db.selectFrom('pg_prepared_statements' as any).select('statement' as any).execute() as Array<{ statement: string }>
    return rows.map(r => r.statement)
  }

  it('runs a parameterised statement by name after its first run', async () => {
    const find = async (id: number): Promise<unknown> => await engine.db.selectFrom('things' as any).selectAll().where('id' as any, '=', id).executeTakeFirst()
    assert.deepEqual(await find(1), { id: 1, name: 'one' })
    assert.deepEqual(await find(2), undefined)
    const texts = await prepared()
    assert.equal(texts.filter(t => t.includes('from "things" where "id" = $1')).length, 1, texts.join('\n'))
  })

  it('runs a statement marked to be planned each time unnamed, never prepared', async () => {
    const find = async (id: number): Promise<unknown> => await engine.db.selectFrom('things' as any).modifyFront(sql.raw(PLAN_EACH_TIME)).selectAll().where('id' as any, '>=', id).executeTakeFirst()
    assert.deepEqual(await find(1), { id: 1, name: 'one' })
    assert.deepEqual(await find(1), { id: 1, name: 'one' })
    const texts = await prepared()
    assert.equal(texts.filter(t => t.includes('plan each time')).length, 0, texts.join('\n'))
  })

  it('fails once, then prepares again, when another process changed the columns of a prepared statement', async () => {
    const all = async (): Promise<unknown[]> => await engine.db.selectFrom('things' as any).selectAll().orderBy('id' as any).execute()
    assert.deepEqual(await all(), [{ id: 1, name: 'one' }])
    // Another process migrates: a new column.
    const other = new pg.Client({ connectionString, options: `-c search_path=${schema}` })
    await other.connect()
    try {
      await other.query("alter table things add column note text not null default 'n'")
    } finally {
      await other.end()
    }
    await assert.rejects(all(), (err: { code?: string }) => err.code === '0A000')
    assert.deepEqual(await all(), [{ id: 1, name: 'one', note: 'n' }])
    assert.deepEqual(await all(), [{ id: 1, name: 'one', note: 'n' }])
  })
})
