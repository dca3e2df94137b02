import type { Kysely } from 'kysely'
import { ambientTransaction } from '../ambient.ts'
import type { Engine } from '../engine.ts'
import { zonalMigrator } from '../migrations/migrator.ts'
import type { Database } from '../schema.ts'
import type { AccountStore, AnalyticsDataStore, AuditStore, RrsetStore, Store, TaskStore, TokenStore, UserStore, QueryCountStore, HostVolumeStore, ClientResponseStore, HealthCheckStore, DanglingReportStore, RawQueryStore, ReportRequestStore, UsageStore, ZoneChangeStore, ZoneSnapshotStore, ZoneStore, TrafficStore, DnssecStore, WebForwardStore } from '../store.ts'
import { SqlAccountStore } from './accounts.ts'
import { SqlAnalyticsDataStore } from './analytics-data.ts'
import { SqlAuditStore } from './audit.ts'
import { SqlHostVolumeStore } from './host-volume.ts'
import { SqlQueryCountStore } from './query-counts.ts'
import { SqlRawQueryStore } from './raw-queries.ts'
import { SqlReportRequestStore } from './report-requests.ts'
import { SqlClientResponseStore } from './client-responses.ts'
import { SqlRrsetStore } from './rrsets.ts'
import { SqlTaskStore } from './tasks.ts'
import { SqlTokenStore } from './tokens.ts'
import { SqlUsageStore, type UsageClock } from './usage.ts'
import { SqlUserStore } from './users.ts'
import { SqlZoneChangeStore } from './zone-changes.ts'
import { SqlZoneSnapshotStore } from './zone-snapshots.ts'
import { SqlZoneStore } from './zones.ts'
import { SqlHealthCheckStore } from './health-checks.ts'
import { SqlDanglingReportStore } from './dangling-reports.ts'
import { SqlTrafficStore } from './traffic.ts'
import { SqlDnssecStore } from './dnssec.ts'
import { SqlWebForwardStore } from './web-forwards.ts'

/** This process's zone watchers, shared by a store and its transactions. */
type Watchers = Set<(zoneId: string) => void>
/** This process's watchers of changes to who may use the API, shared likewise. */
type AuthWatchers = Set<() => void>

/** The table stores of one connection (the engine's pool, or one transaction). */
interface Parts {
  readonly accounts: AccountStore
  readonly users: UserStore
  readonly tokens: TokenStore
  readonly zones: ZoneStore
  readonly rrsets: RrsetStore
  readonly tasks: TaskStore
  readonly audit: AuditStore
  readonly zoneChanges: ZoneChangeStore
  readonly snapshots: ZoneSnapshotStore
  readonly queryCounts: QueryCountStore
  readonly hostVolume: HostVolumeStore
  readonly reportRequests: ReportRequestStore
  readonly rawQueries: RawQueryStore
  readonly clientResponses: ClientResponseStore
  readonly healthChecks: HealthCheckStore
  readonly danglingReports: DanglingReportStore
  readonly usage: SqlUsageStore
  readonly traffic: TrafficStore
  readonly dnssec: DnssecStore
  readonly webForwards: WebForwardStore
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
  /** Zones changed by this transaction, announced to the watchers after it commits. */
  private readonly changedZones = new Set<string>()
  /** Whether this transaction revoked tokens or changed a user's access (announced after commit). */
  private changedAuth = false

  private readonly engineImpl: Engine
  private readonly inTransaction: boolean
  private readonly watchers: Watchers
  private readonly authWatchers: AuthWatchers
  private readonly analytics: AnalyticsDataStore
  private readonly usageClock: UsageClock

