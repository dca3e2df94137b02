import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { Engine } from '../engine.ts'
import type { Database } from '../schema.ts'

const INT8_OID = 20

/**
 * Connect to PostgreSQL through a pool. `bigint` columns come back as numbers (our counters stay
 * far below 2^53). With `schema`, every connection works in that schema, created when missing.
 */
export async function openPostgresEngine (connectionString: string, schema?: string, poolSize = 10): Promise<Engine> {
  const types = {
    getTypeParser: (oid: number, format?: any) => oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)
  }
  if (schema !== undefined) {
    const setup = new pg.Client({ connectionString })
    await setup.connect()
    try {
      await setup.query(`create schema if not exists "${schema}"`)
    } finally {
      await setup.end()
    }
  }
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    types,
    options: schema === undefined ? undefined : `-c search_path=${schema}`
  })
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  await sql`select 1`.execute(db)
  let closed = false

  return {
    name: 'postgres',
    db,
    supportsSkipLocked: true,
    schema,
    async transaction (fn) {
      return await db.transaction().execute(fn)
    },
    isUniqueViolation: (err) => pgCode(err) === '23505',
    isForeignKeyViolation: (err) => pgCode(err) === '23503',
    async close () {
      if (closed) return
      closed = true
      await db.destroy()
    }
  }
}

function pgCode (err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined
}
