import { setTimeout as sleep } from 'node:timers/promises'
import { Migrator, type MigrateOptions, type MigrationResultSet, type NoMigrations } from 'kysely/migration'
import type { Engine } from '../engine.ts'
import { ZonalMigrationProvider } from './index.ts'

/** Attempts of a migration whose catalog read another schema's drop disturbed. */
const ATTEMPTS = 10

/**
 * Kysely's migrator over Zonal's migrations, in the engine's schema, that survives other schemas
 * of the same database being dropped meanwhile. Kysely finds its migration tables by reading the
 * catalog of every schema; a schema dropped during that read (another Zonal's, sharing the
 * database) fails it with PostgreSQL's invalid_schema_name (3F000) naming that other schema.
 * Nothing was migrated then, so the read is made again (up to 10 times, waiting a little longer
 * each time). A failure before any migration ran, which Kysely throws, is returned as the
 * result's error like the others.
 */
export class ZonalMigrator extends Migrator {
  private readonly schema: string | undefined

  constructor (engine: Pick<Engine, 'db' | 'name' | 'schema'>) {
    super({ db: engine.db, provider: new ZonalMigrationProvider(engine.name), migrationTableSchema: engine.schema })
    this.schema = engine.schema
  }

  override async migrateToLatest (options?: MigrateOptions): Promise<MigrationResultSet> {
    return await this.retried(async () => await super.migrateToLatest(options))
  }

  override async migrateTo (target: string | NoMigrations, options?: MigrateOptions): Promise<MigrationResultSet> {
    return await this.retried(async () => await super.migrateTo(target, options))
  }

  private async retried (run: () => Promise<MigrationResultSet>): Promise<MigrationResultSet> {
    for (let attempt = 1; ; attempt++) {
      const result = await run().catch((thrown: unknown): MigrationResultSet => ({ error: thrown }))
      if (result.error === undefined || attempt >= ATTEMPTS || !otherSchemaVanished(result.error, this.schema)) return result
      await sleep(attempt * 10)
    }
  }
}

function otherSchemaVanished (error: unknown, ours: string | undefined): boolean {
  const e = error as { code?: unknown, message?: unknown }
  if (e.code !== '3F000' || typeof e.message !== 'string') return false
  return ours === undefined || !e.message.includes(`"${ours}"`)
}
