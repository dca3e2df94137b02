/**
 * The worker pool's threads run at a lower priority than the rest of the process (Linux: nice
 * 10 for that thread alone), so background work gives way to DNS answers and API requests.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { closeSharedPool, offloaded } from '../../src/util/worker-pool.ts'

/** The nice value of each of this process's threads, by thread name (from /proc). */
function nices (): { name: string, nice: number }[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), nice: Number(fields[16]) }
  })
}

describe('worker pool priority', { skip: process.platform !== 'linux' && 'nice values are per thread on Linux only' }, () => {
  it('runs its threads at nice 10, the main thread unchanged', async () => {
    const main = nices().find(t => t.name === 'node-MainThread' || t.name === 'node')!
    const fixture = new URL('./fixtures/pool-functions.ts', import.meta.url)
    try {
      assert.equal(await offloaded<(a: number, b: number) => number>(fixture, 'add')(20, 1), 21)
      const workers = nices().filter(t => t.name === 'WorkerThread')
      assert.ok(workers.length >= 1, JSON.stringify(nices()))
      assert.ok(workers.every(t => t.nice === main.nice + 10 || t.nice === 19), JSON.stringify(nices()))
      assert.equal(nices().find(t => t.name === main.name)!.nice, main.nice)
    } finally {
      await closeSharedPool()
    }
  })
})
