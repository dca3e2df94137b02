import { sql, type Kysely } from 'kysely'
import { RCODE_COUNTERS, VOLUME_COUNTERS } from '../query-count-columns.ts'
import type { Database } from '../schema.ts'
import type { QueryCountRow, QueryCountStore } from '../store.ts'

/** Parameters per INSERT: far below both engines' limits (SQLite 32,766, PostgreSQL 65,535). */
const PARAMETERS_PER_STATEMENT = 10_000

/** A table of additive counters (query_volume, response_codes, host_volume). */
export type CountTable = 'query_volume' | 'response_codes' | 'host_volume'

export class SqlQueryCountStore implements QueryCountStore {
  private readonly inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>

  /** `inTransaction` runs its function in one write transaction (the current one inside a transaction). */
  constructor (inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>) {
    this.inTransaction = inTransaction
  }

  async add (flush: { volume: QueryCountRow[], rcodes: QueryCountRow[] }): Promise<void> {
    if (flush.volume.length === 0 && flush.rcodes.length === 0) return
    await this.inTransaction(async (db) => {
      await upsertCounts(db, 'query_volume', ['day', 'zone', 'node'], VOLUME_COUNTERS, flush.volume)
      await upsertCounts(db, 'response_codes', ['day', 'zone', 'node'], RCODE_COUNTERS, flush.rcodes)
    })
  }
}

/**
 * INSERT … ON CONFLICT (keys) DO UPDATE SET c = c + excluded.c, on both engines: each row's
 * counters (missing ones as 0) are added to the stored row of its key, created when missing.
 */
export async function upsertCounts<R extends { counts: Partial<Record<string, number>> }> (
  db: Kysely<Database>, table: CountTable, keys: ReadonlyArray<keyof R & string>, counters: readonly string[], rows: readonly R[]
): Promise<void> {
  const set: Record<string, unknown> = {}
  for (const c of counters) set[c] = sql`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`
  const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / (keys.length + counters.length)))
  for (let from = 0; from < rows.length; from += perStatement) {
    const values = rows.slice(from, from + perStatement).map(r => {
      const v: Record<string, unknown> = {}
      for (const k of keys) v[k] = r[k]
      for (const c of counters) v[c] = r.counts[c] ?? 0
      return v
    })
    await db.insertInto(table).values(values as any)
      .onConflict(oc => oc.columns(keys as any).doUpdateSet(set as any))
      .execute()
  }
}
