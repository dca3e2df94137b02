import type { Kysely, RawBuilder } from 'kysely'
import { ConfigError } from '../config/config.ts'
import type { Database } from './schema.ts'

export type EngineName = 'sqlite' | 'postgres'

/**
 * A comment that keeps a statement from being prepared by name on PostgreSQL (put it in with
 * `.modifyFront(sql.raw(PLAN_EACH_TIME))`), so each run is planned with its values: for report
 * reads over a range whose best plan depends on them (a generic plan, chosen after five runs,
 * cannot see that a bound array holds 1,000 zone names and searches it linearly for each row:
 * a minute instead of half a second). A comment to SQLite.
 */
export const PLAN_EACH_TIME = '/* plan each time */'

/**
 * What differs between the engines, and nothing else (STYLE.md §8.8): how a connection is made
 * and closed, how a write transaction starts, and which driver errors mean what.
 */
export interface Engine {
  readonly name: EngineName
  readonly db: Kysely<Database>
  /**
   * The engine takes row locks that other transactions can skip (`SELECT … FOR UPDATE SKIP
   * LOCKED`, PostgreSQL). Without it (SQLite), writers are serialised, so a single
   * `UPDATE … RETURNING` is atomic already.
   */
  readonly supportsSkipLocked?: boolean
  /**
   * The PostgreSQL schema holding Zonal's tables when the URL names one. The migrator keeps its
   * own tables there too (it reads the catalog of the connection's search path only).
   */
  readonly schema?: string
  /**
   * SQLite only: run one statement for each row of positional parameters, at once and in
   * process, on the engine's one connection (so inside a transaction of {@link transaction}:
   * call it from there); resolves nothing, returns the rows changed. The statement is prepared
   * once and kept. The analytics flushes write thousands of rows every few seconds this way:
   * building their multi-row INSERTs through Kysely cost more than SQLite's own work
   * (BENCHMARKS.md, analytics). Absent on PostgreSQL, whose flushes send one array a column.
   */
  readonly runEach?: (sql: string, rows: Iterable<readonly unknown[]>) => number
  /** Run `fn` in one write transaction (SQLite: BEGIN IMMEDIATE, so writers queue instead of failing). */
  transaction<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>
  /**
   * Tell other processes on the database that a zone changed, when the transaction of `db`
   * commits (PostgreSQL `NOTIFY`); nothing on SQLite, whose other processes see `watch`'s resync.
   */
  announceZone (db: Kysely<Database>, zoneId: string): Promise<void>
  /**
   * An expression that announces the zone as {@link announceZone} does when a statement of the
   * transaction selects it (in its RETURNING), saving a round trip (PostgreSQL `pg_notify`);
   * absent where `announceZone` does nothing.
   */
  zoneAnnouncement?: (zoneId: string) => RawBuilder<unknown>
  /**
   * Watch for changes committed by other processes: PostgreSQL `LISTEN` (`onZone` with the id
   * of each announced zone; `onResync` after each reconnect), SQLite `PRAGMA data_version`
   * polled (`onResync` when another connection committed). Resolves to a stop function.
   */
  watch (onZone: (zoneId: string) => void, onResync: () => void): Promise<() => Promise<void>>
  /**
   * Tell other processes on the database that who may use the API changed (tokens revoked, a
   * user disabled, deleted or given other memberships), when the transaction of `db` commits
   * (PostgreSQL `NOTIFY` on a channel of its own); nothing on SQLite (see `watchAuth`).
   */
  announceAuth (db: Kysely<Database>): Promise<void>
  /**
   * Watch for such changes by other processes: PostgreSQL `LISTEN` (`onChange` for each, and after
   * each reconnect), SQLite `PRAGMA data_version` polled (`onChange` when another connection
   * committed anything). Resolves to a stop function.
   */
  watchAuth (onChange: () => void): Promise<() => Promise<void>>
  isUniqueViolation (err: unknown): boolean
  isForeignKeyViolation (err: unknown): boolean
  close (): Promise<void>
}

/** A parsed `ZONAL_DATABASE_URL`. */
export type DatabaseLocation =
  | { engine: 'sqlite', path: string }
  | { engine: 'postgres', connectionString: string, schema?: string }

/**
 * Parse `ZONAL_DATABASE_URL`: `sqlite:<path>` (`sqlite::memory:` for a throw-away database) or
 * `postgres://…` / `postgresql://…`, which may carry `?schema=<name>` to keep Zonal's tables in
 * their own schema (created when missing).
 *
 * @throws ConfigError with a readable message for any other form.
 */
export function parseDatabaseUrl (url: string): DatabaseLocation {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '')
    if (path === '') throw new ConfigError('ZONAL_DATABASE_URL: sqlite: needs a file path, e.g. sqlite:./data/zonal.db')
    return { engine: 'sqlite', path }
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      throw new ConfigError('ZONAL_DATABASE_URL: not a valid postgres:// URL')
    }
    const schema = parsed.searchParams.get('schema') ?? undefined
    parsed.searchParams.delete('schema')
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new ConfigError('ZONAL_DATABASE_URL: schema must be a lower-case SQL identifier')
    }
    return { engine: 'postgres', connectionString: parsed.toString(), schema }
  }
  throw new ConfigError(`ZONAL_DATABASE_URL: unsupported URL "${url}" (use sqlite:<path> or postgres://…)`)
}
