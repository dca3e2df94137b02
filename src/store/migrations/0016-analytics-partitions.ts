import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'
import { ANALYTICS_TABLES } from '../analytics-tables.ts'
import { partitionByMonth } from '../partitions.ts'

/**
 * PostgreSQL: the analytics tables partitioned by month on `day`, their rows kept, so the
 * retention drops whole months (`partitions.ts`). SQLite: nothing.
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  // The tables of the list marked for this migration (those created before it).
  for (const { name } of ANALYTICS_TABLES.filter(t => t.partitionedBy === '0016')) await partitionByMonth(db, engine, name)
}
