/**
 * Dangling DNS reports in the store (migration 0020, src/store/sql/dangling-reports.ts), on both
 * engines: one report per zone replaced by each start, reads scoped to accounts, writes guarded by
 * the report's version and state, the scan task's state read along, and the report deleted with
 * its zone.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DanglingFinding, Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const FINDING: DanglingFinding = { ownerName: 'www.example.org.', type: 5, rdataText: 'gone.ext-test.', ultimateTarget: 'gone.ext-test.', description: 'CNAME target does not resolve: the name does not exist (NXDOMAIN).' }

for (const engine of await engineCases()) {
  describe(`${engine.name}: dangling DNS reports`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let zoneId: string
    let accountId: string

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      accountId = (await store.accounts.create('acme')).id
      await store.accounts.create('other')
      zoneId = (await storeZone(store, 'acme', 'example.org.', '')).id
    })
    after(async () => { await close?.() })

    it('starts a report, reads it in the account\'s scope only, with its task\'s state', async () => {
      const task = await store.tasks.create({ accountId, userId: null, kind: 'dangling-scan', message: 'Pending' })
      await store.danglingReports.start({ zoneId, accountId, version: '2026-11-26T08:00:00.000Z', taskId: task.id, message: 'waiting' })
      const found = await store.danglingReports.find(zoneId, { accountIds: [accountId] })
      assert.deepEqual(found, {
        zoneId, accountId, version: '2026-11-26T08:00:00.000Z', taskId: task.id, status: 'IN_PROGRESS', message: 'waiting', findings: null, finishedAt: null, task: { code: 'PENDING', message: 'Pending' }
      })
      const other = (await store.accounts.findByName('other'))!.id
      assert.equal(await store.danglingReports.find(zoneId, { accountIds: [other] }), undefined)
      assert.equal(await store.danglingReports.find(zoneId, { accountIds: [] }), undefined)
      assert.equal((await store.danglingReports.current(zoneId))?.version, '2026-11-26T08:00:00.000Z')
    })

    it('writes progress, completion and failure only to the version IN_PROGRESS', async () => {
      const v1 = '2026-11-26T08:00:00.000Z'
      assert.equal(await store.danglingReports.progress(zoneId, v1, 'Checked 1 of 2 CNAME records.'), true)
      assert.equal(await store.danglingReports.progress(zoneId, '2026-11-26T07:00:00.000Z', 'stale'), false)
      assert.equal(await store.danglingReports.complete(zoneId, v1, [FINDING], 'Checked 2 CNAME records: 1 dangling.', '2026-11-26T08:00:05.000Z'), true)
      const done = await store.danglingReports.current(zoneId)
      assert.equal(done?.status, 'COMPLETED')
      assert.deepEqual(done?.findings, [FINDING])
      assert.equal(done?.finishedAt, '2026-11-26T08:00:05.000Z')
      assert.equal(await store.danglingReports.fail(zoneId, v1, 'late failure', '2026-11-26T08:00:06.000Z'), false, 'a finished report stays as it is')
      assert.equal(await store.danglingReports.progress(zoneId, v1, 'late progress'), false)
      assert.equal((await store.danglingReports.current(zoneId))?.message, 'Checked 2 CNAME records: 1 dangling.')
    })

    it('replaces the report with a new start, and fails it', async () => {
      const v2 = '2026-11-26T09:00:00.000Z'
      await store.danglingReports.start({ zoneId, accountId, version: v2, taskId: null, message: 'waiting' })
      const fresh = await store.danglingReports.current(zoneId)
      assert.deepEqual([fresh?.version, fresh?.status, fresh?.findings, fresh?.finishedAt, fresh?.task], [v2, 'IN_PROGRESS', null, null, undefined])
      assert.equal(await store.danglingReports.complete(zoneId, '2026-11-26T08:00:00.000Z', [], 'old scan', '2026-11-26T09:00:01.000Z'), false, 'the replaced scan writes nothing')
      assert.equal(await store.danglingReports.fail(zoneId, v2, 'resolver unreachable', '2026-11-26T09:00:02.000Z'), true)
      const failed = await store.danglingReports.current(zoneId)
      assert.deepEqual([failed?.status, failed?.message, failed?.findings], ['FAILED', 'resolver unreachable', null])
    })

    it('deletes the report with its zone', async () => {
      const zone = await storeZone(store, 'acme', 'gone.example.', '')
      await store.danglingReports.start({ zoneId: zone.id, accountId, version: '2026-11-26T10:00:00.000Z', taskId: null, message: 'waiting' })
      await store.zones.deleteById(zone.id)
      assert.equal(await store.danglingReports.current(zone.id), undefined)
    })
  })
}
