import { statSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'
import { offloaded } from '../../util/worker-pool.ts'

/** WAL size from which a checkpoint is run (SQLite's own automatic one starts at 1,000 pages, about 4 MB). */
export const CHECKPOINT_WAL_BYTES = 4 * 1024 * 1024

/** How often the WAL's size is looked at. */
const CHECK_MS = 1000

/**
 * Copy the WAL's pages into the database file (`PRAGMA wal_checkpoint(PASSIVE)`: never waits
 * for, nor blocks, readers and writers) on a connection of its own, made to run in a worker
 * thread. Returns SQLite's `[busy, log, checkpointed]` counts.
 */
export function checkpointWal (path: string): { busy: number, log: number, checkpointed: number } {
  const db = new BetterSqlite3(path, { fileMustExist: true })
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number, log: number, checkpointed: number }>
    return row ?? { busy: 0, log: 0, checkpointed: 0 }
  } finally {
    db.close()
  }
}

const checkpointOffThread = offloaded<typeof checkpointWal>(new URL(import.meta.url), 'checkpointWal')

/**
 * Checkpoints of a WAL database run in a worker thread instead of by the connection that commits
 * (the service's one connection sets `wal_autocheckpoint = 0`): SQLite's automatic checkpoint
 * runs inside the `COMMIT` that crosses its threshold, and after a large transaction (a
 * 300,000-record upload) copying the WAL back held the event loop for about a second. Every
 * {@link CHECK_MS} the WAL's size is looked at; from {@link CHECKPOINT_WAL_BYTES} one checkpoint
 * runs (one at a time). Resolves the stop function, which waits for a running checkpoint.
 */
export function startCheckpoints (path: string, onError: (err: unknown) => void): () => Promise<void> {
  let running: Promise<void> | undefined
  const timer = setInterval(() => {
    if (running !== undefined) return
    let size: number
    try {
      size = statSync(`${path}-wal`).size
    } catch {
      return
    }
    if (size < CHECKPOINT_WAL_BYTES) return
    running = checkpointOffThread(path).then(() => {}, onError).finally(() => { running = undefined })
  }, CHECK_MS)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
