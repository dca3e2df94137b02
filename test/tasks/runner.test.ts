import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { ZonalError } from '../../src/errors/catalog.ts'
import type { Store, TaskInfo } from '../../src/store/store.ts'
import { TaskRunner, type TaskHandler, type TaskLogger } from '../../src/tasks/runner.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

/** A logger that keeps what it is given. */
function memoryLogger () {
  const lines: { level: string, msg: string, obj: object }[] = []
  const logger: TaskLogger = {
    error: (obj, msg) => { lines.push({ level: 'error', msg, obj }) },
    warn: (obj, msg) => { lines.push({ level: 'warn', msg, obj }) }
  }
  return { lines, logger }
}

/** Poll until the task is finished (COMPLETE or ERROR). */
async function finished (store: Store, id: string, accountId: string, timeoutMs = 10_000): Promise<TaskInfo> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const task = await store.tasks.findById(id, { accountIds: [accountId] })
    if (task !== undefined && (task.code === 'COMPLETE' || task.code === 'ERROR')) return task
    if (Date.now() > end) throw new Error(`task ${id} not finished: ${JSON.stringify(task)}`)
    await sleep(10)
  }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: TaskRunner`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let accountId: string

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      accountId = (await store.accounts.create('runner-acct')).id
    })
    after(async () => { await close?.() })

    const create = async (kind: string, payload?: unknown) =>
      await store.tasks.create({ accountId, userId: null, kind, message: 'Pending', payload })

    it('records COMPLETE with the result, and commits onComplete with it', async () => {
      const handlers: Record<string, TaskHandler> = {
        echo: async ({ payload, reportProgress }) => {
          await reportProgress('half way', 0.5)
          return {
            message: 'echo completed.',
            result: { data: Buffer.from(JSON.stringify(payload)), contentType: 'text/plain', extension: 'txt', fileName: 'echo.txt' },
            onComplete: async (tx) => {
              await tx.audit.append({ accountId, accountName: 'runner-acct', user: 'runner', ipAddress: null, objectType: 'ZONE', changeType: 'ECHO', object: 'echo.' })
            }
          }
        }
      }
      const runner = new TaskRunner(store, handlers, { workerId: 'test', pollMs: 20 })
      runner.start()
      try {
        const task = await create('echo', { hello: 'world' })
        const done = await finished(store, task.id, accountId)
        assert.equal(done.code, 'COMPLETE')
        assert.equal(done.message, 'echo completed.')
        assert.equal(done.progress, 100)
        assert.equal(done.attempts, 1)
        const file = await store.tasks.result(task.id, { accountIds: [accountId] })
        assert.deepEqual(JSON.parse(Buffer.from(file!.data).toString()), { hello: 'world' })
        assert.equal((await store.audit.recent(5, 'ECHO')).length, 1)
      } finally {
        await runner.stop()
      }
    })

    it('records ERROR with a ZonalError\'s message, "System Error" for anything else, and keeps running', async () => {
      const { lines, logger } = memoryLogger()
      const handlers: Record<string, TaskHandler> = {
        domain: async () => { throw new ZonalError('ZONE_NOT_FOUND') },
        crash: async () => { throw new TypeError('secret internal detail') },
        sync: () => { throw new Error('thrown before any await') },
        ok: async () => ({ message: 'fine' })
      }
      const runner = new TaskRunner(store, handlers, { workerId: 'test', pollMs: 20, logger })
      runner.start()
      try {
        const domain = await create('domain')
        const crash = await create('crash')
        const sync = await create('sync')
        const unknown = await create('no-such-kind')
        const ok = await create('ok')
        assert.equal((await finished(store, domain.id, accountId)).message, 'Zone does not exist in the system.')
        const crashed = await finished(store, crash.id, accountId)
        assert.equal(crashed.code, 'ERROR')
        assert.equal(crashed.message, 'System Error')
        assert.equal((await finished(store, sync.id, accountId)).message, 'System Error')
        assert.equal((await finished(store, unknown.id, accountId)).message, 'Task failed: this server cannot run tasks of kind "no-such-kind"')
        const fine = await finished(store, ok.id, accountId)
        assert.equal(fine.code, 'COMPLETE')
        assert.equal(fine.has_data, false)
        const logged = lines.filter(l => l.level === 'error' && l.msg === 'task failed with an unexpected error')
        assert.deepEqual(logged.map(l => (l.obj as { err: Error }).err.message).sort(), ['secret internal detail', 'thrown before any await'])
      } finally {
        await runner.stop()
      }
    })

    it('runs a task at once on wake(), at most `concurrency` at a time, and stop() waits for them', async () => {
      let running = 0
      let peak = 0
      const handlers: Record<string, TaskHandler> = {
        slow: async () => {
          running++
          peak = Math.max(peak, running)
          await sleep(60)
          running--
          return { message: 'slow done' }
        }
      }
      // A poll far in the future: only wake() and finishing jobs start work.
      const runner = new TaskRunner(store, handlers, { workerId: 'test', pollMs: 60_000, concurrency: 2 })
      runner.start()
      await sleep(50)
      const tasks = await Promise.all([1, 2, 3, 4, 5].map(async () => await create('slow')))
      runner.wake()
      // Wait for the claims (not for a time: a loaded machine takes longer), then for a moment
      // more in which a third task must not start.
      for (let i = 0; i < 500 && runner.active < 2; i++) await sleep(10)
      await sleep(30)
      assert.equal(runner.active, 2)
      await runner.stop()
      assert.equal(runner.active, 0)
      assert.equal(peak, 2)
      const codes = await Promise.all(tasks.map(async t => (await store.tasks.findById(t.id, { accountIds: [accountId] }))!.code))
      // Stopped after the first jobs: none is left half-done.
      assert.ok(codes.every(c => c === 'COMPLETE' || c === 'PENDING'), codes.join())
      assert.ok(codes.filter(c => c === 'COMPLETE').length >= 2)
      const rest = new TaskRunner(store, handlers, { workerId: 'test-2', pollMs: 20, concurrency: 5 })
      rest.start()
      for (const t of tasks) assert.equal((await finished(store, t.id, accountId)).code, 'COMPLETE')
      await rest.stop()
    })

    it('deletes finished tasks once the retention has passed', async () => {
      const handlers: Record<string, TaskHandler> = { ok: async () => ({ message: 'fine' }) }
      const first = new TaskRunner(store, handlers, { workerId: 'test', pollMs: 20 })
      first.start()
      const task = await create('ok')
      await finished(store, task.id, accountId)
      await first.stop()
      const sweeper = new TaskRunner(store, handlers, { workerId: 'sweeper', pollMs: 20, retentionSeconds: 0, maintenanceMs: 20 })
      sweeper.start()
      try {
        const end = Date.now() + 5000
        while (await store.tasks.findById(task.id, { accountIds: [accountId] }) !== undefined) {
          assert.ok(Date.now() < end, 'finished task not deleted')
          await sleep(20)
        }
      } finally {
        await sweeper.stop()
      }
    })

    it('deletes audit records past ZONAL_AUDIT_RETENTION_DAYS when one is set, and keeps them all by default', async () => {
      const day = 86_400_000
      const append = async (object: string, msAgo: number): Promise<void> => {
        await store.audit.append({ accountId, accountName: 'runner-acct', user: 'u', ipAddress: null, objectType: 'ZONE', changeType: 'ADD', object, changeTime: new Date(Date.now() - msAgo).toISOString() })
      }
      await append('old.', 40 * day)
      await append('recent.', 20 * day)
      const objects = async (): Promise<string[]> => (await store.audit.list({ accountIds: [accountId], from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z', limit: 100 })).map(r => r.object)
      const keeper = new TaskRunner(store, {}, { workerId: 'keeper', pollMs: 20, maintenanceMs: 20 })
      keeper.start()
      await sleep(100)
      await keeper.stop()
      assert.ok((await objects()).includes('old.'), 'kept without a retention')
      const { lines, logger } = memoryLogger()
      const sweeper = new TaskRunner(store, {}, { workerId: 'sweeper', pollMs: 20, maintenanceMs: 20, auditRetentionSeconds: 30 * 86400, logger: { ...logger, info: (obj, msg) => { lines.push({ level: 'info', msg, obj }) } } })
      sweeper.start()
      try {
        const end = Date.now() + 5000
        while ((await objects()).includes('old.')) {
          assert.ok(Date.now() < end, 'old audit record not deleted')
          await sleep(20)
        }
      } finally {
        await sweeper.stop()
      }
      assert.ok((await objects()).includes('recent.'))
      assert.ok(lines.some(l => l.msg === 'deleted audit records past their retention' && (l.obj as { deleted: number }).deleted >= 1))
    })

    it('deletes audit records in batches until none is past the cutoff', async () => {
      for (let i = 0; i < 25; i++) await store.audit.append({ accountId, accountName: 'runner-acct', user: 'u', ipAddress: null, objectType: 'A', changeType: 'ADD', object: `b${i}.`, changeTime: '2001-01-01T00:00:00.000Z' })
      assert.equal(await store.audit.deleteBefore('2001-01-02T00:00:00.000Z', 10), 25)
      assert.equal(await store.audit.deleteBefore('2001-01-02T00:00:00.000Z', 10), 0)
    })
  })
}
