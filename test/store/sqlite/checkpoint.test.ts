import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import BetterSqlite3 from 'better-sqlite3'
import { checkpointWal, WalCheckpoints } from '../../../src/store/sqlite/checkpoint.ts'

/** A WAL-mode database at `path` with automatic checkpoints off and 2,000 rows of 4 KB in its WAL. */
function walWith2000Rows (path: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(path)
  db.pragma('journal_mode = WAL')
  db.pragma('wal_autocheckpoint = 0')
  db.exec('create table t (v blob)')
  const insert = db.prepare('insert into t (v) values (?)')
  db.transaction(() => { for (let i = 0; i < 2000; i++) insert.run(Buffer.alloc(4000, i)) })()
  return db
}

describe('checkpointWal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zonal-checkpoint-'))
  after(() => { rmSync(dir, { recursive: true, force: true }) })

  it('copies the WAL of a database whose automatic checkpoint is off into the file, on a connection of its own', () => {
    const path = join(dir, 'wal.db')
    const db = walWith2000Rows(path)
    const before = statSync(path).size
    const result = checkpointWal(path)
    assert.equal(result.busy, 0)
    assert.ok(result.log > 1000, `only ${result.log} WAL frames`)
    assert.equal(result.checkpointed, result.log)
    assert.ok(statSync(path).size > before + 4_000_000)
    assert.equal((db.prepare('select count(*) as n from t').get() as { n: number }).n, 2000)
    db.close()
  })
})

describe('WalCheckpoints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zonal-checkpoints-'))
  after(() => { rmSync(dir, { recursive: true, force: true }) })

  it('checkpoints a large WAL once, and again only after it is written to', async () => {
    const path = join(dir, 'wal.db')
    const db = walWith2000Rows(path)
    let runs = 0
    const checkpoints = new WalCheckpoints(path, (err) => { throw err }, async (p) => { runs++; return checkpointWal(p) })
    const look = async (): Promise<void> => {
      checkpoints.look()
      await checkpoints.running
    }
    try {
      await look()
      assert.equal(runs, 1)
      // The WAL keeps its size after a checkpoint; nothing was written since: nothing to do.
      await look()
      await look()
      assert.equal(runs, 1)
      db.prepare('insert into t (v) values (?)').run(Buffer.alloc(10, 1))
      await look()
      assert.equal(runs, 2)
    } finally {
      db.close()
    }
  })
})
