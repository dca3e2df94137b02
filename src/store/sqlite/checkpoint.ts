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
 * {@link CHECK_MS} the WAL's size is looked at; from {@link CHECKPOINT_WAL_BYTES}, when it was
 * written to since the last checkpoint, one checkpoint runs (one at a time). Returns the stop
 * function, which waits for a running checkpoint.
 */
export function startCheckpoints (path: string, onError: (err: unknown) => void): () => Promise<void> {
  const walCheckpoints = new WalCheckpoints(path, onError)
  const timer = setInterval(() => { walCheckpoints.look() }, CHECK_MS)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await walCheckpoints.running
  }
}

/** The checkpoints of one database, looked at by {@link startCheckpoints}' timer. */
export class WalCheckpoints {
  /** The checkpoint running, if one is. */
  running: Promise<void> | undefined
  /** The WAL's modification time when the last checkpoint that succeeded started. */
  private checked: number | undefined
  private readonly path: string
  private readonly onError: (err: unknown) => void
  private readonly checkpoint: (path: string) => Promise<unknown>

  /** @param checkpoint runs one checkpoint (in the worker pool; tests give their own). */
  constructor (path: string, onError: (err: unknown) => void, checkpoint: (path: string) => Promise<unknown> = checkpointOffThread) {
    this.path = path
    this.onError = onError
    this.checkpoint = checkpoint
  }

  /**
   * Start a checkpoint if the WAL is large and was written to since the last one, and none runs.
   * A checkpoint leaves the WAL file its size (it is written over from its start): without the
   * second condition one would run every second for ever after a large write, and the worker
   * pool would never be idle long enough to give its memory back.
   */
  look (): void {
    if (this.running !== undefined) return
    let wal: { size: number, mtimeMs: number }
    try {
      wal = statSync(`${this.path}-wal`)
    } catch {
      return
    }
    if (wal.size < CHECKPOINT_WAL_BYTES || wal.mtimeMs === this.checked) return
    const mtime = wal.mtimeMs
    this.running = this.checkpoint(this.path).then(() => { this.checked = mtime }, this.onError).finally(() => { this.running = undefined })
  }
}
