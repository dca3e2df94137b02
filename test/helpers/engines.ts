import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { Migrator } from 'kysely/migration'
import pg from 'pg'
import { parseDatabaseUrl } from '../../src/store/engine.ts'
import { zonalMigrator } from '../../src/store/migrations/migrator.ts'
import { openStore } from '../../src/store/open-store.ts'
import { openPostgresEngine } from '../../src/store/postgres/postgres-engine.ts'
import { openSqliteEngine } from '../../src/store/sqlite/sqlite-engine.ts'
import type { Store } from '../../src/store/store.ts'

/**
 * The store engines a suite runs on (STYLE.md §5 "Store"). SQLite always; PostgreSQL when a
 * server answers at `ZONAL_TEST_PG_URL` (default the local test database). With
 * `ZONAL_TEST_REQUIRE_PG=1` (CI) an unreachable PostgreSQL fails the run instead of skipping.
 */
export const PG_URL = process.env.ZONAL_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export interface EngineCase {
  name: 'sqlite' | 'postgres'
  /** Set when the engine is not available; passed to node:test as the skip reason. */
  skip?: string
}

let probed: Promise<string | undefined> | undefined

/** Resolves to undefined when PostgreSQL answers, else to the reason it does not. */
export async function postgresUnavailable (): Promise<string | undefined> {
  probed ??= (async () => {
    const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 })
    try {
      await client.connect()
      await client.query('select 1')
      return undefined
    } catch (err) {
      return `PostgreSQL not reachable at ${PG_URL}: ${(err as Error).message}`
    } finally {
      await client.end().catch(() => {})
    }
  })()
  const reason = await probed
  if (reason !== undefined && process.env.ZONAL_TEST_REQUIRE_PG === '1') {
    throw new Error(`ZONAL_TEST_REQUIRE_PG=1 but ${reason}`)
  }
  return reason
}

export async function engineCases (): Promise<EngineCase[]> {
  const reason = await postgresUnavailable()
  if (reason !== undefined) {
    console.log(`# PostgreSQL suite SKIPPED: ${reason}`)
    return [{ name: 'sqlite' }, { name: 'postgres', skip: reason }]
  }
  return [{ name: 'sqlite' }, { name: 'postgres' }]
}

export interface TestDatabase {
  url: string
  drop (): Promise<void>
}

/** A fresh, empty database: a temporary SQLite file, or a new PostgreSQL schema. */
export async function freshDatabase (engine: EngineCase['name']): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'zonal-test-'))
    return { url: `sqlite:${join(dir, 'zonal.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const schema = `zt_${randomBytes(6).toString('hex')}`
  const url = new URL(PG_URL)
  url.searchParams.set('schema', schema)
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_URL })
      await client.connect()
      try {
        await client.query(`drop schema if exists "${schema}" cascade`)
      } finally {
        await client.end()
      }
    }
  }
}

/** A migrated store on a fresh database; `close` also drops the database. */
export async function freshStore (engine: EngineCase['name']): Promise<{ store: Store, url: string, close: () => Promise<void> }> {
  const database = await freshDatabase(engine)
  const store = await openStore(database.url)
  await store.migrate()
  return {
    store,
    url: database.url,
    close: async () => {
      await store.close()
      await database.drop()
    }
  }
}

/**
 * A fresh database of `engine` migrated up to `migration` only, for tests of a later migration:
 * `db` writes rows in the older form, `migrator` takes the database further, `close` closes the
 * connection (the database itself is dropped with the others at exit, as {@link freshDatabase}'s).
 */
export async function databaseAt (engine: EngineCase['name'], migration: string): Promise<{ database: TestDatabase, db: Kysely<any>, migrator: Migrator, close (): Promise<void> }> {
  const database = await freshDatabase(engine)
  const location = parseDatabaseUrl(database.url)
  const eng = location.engine === 'sqlite' ? openSqliteEngine(location.path) : await openPostgresEngine(location.connectionString, location.schema)
  const migrator = zonalMigrator(eng)
  const result = await migrator.migrateTo(migration)
  if (result.error !== undefined) {
    await eng.close()
    throw result.error
  }
  return { database, db: eng.db as unknown as Kysely<any>, migrator, close: async () => { await eng.close() } }
}
