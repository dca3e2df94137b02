import { Migrator, type Kysely } from 'kysely'
import type { Engine } from '../engine.ts'
import { ZonalMigrationProvider } from '../migrations/index.ts'
import type { Database } from '../schema.ts'
import type { AccountStore, AuditStore, RrsetStore, Store, TaskStore, TokenStore, UserStore, ZoneStore } from '../store.ts'
import { SqlAccountStore } from './accounts.ts'
import { SqlAuditStore } from './audit.ts'
import { SqlRrsetStore } from './rrsets.ts'
import { SqlTaskStore } from './tasks.ts'
import { SqlTokenStore } from './tokens.ts'
import { SqlUserStore } from './users.ts'
import { SqlZoneStore } from './zones.ts'

/**
 * The {@link Store} over Kysely, shared by both engines; the engine supplies the connection,
 * transactions and error classification.
 */
export class SqlStore implements Store {
  readonly accounts: AccountStore
  readonly users: UserStore
  readonly tokens: TokenStore
  readonly zones: ZoneStore
  readonly rrsets: RrsetStore
  readonly tasks: TaskStore
  readonly audit: AuditStore

  constructor (private readonly engineImpl: Engine, private readonly db: Kysely<Database> = engineImpl.db, private readonly inTransaction = false) {
    this.accounts = new SqlAccountStore(db, engineImpl)
    this.users = new SqlUserStore(db, engineImpl)
    this.tokens = new SqlTokenStore(db)
    this.zones = new SqlZoneStore(db, engineImpl)
    this.rrsets = new SqlRrsetStore(db)
    this.tasks = new SqlTaskStore(db, engineImpl)
    this.audit = new SqlAuditStore(db)
  }

  get engine (): Engine['name'] {
    return this.engineImpl.name
  }

  async transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return await fn(this)
    return await this.engineImpl.transaction(async (db) => await fn(new SqlStore(this.engineImpl, db, true)))
  }

  async migrate (): Promise<string[]> {
    const migrator = new Migrator({ db: this.engineImpl.db, provider: new ZonalMigrationProvider(this.engineImpl.name), migrationTableSchema: this.engineImpl.schema })
    const { error, results } = await migrator.migrateToLatest()
    if (error !== undefined) throw error instanceof Error ? error : new Error(String(error))
    return (results ?? []).filter(r => r.status === 'Success').map(r => r.migrationName)
  }

  async close (): Promise<void> {
    await this.engineImpl.close()
  }
}
