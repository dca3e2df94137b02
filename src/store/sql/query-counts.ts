import { sql, type Kysely } from 'kysely'
import { RCODE_COUNTERS, VOLUME_COUNTERS } from '../query-count-columns.ts'
import type { Database } from '../schema.ts'
import type { QueryCountRow, QueryCountStore } from '../store.ts'

/** Rows per INSERT: 45 parameters a row stays far below both engines' limits. */
const ROWS_PER_STATEMENT = 200

type CountTable = 'query_volume' | 'response_codes'

export class SqlQueryCountStore implements QueryCountStore {
  private readonly inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>

  /** `inTransaction` runs its function in one write transaction (the current one inside a transaction). */
  constructor (inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>) {
    this.inTransaction = inTransaction
  }

  async add (flush: { volume: QueryCountRow[], rcodes: QueryCountRow[] }): Promise<void> {
    if (flush.volume.length === 0 && flush.rcodes.length === 0) return
    await this.inTransaction(async (db) => {
      await upsert(db, 'query_volume', VOLUME_COUNTERS, flush.volume)
      await upsert(db, 'response_codes', RCODE_COUNTERS, flush.rcodes)
    })
  }
}

/** INSERT … ON CONFLICT (day, zone, node) DO UPDATE SET c = c + excluded.c, on both engines. */
async function upsert (db: Kysely<Database>, table: CountTable, counters: readonly string[], rows: QueryCountRow[]): Promise<void> {
  const set: Record<string, unknown> = {}
  for (const c of counters) set[c] = sql`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`
  for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
    const values = rows.slice(from, from + ROWS_PER_STATEMENT).map(r => {
      const v: Record<string, unknown> = { day: r.day, zone: r.zone, node: r.node }
      for (const c of counters) v[c] = r.counts[c] ?? 0
      return v
    })
    await db.insertInto(table).values(values as any)
      .onConflict(oc => oc.columns(['day', 'zone', 'node']).doUpdateSet(set as any))
      .execute()
  }
}
