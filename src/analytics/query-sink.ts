import type { QueryBatch } from './query-batch.ts'

/**
 * Where captured queries go, a batch at a time, off the answer path (the collector calls it
 * from `setImmediate`). The batch is lent: read it before returning (or before the returned
 * promise settles) and keep nothing of it but copies; it is then refilled.
 *
 * A sink that returns a promise is given no new batch until that promise settles; meanwhile
 * the collector queues a bounded number of batches and counts what it must drop.
 */
export interface QuerySink {
  write (batch: QueryBatch): void | Promise<void>
}
