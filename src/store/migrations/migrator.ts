import { Migrator } from 'kysely/migration'
import type { Engine } from '../engine.ts'
import { ZonalMigrationProvider } from './index.ts'

/**
 * Kysely's migrator over Zonal's migrations, its own tables in the engine's schema when it has
 * one (PostgreSQL reads the catalog of the connection's search path only: `postgres-engine.ts`).
 */
export function zonalMigrator (engine: Pick<Engine, 'db' | 'name' | 'schema'>): Migrator {
  return new Migrator({ db: engine.db, provider: new ZonalMigrationProvider(engine.name), migrationTableSchema: engine.schema })
}
