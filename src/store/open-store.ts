import { parseDatabaseUrl } from './engine.ts'
import { openPostgresEngine } from './postgres/postgres-engine.ts'
import { SqlStore } from './sql/sql-store.ts'
import { openSqliteEngine } from './sqlite/sqlite-engine.ts'
import type { Store } from './store.ts'

/**
 * Open the store `ZONAL_DATABASE_URL` names; `poolSize` is the PostgreSQL pool's connections at
 * most (`ZONAL_DATABASE_POOL_SIZE`). Migrations are not applied here: call `store.migrate()`
 * (the `serve` and `migrate` commands do).
 */
export async function openStore (url: string, options: { poolSize?: number } = {}): Promise<Store> {
  const location = parseDatabaseUrl(url)
  const engine = location.engine === 'sqlite'
    ? openSqliteEngine(location.path)
    : await openPostgresEngine(location.connectionString, location.schema, options.poolSize)
  return new SqlStore(engine)
}
