import { Kysely, PostgresDialect, sql, type DatabaseIntrospector, type SchemaMetadata, type TableMetadata } from 'kysely'
import pg from 'pg'
import { PLAN_EACH_TIME, type Engine } from '../engine.ts'
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
    Client: PreparingClient,
    connectionString,
    max: poolSize,
    types,
    options: schema === undefined ? undefined : `-c search_path=${schema}`
  })
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new SearchPathDialect({ pool }) })
  await sql`select 1`.execute(db)
  let closed = false
  // One channel per schema, so databases shared by several Zonal schemas do not cross-talk.
  const channel = schema === undefined ? 'zonal_zones' : `zonal_zones_${schema}`
  const authChannel = schema === undefined ? 'zonal_auth' : `zonal_auth_${schema}`

  return {
    name: 'postgres',
    db,
    supportsSkipLocked: true,
    schema,
    async transaction (fn) {
      return await db.transaction().execute(fn)
    },
    async announceZone (conn, zoneId) {
      await sql`select pg_notify(${channel}, ${zoneId})`.execute(conn)
    },
    zoneAnnouncement: (zoneId) => sql`pg_notify(${channel}, ${zoneId})`,
    async watch (onZone, onResync) {
      return await listen(connectionString, channel, onZone, onResync)
    },
    async announceAuth (conn) {
      await sql`select pg_notify(${authChannel}, '')`.execute(conn)
    },
    async watchAuth (onChange) {
      return await listen(connectionString, authChannel, () => { onChange() }, onChange)
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

/** How long a lost LISTEN connection waits before reconnecting. */
const RECONNECT_MS = 1000

/**
 * A dedicated connection LISTENing on `channel`, reconnected when lost; `onResync` after every
 * reconnect (notifications sent meanwhile were missed).
 */
async function listen (connectionString: string, channel: string, onZone: (id: string) => void, onResync: () => void): Promise<() => Promise<void>> {
  let stopped = false
  let client: pg.Client | undefined
  let timer: NodeJS.Timeout | undefined
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString })
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) onZone(n.payload)
    })
    const lost = (): void => {
      if (client !== c) return
      client = undefined
      c.removeAllListeners('end')
      c.end().catch(() => {})
      if (!stopped) retry()
    }
    c.on('error', lost)
    c.on('end', lost)
    await c.connect()
    await c.query(`listen "${channel}"`)
    client = c
  }
  const retry = (): void => {
    timer = setTimeout(() => {
      connect().then(onResync, () => { if (!stopped) retry() })
    }, RECONNECT_MS)
    timer.unref()
  }
  await connect()
  return async () => {
    stopped = true
    if (timer !== undefined) clearTimeout(timer)
    const c = client
    client = undefined
    await c?.end().catch(() => {})
  }
}

function pgCode (err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined
}

/** Statements longer than this are not prepared (bulk inserts of many rows); nor those marked {@link PLAN_EACH_TIME}. */
const MAX_PREPARED_TEXT = 16_384
/** Distinct statement texts this process names at most; later ones run unnamed. */
const MAX_PREPARED = 4096
/** PostgreSQL: a prepared statement's result columns changed (a migration by another process). */
const RESULT_TYPE_CHANGED = '0A000'

/** The name of each statement text prepared so far, the same on every connection. */
const statementNames = new Map<string, string>()

function statementName (text: string): string | undefined {
  if (text.includes(PLAN_EACH_TIME)) return undefined
  let name = statementNames.get(text)
  if (name === undefined && text.length <= MAX_PREPARED_TEXT && statementNames.size < MAX_PREPARED) {
    name = `zonal_${statementNames.size}`
    statementNames.set(text, name)
  }
  return name
}

/**
 * A pool connection that prepares each parameterised statement (Kysely's queries) the first time
 * it runs it and executes it by name afterwards, so PostgreSQL parses it once per connection and
 * plans it as its plan cache decides (`plan_cache_mode`, default `auto`: the first five runs
 * planned with their values, then a generic plan when that is not costlier). After a migration by
 * another process changed a prepared statement's result columns (SQLSTATE 0A000, "cached plan
 * must not change result type"), that statement fails once and the connection prepares every
 * statement again under new names.
 */
class PreparingClient extends pg.Client {
  private generation = 0

  override query (config: any, values?: any, callback?: any): any {
    if (typeof config !== 'string' || !Array.isArray(values) || typeof callback === 'function') return super.query(config, values, callback)
    const name = statementName(config)
    if (name === undefined) return super.query(config, values)
    const result = super.query({ text: config, values, name: this.generation === 0 ? name : `${name}_${this.generation}` }) as Promise<unknown>
    return result.catch((err: unknown) => {
      if (pgCode(err) === RESULT_TYPE_CHANGED) this.generation++
      throw err
    })
  }
}

/**
 * What Kysely's migrator asks of the catalog (does its schema exist, do its tables), read from
 * `pg_namespace` and `pg_class` alone, tables only of the schemas of the connection's search path
 * (Zonal's schema, or `public`). Kysely's own introspector reads every table of every schema with
 * functions called on each (`has_schema_privilege`, `col_description`, `pg_get_serial_sequence`),
 * which fail (3F000, 42P01, 42703, XX000) when another schema of the same database is dropped
 * meanwhile, and it finds a migration table of another schema as if it were ours.
 */
class SearchPathIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<any>

  constructor (db: Kysely<any>) {
    this.#db = db
  }

  async getSchemas (): Promise<SchemaMetadata[]> {
    return (await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.#db)).rows
  }

  async getTables (): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string, schema: string, kind: string }>`
      select c.relname as name, n.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'v', 'p', 'f') and n.nspname = any (current_schemas(false))`.execute(this.#db)
    return rows.map(r => ({ name: r.name, schema: r.schema, isView: r.kind === 'v', isForeign: r.kind === 'f', columns: [] }))
  }
}

/** PostgreSQL as Kysely speaks it, with the catalog read through {@link SearchPathIntrospector}. */
class SearchPathDialect extends PostgresDialect {
  override createIntrospector (db: Kysely<any>): DatabaseIntrospector {
    return new SearchPathIntrospector(db)
  }
}
