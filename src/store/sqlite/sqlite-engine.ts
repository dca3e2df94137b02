import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import type { Engine } from '../engine.ts'
import type { Database } from '../schema.ts'
import { startCheckpoints } from './checkpoint.ts'

/** How often other processes' commits are looked for (one pragma read). */
const DATA_VERSION_POLL_MS = 200

/**
 * Open (creating file and folder when missing) a SQLite database in WAL mode with foreign keys
 * on. Several processes may use one file: writers queue on `busy_timeout`.
 */
export function openSqliteEngine (path: string): Engine {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const raw = new BetterSqlite3(path)
  raw.pragma('journal_mode = WAL')
  raw.pragma('foreign_keys = ON')
  raw.pragma('busy_timeout = 10000')
  raw.pragma('synchronous = NORMAL')
  // Checkpoints run in a worker thread (./checkpoint.ts), not inside this connection's COMMITs;
  // should one fail, SQLite's automatic checkpoint takes over again.
  let stopCheckpoints = async (): Promise<void> => {}
  if (path !== ':memory:') {
    raw.pragma('wal_autocheckpoint = 0')
    stopCheckpoints = startCheckpoints(path, () => {
      if (!closed) raw.pragma('wal_autocheckpoint = 1000')
      stopCheckpoints().catch(() => {})
    })
  }
  // Kysely prepares every query anew; better-sqlite3 statements can be reused, so keep the
  // prepared statement of each SQL text (the query shapes are few; the cache is bounded).
  const statements = new Map<string, BetterSqlite3.Statement>()
  const database = {
    close: () => raw.close(),
    prepare: (sql: string) => {
      let statement = statements.get(sql)
      if (statement === undefined) {
        if (statements.size >= 2000) statements.clear()
        statement = raw.prepare(sql)
        statements.set(sql, statement)
      }
      return statement
    }
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) })
  let closed = false
  /** `onCommit` whenever another connection (another process) committed to the file. */
  const watchDataVersion = (onCommit: () => void): () => Promise<void> => {
    let seen = raw.pragma('data_version', { simple: true })
    const timer = setInterval(() => {
      if (closed) return
      const now = raw.pragma('data_version', { simple: true })
      if (now === seen) return
      seen = now
      onCommit()
    }, DATA_VERSION_POLL_MS)
    timer.unref()
    return async () => clearInterval(timer)
  }

  return {
    name: 'sqlite',
    db,
    runEach (text, rows) {
      const statement = database.prepare(text)
      let changed = 0
      for (const row of rows) changed += statement.run(row).changes
      return changed
    },
    async transaction (fn) {
      // Kysely's SQLite driver holds one connection; reserve it for the whole transaction.
      return await db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn)
        try {
          const result = await fn(conn)
          await sql`commit`.execute(conn)
          return result
        } catch (err) {
          await sql`rollback`.execute(conn)
          throw err
        }
      })
    },
    async announceZone () {},
    async watch (_onZone, onResync) {
      return watchDataVersion(onResync)
    },
    async announceAuth () {},
    async watchAuth (onChange) {
      return watchDataVersion(onChange)
    },
    isUniqueViolation: (err) => hasCode(err, 'SQLITE_CONSTRAINT_UNIQUE') || hasCode(err, 'SQLITE_CONSTRAINT_PRIMARYKEY'),
    isForeignKeyViolation: (err) => hasCode(err, 'SQLITE_CONSTRAINT_FOREIGNKEY'),
    async close () {
      if (closed) return
      closed = true
      await stopCheckpoints()
      await db.destroy()
    }
  }
}

function hasCode (err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code
}
