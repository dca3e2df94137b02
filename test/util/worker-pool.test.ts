import assert from 'node:assert/strict'
import { threadId } from 'node:worker_threads'
import { after, describe, it } from 'node:test'
import { isZonalError } from '../../src/errors/catalog.ts'
import { WorkerPool } from '../../src/util/worker-pool.ts'

const FUNCTIONS = new URL('./fixtures/pool-functions.ts', import.meta.url).href

describe('WorkerPool', () => {
  const pool = new WorkerPool(2)
  after(async () => { await pool.close() })

  it('runs an exported function of a module in a worker thread and resolves to its value', async () => {
    assert.equal(await pool.run(FUNCTIONS, 'add', [2, 3]), 5)
    const { data, threadId: worker } = await pool.run(FUNCTIONS, 'bytes', [1000]) as { data: Uint8Array, threadId: number }
    assert.notEqual(worker, threadId)
    assert.equal(data.length, 1000)
    assert.ok(data.every(b => b === 7))
  })

  it('runs more calls than workers, each once', async () => {
    const sums = await Promise.all(Array.from({ length: 20 }, async (_, i) => await pool.run(FUNCTIONS, 'add', [i, 1])))
    assert.deepEqual(sums, Array.from({ length: 20 }, (_, i) => i + 1))
  })

  it('gives back a ZonalError with its code, params, details and message', async () => {
    const err = await pool.run(FUNCTIONS, 'problems', []).then(() => undefined, (e: unknown) => e)
    assert.ok(isZonalError(err, 'ZONE_FILE_INVALID'))
    assert.equal(err.status, 400)
    assert.deepEqual(err.details, ['Invalid input: line 2: ZONEFILE_BAD_TTL: bad TTL', 'Invalid input: line 5: ZONEFILE_UNKNOWN_TYPE: unknown type'])
    assert.equal(err.message, 'Invalid input: line 2: ZONEFILE_BAD_TTL: bad TTL')
    await assert.rejects(pool.run(FUNCTIONS, 'zonal', []), (e: unknown) => isZonalError(e, 'ZONE_NOT_FOUND') && e.message === 'Zone does not exist in the system.')
  })

  it('gives back any other error as an Error with its message', async () => {
    await assert.rejects(pool.run(FUNCTIONS, 'broken', []), (e: unknown) => e instanceof Error && !isZonalError(e) && e.message === 'not a function')
    await assert.rejects(pool.run(FUNCTIONS, 'missing', []), /has no function missing/)
  })

  it('fails the call of a worker that dies, and goes on with a new one', async () => {
    await assert.rejects(pool.run(FUNCTIONS, 'exit', []), /worker thread stopped \(exit code 3\)/)
    assert.equal(await pool.run(FUNCTIONS, 'add', [1, 1]), 2)
  })

  it('stops a worker idle for idleMs with a large heap (its memory goes back), and starts a new one for the next call', async () => {
    const retiring = new WorkerPool(1, 50, 0)
    try {
      const first = (await retiring.run(FUNCTIONS, 'bytes', [10]) as { threadId: number }).threadId
      assert.equal(retiring.threads, 1)
      while (retiring.threads > 0) await new Promise(resolve => setImmediate(resolve))
      const second = (await retiring.run(FUNCTIONS, 'bytes', [10]) as { threadId: number }).threadId
      assert.notEqual(second, first)
    } finally {
      await retiring.close()
    }
  })

  it('refuses calls once closed', async () => {
    const closing = new WorkerPool(1)
    assert.equal(await closing.run(FUNCTIONS, 'add', [1, 2]), 3)
    await closing.close()
    await assert.rejects(closing.run(FUNCTIONS, 'add', [1, 2]), /worker pool closed/)
  })
})
