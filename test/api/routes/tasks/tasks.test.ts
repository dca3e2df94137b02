import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import type { TaskRow } from '../../../../src/store/schema.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { caller } from '../../../helpers/caller.ts'

for (const engine of await engineCases()) {
  describe(`${engine.name}: tasks API`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: ReturnType<typeof caller>
    let bob: ReturnType<typeof caller>
    let acmeId: string
    let otherId: string
    let done: TaskRow
    let zipped: TaskRow
    let pending: TaskRow
    let running: TaskRow
    let noData: TaskRow
    let theirs: TaskRow

    /** A task of `accountId`, taken to COMPLETE with `file` (or no data) by a hand-driven worker. */
    async function completed (accountId: string, file: { text: string, type: string, ext: string } | null): Promise<TaskRow> {
      await sleep(3) // distinct creation times, so DATE order is the creation order
      const task = await t.store.tasks.create({ accountId, userId: null, kind: 'manual', message: 'Pending' })
      const claimed = await t.store.tasks.claim('hand', 60)
      assert.equal(claimed?.id, task.id)
      const result = file === null ? null : { data: Buffer.from(file.text, 'latin1'), contentType: file.type, extension: file.ext, fileName: `${task.id}.${file.ext}` }
      assert.ok(await t.store.tasks.complete(task.id, 'hand', result, 'manual completed.'))
      return task
    }

    before(async () => {
      t = await buildTestApp(engine.name)
      alice = caller(t.app, await t.user('alice', 'acme'))
      bob = caller(t.app, await t.user('bob', 'other'))
      acmeId = (await t.store.accounts.findByName('acme'))!.id
      otherId = (await t.store.accounts.findByName('other'))!.id
      done = await completed(acmeId, { text: '$ORIGIN example.org.\n', type: 'text/plain', ext: 'zone' })
      zipped = await completed(acmeId, { text: 'PK\x05\x06' + '\0'.repeat(18), type: 'application/zip', ext: 'zip' })
      noData = await completed(acmeId, null)
      theirs = await completed(otherId, { text: 'secret', type: 'text/plain', ext: 'zone' })
      await sleep(3)
      running = await t.store.tasks.create({ accountId: acmeId, userId: null, kind: 'manual', message: 'Pending' })
      await t.store.tasks.claim('hand', 60)
      await t.store.tasks.progress(running.id, 'hand', 'Exported 1 of 2 zones', 50, 60)
      await sleep(3)
      pending = await t.store.tasks.create({ accountId: acmeId, userId: null, kind: 'manual', message: 'Pending' })
    })
    after(async () => { await t?.close() })

    describe('GET /tasks/{taskId}', () => {
      it('returns a completed task with its relative resultUri', async () => {
        const res = await alice.get(`/tasks/${done.id}`)
        assert.equal(res.statusCode, 200)
        assert.deepEqual(res.json(), { taskId: done.id, code: 'COMPLETE', message: 'manual completed.', resultUri: `/tasks/${done.id}/result`, hasData: true })
      })

      it('returns pending and running tasks without resultUri, under every version prefix', async () => {
        for (const prefix of ['', '/v1', '/v3']) {
          assert.deepEqual((await alice.get(`${prefix}/tasks/${pending.id}`)).json(), { taskId: pending.id, code: 'PENDING', message: 'Pending', hasData: false })
        }
        assert.deepEqual((await alice.get(`/tasks/${running.id}`)).json(), { taskId: running.id, code: 'IN_PROCESS', message: 'Exported 1 of 2 zones', hasData: false })
        assert.deepEqual((await alice.get(`/tasks/${noData.id}`)).json(), { taskId: noData.id, code: 'COMPLETE', message: 'manual completed.', hasData: false })
      })

      it('returns 404 54001 when the task does not exist or belongs to another account', async () => {
        for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', theirs.id]) {
          const res = await alice.get(`/tasks/${id}`)
          assert.equal(res.statusCode, 404)
          assert.deepEqual(res.json(), [{ errorCode: 54001, errorMessage: 'Cannot find the task status for the input taskId' }])
        }
      })
    })

    describe('GET /tasks/{taskId}/result', () => {
      it('sends the file with exactly its content type (no charset) as an attachment named by the task id', async () => {
        const res = await alice.get(`/v1/tasks/${done.id}/result`)
        assert.equal(res.statusCode, 200)
        assert.equal(res.headers['content-type'], 'text/plain')
        assert.equal(res.headers['content-disposition'], `attachment; filename="${done.id}.zone"`)
        assert.equal(res.body, '$ORIGIN example.org.\n')
        const zip = await alice.get(`/tasks/${zipped.id}/result`)
        assert.equal(zip.headers['content-type'], 'application/zip')
        assert.equal(zip.headers['content-disposition'], `attachment; filename="${zipped.id}.zip"`)
        assert.deepEqual(zip.rawPayload, Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'latin1'))
      })

      it('returns 400 54004 while the task is pending or running', async () => {
        for (const task of [pending, running]) {
          const res = await alice.get(`/tasks/${task.id}/result`)
          assert.equal(res.statusCode, 400)
          assert.deepEqual(res.json(), [{ errorCode: 54004, errorMessage: 'Invalid task status; Task not yet completed' }])
        }
      })

      it('returns 404 70002 for a completed task without data, 54001 for another account\'s task', async () => {
        assert.deepEqual((await alice.get(`/tasks/${noData.id}/result`)).json(), [{ errorCode: 70002, errorMessage: 'Data not found.' }])
        const res = await alice.get(`/tasks/${theirs.id}/result`)
        assert.equal(res.statusCode, 404)
        assert.equal(res.json()[0].errorCode, 54001)
      })
    })

    describe('GET /tasks', () => {
      const ids = (res: { json: () => { tasks: { taskId: string }[] } }) => res.json().tasks.map(x => x.taskId)

      it('lists the caller\'s tasks with queryInfo and resultInfo, never another account\'s', async () => {
        const res = await alice.get('/tasks')
        assert.equal(res.statusCode, 200)
        const body = res.json()
        assert.deepEqual(body.queryInfo, { q: '', sort: 'CODE', reverse: false, limit: 100 })
        assert.deepEqual(body.resultInfo, { totalCount: 5, offset: 0, returnedCount: 5 })
        assert.ok(!ids(res).includes(theirs.id))
        assert.deepEqual(body.tasks.map((x: { code: string }) => x.code), ['COMPLETE', 'COMPLETE', 'COMPLETE', 'IN_PROCESS', 'PENDING'])
        assert.deepEqual(ids(await bob.get('/tasks')), [theirs.id])
      })

      it('filters with q code:COMPLETE and hasData:TRUE', async () => {
        assert.deepEqual(new Set(ids(await alice.get('/tasks?q=code:COMPLETE'))), new Set([done.id, zipped.id, noData.id]))
        assert.deepEqual(new Set(ids(await alice.get('/tasks?q=code%3ACOMPLETE+hasData%3ATRUE'))), new Set([done.id, zipped.id]))
        assert.deepEqual(ids(await alice.get('/tasks?q=hasData:false code:pending')), [pending.id])
      })

      it('sorts, reverses and pages', async () => {
        const res = await alice.get('/tasks?sort=DATE&reverse=True&offset=1&limit=2')
        assert.deepEqual(res.json().queryInfo, { q: '', sort: 'DATE', reverse: true, limit: 2 })
        assert.deepEqual(res.json().resultInfo, { totalCount: 5, offset: 1, returnedCount: 2 })
        assert.deepEqual(ids(res), [running.id, noData.id])
        assert.deepEqual(ids(await alice.get('/tasks?sort=content_type&reverse=true&q=hasData:TRUE')), [done.id, zipped.id])
      })

      it('answers 400 for an unknown q key, a bad value, sort or reverse', async () => {
        assert.deepEqual((await alice.get('/tasks?q=owner:x')).json(), [{ errorCode: 53005, errorMessage: 'Invalid input: q.owner' }])
        assert.equal((await alice.get('/tasks?q=code:DONE')).json()[0].errorCode, 53005)
        assert.deepEqual((await alice.get('/tasks?sort=NAME')).json(), [{ errorCode: 70004, errorMessage: 'Invalid sort option: NAME' }])
        assert.equal((await alice.get('/tasks?reverse=maybe')).statusCode, 400)
        assert.equal((await alice.get('/tasks?limit=1001')).statusCode, 400)
      })
    })

    describe('DELETE /tasks/{taskId}', () => {
      it('deletes a task (204), after which it is not found (54001)', async () => {
        const task = await t.store.tasks.create({ accountId: acmeId, userId: null, kind: 'manual', message: 'Pending' })
        const res = await alice.delete(`/tasks/${task.id}`)
        assert.equal(res.statusCode, 204)
        assert.equal(res.body, '')
        assert.equal((await alice.get(`/tasks/${task.id}`)).json()[0].errorCode, 54001)
        assert.equal((await alice.delete(`/tasks/${task.id}`)).json()[0].errorCode, 54001)
      })

      it('does not delete another account\'s task', async () => {
        const res = await alice.delete(`/tasks/${theirs.id}`)
        assert.equal(res.statusCode, 404)
        assert.equal(res.json()[0].errorCode, 54001)
        assert.equal((await bob.get(`/tasks/${theirs.id}`)).statusCode, 200)
      })
    })
  })
}
