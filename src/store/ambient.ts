import { AsyncLocalStorage } from 'node:async_hooks'
import type { Store } from './store.ts'

/** One open ambient transaction: its store, and whether `fn` still runs. */
interface Frame {
  readonly tx: Store
  open: boolean
}

const frames = new AsyncLocalStorage<Frame>()

/**
 * Run `fn` in one transaction of `store` that every store call of the same async context joins:
 * routes, use cases and their nested `store.transaction(…)` calls, however they got hold of the
 * store, all run on `tx` until `fn` settles. The transaction commits when `fn` resolves and rolls
 * back when it throws. `POST /batch` runs its sub-requests this way.
 *
 * @remarks
 * - A nested `store.transaction(fn)` inside joins the ambient one and calls `fn` with it (no
 *   savepoint), as nested transactions already do: a sub-step that fails only undoes its writes
 *   when the whole ambient transaction rolls back.
 * - Work started inside that outlives `fn` (a timer, a promise nobody awaits) falls back to the
 *   plain store once `fn` settled; it never writes into a finished transaction.
 * - SQLite has one connection: while the transaction holds it, a query from another async context
 *   waits until it ends. Code inside `fn` must therefore not wait for work it started in another
 *   context (e.g. `AsyncLocalStorage.exit`) that queries the store, or it would wait for itself.
 * - On PostgreSQL the transaction holds one pooled connection; other contexts use other ones and
 *   do not see its writes until it commits.
 */
export async function runInTransaction<T> (store: Store, fn: (tx: Store) => Promise<T>): Promise<T> {
  return await store.transaction(async (tx) => {
    const frame: Frame = { tx, open: true }
    try {
      return await frames.run(frame, async () => await fn(tx))
    } finally {
      frame.open = false
    }
  })
}

/**
 * The store of the ambient transaction of the current async context, while its `fn` runs. The
 * store implementation decides whether it belongs to the same database (see `SqlStore`).
 */
export function ambientTransaction (): Store | undefined {
  const frame = frames.getStore()
  return frame?.open === true ? frame.tx : undefined
}
