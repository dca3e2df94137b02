import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'
import { partitionByMonth } from '../partitions.ts'

/**
 * PostgreSQL: the analytics tables partitioned by month on `day`, their rows kept, so the
 * retention drops whole months (`partitions.ts`). SQLite: nothing.
 */
export async function up (db: Kysely<any>, engine: EngineName): Promise<void> {
  for (const table of ['query_volume', 'response_codes', 'host_volume']) await partitionByMonth(db, engine, table)
}
