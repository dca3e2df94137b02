import type { Kysely } from 'kysely'
import { RCODE_COUNTERS, VOLUME_COUNTERS } from '../query-count-columns.ts'
import type { Engine } from '../engine.ts'
import type { Database } from '../schema.ts'
import type { CountedRow, CountReportQuery, HostVolumeRow, HostVolumeStore } from '../store.ts'
import { countReads, upsertCounts } from './query-counts.ts'

const COUNTERS = [...VOLUME_COUNTERS, ...RCODE_COUNTERS]

/** `host_volume` (migration 0015): query volume and response codes per (day, zone, host, node). */
export class SqlHostVolumeStore implements HostVolumeStore {
  private readonly db: Kysely<Database>
  private readonly inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>

  private readonly engine: Engine

  /** `inTransaction` runs its function in one write transaction (the current one inside a transaction). */
  constructor (db: Kysely<Database>, inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>, engine: Engine) {
    this.db = db
    this.inTransaction = inTransaction
    this.engine = engine
  }

  async add (rows: HostVolumeRow[]): Promise<void> {
    if (rows.length === 0) return
    await this.inTransaction(async (db) => {
      await upsertCounts(db, this.engine, 'host_volume', ['day', 'zone', 'host', 'node'], COUNTERS, rows)
    })
  }

  async volumeByHost (q: CountReportQuery): Promise<CountedRow[]> { return await countReads.volumeByHost(this.db, q) }
  async nxdomainsByHost (q: CountReportQuery): Promise<CountedRow[]> { return await countReads.nxdomainsByHost(this.db, q) }
}
