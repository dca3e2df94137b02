import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { openStore } from '../../src/store/open-store.ts'
import type { Store, TaskInfo } from '../../src/store/store.ts'
import { TaskRunner } from '../../src/tasks/runner.ts'
import { freshDatabase, type TestDatabase } from '../helpers/engines.ts'

const WORKER = fileURLToPath(new URL('./fixtures/blocking-worker.ts', import.meta.url))

/** Start the blocking worker on `url`; resolves once it runs `taskId`, with a SIGKILL for it. */
async function workerRunning (url: string, workerId: string, taskId: string): Promise<{ kill: () => Promise<void> }> {
  const child = spawn(process.execPath, [WORKER, url, workerId], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const exited = once(child, 'exit')
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start the task; stderr: ${stderr}`)), 20_000)
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes(`running ${taskId}\n`)) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`worker exited ${code}: ${stderr}`)) })
  })
  return {
    kill: async () => {
      child.kill('SIGKILL')
      await exited
    }
  }
}

async function finished (store: Store, id: string, accountId: string): Promise<TaskInfo> {
  const end = Date.now() + 20_000
  for (;;) {
    const task = await store.tasks.findById(id, { accountIds: [accountId] })
    if (task?.code === 'COMPLETE' || task?.code === 'ERROR') return task
    assert.ok(Date.now() < end, `task stuck: ${JSON.stringify(task)}`)
    await sleep(25)
  }
}

describe('task crash recovery (SQLite file, worker killed with SIGKILL)', () => {
  let db: TestDatabase
  let store: Store
  let accountId: string

  before(async () => {
    db = await freshDatabase('sqlite')
    store = await openStore(db.url)
    await store.migrate()
    accountId = (await store.accounts.create('crash-acct')).id
  })
  after(async () => {
    await store?.close()
    await db?.drop()
  })

  it('runs the task of a killed worker again, to COMPLETE', async () => {
    const task = await store.tasks.create({ accountId, userId: null, kind: 'block', message: 'Pending' })
    const worker = await workerRunning(db.url, 'doomed', task.id)
    const held = await store.tasks.findById(task.id, { accountIds: [accountId] })
    assert.equal(held?.code, 'IN_PROCESS')
    assert.equal(held?.message, 'blocking')
    assert.match(held?.locked_by ?? '', /^doomed#/)
    await worker.kill()

    const runner = new TaskRunner(store, { block: async () => ({ message: 'done after a crash' }) }, { workerId: 'survivor', pollMs: 20, leaseSeconds: 5, maintenanceMs: 50 })
    runner.start()
    try {
      const done = await finished(store, task.id, accountId)
      assert.equal(done.code, 'COMPLETE')
      assert.equal(done.message, 'done after a crash')
      assert.equal(done.attempts, 2)
    } finally {
      await runner.stop()
    }
  })

  it('ends in ERROR with a clear message once the attempts are used up, never stuck', async () => {
    const task = await store.tasks.create({ accountId, userId: null, kind: 'block', message: 'Pending' })
    // Two workers die holding the task; the second one recovers and takes it after the first.
    await (await workerRunning(db.url, 'doomed-1', task.id)).kill()
    await (await workerRunning(db.url, 'doomed-2', task.id)).kill()
    assert.equal((await store.tasks.findById(task.id, { accountIds: [accountId] }))?.attempts, 2)

    let ran = false
    const runner = new TaskRunner(store, { block: async () => { ran = true; return { message: 'unexpected' } } }, { workerId: 'survivor', pollMs: 20, maxAttempts: 2, maintenanceMs: 50 })
    runner.start()
    try {
      const done = await finished(store, task.id, accountId)
      assert.equal(done.code, 'ERROR')
      assert.equal(done.message, 'Task failed: the worker running it stopped (2 attempts)')
      assert.equal(ran, false)
    } finally {
      await runner.stop()
    }
  })
})
