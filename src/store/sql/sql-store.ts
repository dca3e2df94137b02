import { Migrator, type Kysely } from 'kysely'
import { ambientTransaction } from '../ambient.ts'
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

/** The table stores of one connection (the engine's pool, or one transaction). */
interface Parts {
  readonly accounts: AccountStore
  readonly users: UserStore
  readonly tokens: TokenStore
  readonly zones: ZoneStore
  readonly rrsets: RrsetStore
  readonly tasks: TaskStore
  readonly audit: AuditStore
}

/**
 * The {@link Store} over Kysely, shared by both engines; the engine supplies the connection,
 * transactions and error classification.
 *
 * Inside `runInTransaction` (`../ambient.ts`) on the same engine, the table stores and
 * `transaction()` are those of that ambient transaction: each getter picks them at call time, so
 * code holding this store joins the transaction without being handed it.
 */
export class SqlStore implements Store {
  private readonly parts: Parts

  constructor (private readonly engineImpl: Engine, db: Kysely<Database> = engineImpl.db, private readonly inTransaction = false) {
    this.parts = {
      accounts: new SqlAccountStore(db, engineImpl),
      users: new SqlUserStore(db, engineImpl),
      tokens: new SqlTokenStore(db),
      zones: new SqlZoneStore(db, engineImpl),
      rrsets: new SqlRrsetStore(db),
      tasks: new SqlTaskStore(db, engineImpl),
      audit: new SqlAuditStore(db)
    }
  }

  get accounts (): AccountStore { return this.current().parts.accounts }
  get users (): UserStore { return this.current().parts.users }
  get tokens (): TokenStore { return this.current().parts.tokens }
  get zones (): ZoneStore { return this.current().parts.zones }
  get rrsets (): RrsetStore { return this.current().parts.rrsets }
  get tasks (): TaskStore { return this.current().parts.tasks }
  get audit (): AuditStore { return this.current().parts.audit }

  get engine (): Engine['name'] {
    return this.engineImpl.name
  }

  /** The ambient transaction of this engine when one is open in this async context, else this store. */
  private current (): SqlStore {
    if (this.inTransaction) return this
    const tx = ambientTransaction()
    return tx instanceof SqlStore && tx.engineImpl === this.engineImpl ? tx : this
  }

  async transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    const current = this.current()
    if (current.inTransaction) return await fn(current)
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
