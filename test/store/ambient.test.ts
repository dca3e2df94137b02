import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { ambientTransaction, runInTransaction } from '../../src/store/ambient.ts'
import type { Store } from '../../src/store/store.ts'
import { TaskRunner } from '../../src/tasks/runner.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

/** A promise and its resolver: holds a transaction open until the test lets it go. */
function gate (): { promise: Promise<void>, open: () => void } {
  let open = (): void => {}
  const promise = new Promise<void>(resolve => { open = resolve })
  return { promise, open }
}

class Boom extends Error {}

for (const engine of await engineCases()) {
  describe(`${engine.name}: ambient transaction (runInTransaction)`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>

    before(async () => { ({ store, close } = await freshStore(engine.name)) })
    after(async () => { await close?.() })

    it('makes the plain store and nested transactions join it, and commits', async () => {
      let outerTx: Store | undefined
      await runInTransaction(store, async (tx) => {
        outerTx = tx
        assert.equal(ambientTransaction(), tx)
        // Code holding the plain store writes into the transaction…
        await store.accounts.create('joined')
        // …and a nested transaction is the same one.
        await store.transaction(async (nested) => {
          assert.equal(nested, tx)
          await nested.accounts.create('nested')
        })
        assert.ok(await tx.accounts.findByName('joined') !== undefined)
      })
      assert.ok(outerTx !== undefined)
      assert.equal(ambientTransaction(), undefined)
      assert.ok(await store.accounts.findByName('joined') !== undefined)
      assert.ok(await store.accounts.findByName('nested') !== undefined)
    })

    it('rolls back every write, nested ones included, when it throws', async () => {
      await assert.rejects(runInTransaction(store, async () => {
        await store.accounts.create('gone-1')
        await store.transaction(async (tx) => { await tx.accounts.create('gone-2') })
        throw new Boom('stop')
      }), Boom)
      assert.equal(await store.accounts.findByName('gone-1'), undefined)
      assert.equal(await store.accounts.findByName('gone-2'), undefined)
    })

    it('is not joined by a request running at the same time outside it', async () => {
      const hold = gate()
      const written = gate()
      const batch = runInTransaction(store, async () => {
        await store.accounts.create('concurrent')
        written.open()
        await hold.promise
      })
      await written.promise
      // Started from the test's own context, not from inside the transaction.
      const outside = store.accounts.findByName('concurrent')
      const early = await Promise.race([outside.then(row => ({ row })), sleep(150).then(() => 'waiting' as const)])
      if (engine.name === 'sqlite') {
        // One connection: the outside query waits for the transaction to end.
        assert.equal(early, 'waiting')
      } else {
        // Another pooled connection: it runs now and does not see the uncommitted row.
        assert.deepEqual(early, { row: undefined })
      }
      hold.open()
      await batch
      if (engine.name === 'sqlite') assert.ok(await outside !== undefined, 'after the commit it reads the committed row')
      assert.ok(await store.accounts.findByName('concurrent') !== undefined)
    })

    it('lets work that outlives it use the plain store, not the finished transaction', async () => {
      let late: Promise<unknown> | undefined
      await runInTransaction(store, async () => {
        late = sleep(30).then(async () => await store.accounts.create('late'))
      })
      await late
      assert.ok(await store.accounts.findByName('late') !== undefined)
    })

    it('leaves other stores (databases) alone', async () => {
      const other = await freshStore(engine.name)
      try {
        await assert.rejects(runInTransaction(store, async () => {
          await other.store.accounts.create('elsewhere')
          await other.store.transaction(async (tx) => { await tx.accounts.create('elsewhere-tx') })
          throw new Boom('stop')
        }), Boom)
        assert.ok(await other.store.accounts.findByName('elsewhere') !== undefined)
        assert.ok(await other.store.accounts.findByName('elsewhere-tx') !== undefined)
      } finally {
        await other.close()
      }
    })

    it('keeps a task runner woken inside it out of it: a rolled-back task never runs', async () => {
      const ran: string[] = []
      const runner = new TaskRunner(store, { probe: async (ctx) => { ran.push(ctx.task.id); return { message: 'done' } } }, { workerId: 'ambient-test', pollMs: 10_000 })
      runner.start()
      try {
        await assert.rejects(runInTransaction(store, async () => {
          await store.tasks.create({ accountId: null, userId: null, kind: 'probe', message: 'Pending' })
          runner.wake()
          await sleep(50)
          throw new Boom('stop')
        }), Boom)
        const kept = await runInTransaction(store, async () => {
          const task = await store.tasks.create({ accountId: null, userId: null, kind: 'probe', message: 'Pending' })
          runner.wake()
          return task.id
        })
        runner.wake()
        for (let i = 0; i < 200 && ran.length === 0; i++) await sleep(10)
        assert.deepEqual(ran, [kept])
      } finally {
        await runner.stop()
      }
    })
  })
}