  constructor (
    engineImpl: Engine,
    db: Kysely<Database> = engineImpl.db,
    inTransaction = false,
    watchers: Watchers = new Set(),
    authWatchers: AuthWatchers = new Set(),
    usageClock: UsageClock = { now: () => new Date() }
  ) {
    this.engineImpl = engineImpl
    this.inTransaction = inTransaction
    this.watchers = watchers
    this.authWatchers = authWatchers
    this.analytics = new SqlAnalyticsDataStore(engineImpl)
    const touched = async (zoneId: string, announced = false): Promise<void> => {
      if (!announced) await engineImpl.announceZone(db, zoneId)
      if (inTransaction) this.changedZones.add(zoneId)
      else {
        // Outside a transaction the change is committed: its usage is accounted at once, in a
        // transaction of its own (the account's totals and its day's row change together).
        await engineImpl.transaction(async (tx) => { await new SqlUsageStore(tx, engineImpl, usageClock).account([zoneId]) })
        for (const w of watchers) w(zoneId)
      }
    }
    const authChanged = async (): Promise<void> => {
      await engineImpl.announceAuth(db)
      if (inTransaction) this.changedAuth = true
      else for (const w of authWatchers) w()
    }
    const writeTransaction = inTransaction
      ? async <T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T> => await fn(db)
      : async <T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T> => await engineImpl.transaction(fn)
    this.parts = {
      accounts: new SqlAccountStore(db, engineImpl),
      users: new SqlUserStore(db, engineImpl, authChanged),
      tokens: new SqlTokenStore(db, authChanged),
      zones: new SqlZoneStore(db, engineImpl, touched),
      rrsets: new SqlRrsetStore(db),
      tasks: new SqlTaskStore(db, engineImpl),
      audit: new SqlAuditStore(db, engineImpl.name),
      zoneChanges: new SqlZoneChangeStore(db),
      snapshots: new SqlZoneSnapshotStore(db),
      queryCounts: new SqlQueryCountStore(db, writeTransaction, engineImpl),
      hostVolume: new SqlHostVolumeStore(db, writeTransaction, engineImpl),
      reportRequests: new SqlReportRequestStore(db),
      rawQueries: new SqlRawQueryStore(db, writeTransaction, engineImpl),
      clientResponses: new SqlClientResponseStore(db, writeTransaction, engineImpl),
      healthChecks: new SqlHealthCheckStore(db, engineImpl, inTransaction),
      danglingReports: new SqlDanglingReportStore(db),
      usage: new SqlUsageStore(db, engineImpl, usageClock),
      traffic: new SqlTrafficStore(db, writeTransaction, engineImpl),
      dnssec: new SqlDnssecStore(db),
      webForwards: new SqlWebForwardStore(db)
    }
    this.usageClock = usageClock
  }

  get accounts (): AccountStore { return this.current().parts.accounts }
  get users (): UserStore { return this.current().parts.users }
  get tokens (): TokenStore { return this.current().parts.tokens }
  get zones (): ZoneStore { return this.current().parts.zones }
  get rrsets (): RrsetStore { return this.current().parts.rrsets }
  get tasks (): TaskStore { return this.current().parts.tasks }
  get audit (): AuditStore { return this.current().parts.audit }
  get zoneChanges (): ZoneChangeStore { return this.current().parts.zoneChanges }
  get snapshots (): ZoneSnapshotStore { return this.current().parts.snapshots }
  get queryCounts (): QueryCountStore { return this.current().parts.queryCounts }
  get hostVolume (): HostVolumeStore { return this.current().parts.hostVolume }
  get analyticsData (): AnalyticsDataStore { return this.analytics }
  get reportRequests (): ReportRequestStore { return this.current().parts.reportRequests }
  get rawQueries (): RawQueryStore { return this.current().parts.rawQueries }
  get clientResponses (): ClientResponseStore { return this.current().parts.clientResponses }
  get healthChecks (): HealthCheckStore { return this.current().parts.healthChecks }
  get danglingReports (): DanglingReportStore { return this.current().parts.danglingReports }
  get usage (): UsageStore { return this.current().parts.usage }
  get traffic (): TrafficStore { return this.current().parts.traffic }
  get dnssec (): DnssecStore { return this.current().parts.dnssec }
  get webForwards (): WebForwardStore { return this.current().parts.webForwards }

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
    let tx: SqlStore | undefined
    const result = await this.engineImpl.transaction(async (db) => {
      tx = new SqlStore(this.engineImpl, db, true, this.watchers, this.authWatchers, this.usageClock)
      const out = await fn(tx)
      // The usage of the zones it changed, accounted last (the account rows it locks are held the least).
      if (tx.changedZones.size > 0) await tx.parts.usage.account(tx.changedZones)
      return out
    })
    for (const id of tx?.changedZones ?? []) for (const w of this.watchers) w(id)
    if (tx?.changedAuth === true) for (const w of this.authWatchers) w()
    return result
  }

  async watchZones (onZone: (zoneId: string) => void, onResync: () => void): Promise<() => Promise<void>> {
    const stopEngine = await this.engineImpl.watch(onZone, onResync)
    this.watchers.add(onZone)
    return async () => {
      this.watchers.delete(onZone)
      await stopEngine()
    }
  }

  async watchAuth (onChange: () => void): Promise<() => Promise<void>> {
    const stopEngine = await this.engineImpl.watchAuth(onChange)
    this.authWatchers.add(onChange)
    return async () => {
      this.authWatchers.delete(onChange)
      await stopEngine()
    }
  }

  async migrate (): Promise<string[]> {
    const { error, results } = await zonalMigrator(this.engineImpl).migrateToLatest()
    if (error !== undefined) throw error instanceof Error ? error : new Error(String(error))
    return (results ?? []).filter(r => r.status === 'Success').map(r => r.migrationName)
  }

  async close (): Promise<void> {
    await this.engineImpl.close()
  }
}
