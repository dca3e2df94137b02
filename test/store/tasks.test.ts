import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, beforeEach, describe, it } from 'node:test'
import type { Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

const file = (text: string) => ({ data: new TextEncoder().encode(text), contentType: 'text/plain', extension: 'zone', fileName: 'x.zone' })

for (const engine of await engineCases()) {
  describe(`${engine.name}: task store`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let accountId: string
    let otherId: string
    const scope = () => ({ accountIds: [accountId] })

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      accountId = (await store.accounts.create('tasks-acct')).id
      otherId = (await store.accounts.create('other-acct')).id
    })
    after(async () => { await close?.() })
    // Each test starts from an empty table so claims and lists see only its own tasks.
    beforeEach(async () => {
      for (const accountIds of [[accountId], [otherId]]) {
        const { rows } = await store.tasks.list({ accountIds }, { offset: 0, limit: 1000, sort: 'DATE', reverse: false })
        for (const row of rows) await store.tasks.delete(row.id, { accountIds })
      }
    })

    const create = async (account = accountId) =>
      await store.tasks.create({ accountId: account, userId: null, kind: 'test', message: 'Pending', payload: { n: 1 } })

    it('claims the oldest pending task once, with a lease and one more attempt', async () => {
      const a = await create()
      await sleep(2)
      const b = await create()
      const first = await store.tasks.claim('w1', 60)
      assert.equal(first?.id, a.id)
      assert.equal(first?.code, 'IN_PROCESS')
      assert.equal(first?.locked_by, 'w1')
      assert.equal(first?.attempts, 1)
      assert.deepEqual(JSON.parse(first!.payload!), { n: 1 })
      assert.ok(first!.locked_until! > new Date(Date.now() + 50_000).toISOString())
      assert.equal((await store.tasks.claim('w2', 60))?.id, b.id)
      assert.equal(await store.tasks.claim('w3', 60), undefined)
    })

    it('completes with a result file only for the worker holding the task', async () => {
      const t = await create()
      await store.tasks.claim('w1', 60)
      assert.equal(await store.tasks.progress(t.id, 'w1', 'Exported 1 of 2 zones', 50, 60), true)
      const mid = await store.tasks.findById(t.id, scope())
      assert.equal(mid?.message, 'Exported 1 of 2 zones')
      assert.equal(mid?.progress, 50)
      assert.equal(await store.tasks.complete(t.id, 'w2', file('nope'), 'done'), false)
      assert.equal(await store.tasks.complete(t.id, 'w1', file('$ORIGIN x.\n'), 'x. export completed.'), true)
      const done = await store.tasks.findById(t.id, scope())
      assert.equal(done?.code, 'COMPLETE')
      assert.equal(done?.has_data, true)
      assert.equal(done?.locked_by, null)
      assert.equal('result_data' in done!, false)
      const result = await store.tasks.result(t.id, scope())
      assert.equal(new TextDecoder().decode(result!.data), '$ORIGIN x.\n')
      assert.equal(result?.contentType, 'text/plain')
      assert.equal(result?.fileName, 'x.zone')
      assert.equal(await store.tasks.progress(t.id, 'w1', 'late', 90, 60), false)
      assert.equal(await store.tasks.fail(t.id, 'w1', 'late'), false)
    })

    it('fails with a message and has no result', async () => {
      const t = await create()
      await store.tasks.claim('w1', 60)
      assert.equal(await store.tasks.fail(t.id, 'w1', 'Zone does not exist in the system.'), true)
      const row = await store.tasks.findById(t.id, scope())
      assert.equal(row?.code, 'ERROR')
      assert.equal(row?.message, 'Zone does not exist in the system.')
      assert.equal(row?.has_data, false)
      assert.equal(await store.tasks.result(t.id, scope()), undefined)
    })

    it('scopes reads and deletes to the accounts given', async () => {
      const t = await create(otherId)
      assert.equal(await store.tasks.findById(t.id, scope()), undefined)
      assert.equal(await store.tasks.findById(t.id, { accountIds: [] }), undefined)
      assert.equal(await store.tasks.delete(t.id, scope()), false)
      assert.equal(await store.tasks.delete(t.id, { accountIds: [otherId] }), true)
      assert.equal(await store.tasks.findById(t.id, { accountIds: [otherId] }), undefined)
    })

    it('lists with filters, counts, sorts and pages', async () => {
      const done = await create()
      await store.tasks.claim('w1', 60)
      await store.tasks.complete(done.id, 'w1', file('z'), 'ok')
      const failed = await create()
      await store.tasks.claim('w1', 60)
      await store.tasks.fail(failed.id, 'w1', 'bad')
      const pending = await create()
      await create(otherId)
      const all = await store.tasks.list(scope(), { offset: 0, limit: 100, sort: 'CODE', reverse: false })
      assert.equal(all.total, 3)
      assert.deepEqual(all.rows.map(r => r.id), [done.id, failed.id, pending.id])
      const reversed = await store.tasks.list(scope(), { offset: 0, limit: 100, sort: 'CODE', reverse: true })
      assert.deepEqual(reversed.rows.map(r => r.id), [pending.id, failed.id, done.id])
      const withData = await store.tasks.list(scope(), { hasData: true, offset: 0, limit: 100, sort: 'DATE', reverse: false })
      assert.deepEqual(withData.rows.map(r => r.id), [done.id])
      const complete = await store.tasks.list(scope(), { code: 'COMPLETE', hasData: false, offset: 0, limit: 100, sort: 'DATE', reverse: false })
      assert.equal(complete.total, 0)
      const page = await store.tasks.list(scope(), { offset: 1, limit: 1, sort: 'HAS_DATA', reverse: true })
      assert.equal(page.total, 3)
      assert.equal(page.rows.length, 1)
      for (const sort of ['CONTENT_TYPE', 'EXTENSIONS'] as const) {
        const rows = (await store.tasks.list(scope(), { offset: 0, limit: 100, sort, reverse: true })).rows
        assert.equal(rows[0]?.id, done.id, sort)
      }
      assert.deepEqual(await store.tasks.list({ accountIds: [] }, { offset: 0, limit: 10, sort: 'CODE', reverse: false }), { rows: [], total: 0 })
    })

    it('requeues a task whose lease expired, then fails it once attempts run out', async () => {
      const t = await create()
      await store.tasks.claim('dead-1', 0.01)
      await sleep(30)
      assert.deepEqual(await store.tasks.recoverExpired(2), { requeued: 1, failed: 0 })
      const again = await store.tasks.findById(t.id, scope())
      assert.equal(again?.code, 'PENDING')
      assert.equal(again?.locked_by, null)
      // The stale worker cannot complete what it lost.
      assert.equal(await store.tasks.complete(t.id, 'dead-1', null, 'late'), false)
      assert.equal((await store.tasks.claim('dead-2', 0.01))?.attempts, 2)
      await sleep(30)
      assert.deepEqual(await store.tasks.recoverExpired(2), { requeued: 0, failed: 1 })
      const row = await store.tasks.findById(t.id, scope())
      assert.equal(row?.code, 'ERROR')
      assert.equal(row?.message, 'Task failed: the worker running it stopped (2 attempts)')
    })

    it('leaves tasks with a live lease alone, and a heartbeat extends it', async () => {
      const t = await create()
      await store.tasks.claim('alive', 0.05)
      assert.equal(await store.tasks.heartbeat(t.id, 'alive', 60), true)
      await sleep(80)
      assert.deepEqual(await store.tasks.recoverExpired(3), { requeued: 0, failed: 0 })
      assert.equal(await store.tasks.heartbeat(t.id, 'other', 60), false)
      assert.equal((await store.tasks.findById(t.id, scope()))?.code, 'IN_PROCESS')
    })

    it('deletes finished tasks older than the retention, never pending or running ones', async () => {
      const old = await create()
      await store.tasks.claim('w', 60)
      await store.tasks.complete(old.id, 'w', null, 'ok')
      const running = await create()
      await store.tasks.claim('w', 60)
      const pending = await create()
      const cutoff = new Date(Date.now() + 1000).toISOString()
      assert.equal(await store.tasks.deleteFinishedBefore(new Date(Date.now() - 60_000).toISOString()), 0)
      assert.equal(await store.tasks.deleteFinishedBefore(cutoff), 1)
      assert.equal(await store.tasks.findById(old.id, scope()), undefined)
      assert.equal((await store.tasks.findById(running.id, scope()))?.code, 'IN_PROCESS')
      assert.equal((await store.tasks.findById(pending.id, scope()))?.code, 'PENDING')
    })

    it('gives each task to exactly one of many concurrent claimers', async () => {
      const ids = new Set<string>()
      for (let i = 0; i < 40; i++) ids.add((await create()).id)
      const claimed: string[] = []
      await Promise.all(Array.from({ length: 8 }, async (_, w) => {
        for (let t = await store.tasks.claim(`w${w}`, 60); t !== undefined; t = await store.tasks.claim(`w${w}`, 60)) {
          claimed.push(t.id)
        }
      }))
      assert.equal(claimed.length, 40)
      assert.deepEqual(new Set(claimed), ids)
    })
  })
}
