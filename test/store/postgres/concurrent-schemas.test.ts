/**
 * Several Zonal databases in one PostgreSQL database, each in its own schema: one migrating while
 * another schema is dropped must not fail. (Kysely reads the catalog of every schema to find its
 * migration tables; a schema dropped meanwhile made that read fail with "schema … does not exist".)
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import pg from 'pg'
import { openStore } from '../../../src/store/open-store.ts'
import { databaseAt, engineCases, freshDatabase, PG_URL } from '../../helpers/engines.ts'

const postgres = (await engineCases()).find(c => c.name === 'postgres')

describe('postgres: migrating beside schemas being dropped', { skip: postgres?.skip }, () => {
  it('migrates every store while other schemas come and go', async () => {
    const churn = new pg.Client({ connectionString: PG_URL })
    await churn.connect()
    const state = { stop: false }
    let dropped = 0
    const churning = (async () => {
      while (!state.stop) {
        const schema = `zt_churn_${randomBytes(4).toString('hex')}`
        await churn.query(`create schema "${schema}"`)
        await churn.query(`create table "${schema}".t (a int, b text, c int, d text, e int)`)
        // Partitions too, as the analytics tables have: their drop fails other reads differently (42P01).
        await churn.query(`create table "${schema}".p (day int, n bigint) partition by range (day)`)
        await churn.query(`create table "${schema}".p1 partition of "${schema}".p for values from (0) to (10)`)
        await churn.query(`create table "${schema}".p2 partition of "${schema}".p for values from (10) to (20)`)
        await churn.query(`drop schema "${schema}" cascade`)
        dropped++
      }
    })()
    try {
      for (let i = 0; i < 8; i++) {
        const database = await freshDatabase('postgres')
        const store = await openStore(database.url)
        try {
          await store.migrate()
        } finally {
          await store.close()
          await database.drop()
        }
        // A migration to a given one, then the rest (the migrator's other path).
        const older = await databaseAt('postgres', '0004-rrsets')
        try {
          const { error } = await older.migrator.migrateToLatest()
          assert.equal(error, undefined)
        } finally {
          await older.close()
          await older.database.drop()
        }
      }
    } finally {
      state.stop = true
      await churning
      await churn.end()
    }
    assert.ok(dropped > 0, 'schemas were dropped meanwhile')
  })
})
