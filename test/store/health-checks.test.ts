/** Health check reports on both engines: versions kept per zone, finished, read, summarised, and the zones due. */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const COUNTS = { NS: { ok: 7, error: 0, warning: 1, bestPractice: 0, info: 0, na: 0 } }

for (const engine of await engineCases()) {
  describe(`${engine.name}: health check reports`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let a: string
    let other: string
    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      await store.accounts.create('acme')
      await store.accounts.create('rival')
      a = (await storeZone(store, 'acme', 'a.example.org.', '')).id
      await storeZone(store, 'acme', 'b.example.org.', '')
      other = (await storeZone(store, 'rival', 'c.example.net.', '')).id
      await storeZone(store, 'acme', 'sec.example.org.', '', { type: 'SECONDARY' })
    })
    after(async () => await close?.())

    it('keeps the newest versions and refuses a version twice', async () => {
      assert.equal(await store.healthChecks.start(a, '2026-01-01T00:00:00.000Z', 2), true)
      assert.equal(await store.healthChecks.start(a, '2026-01-01T00:00:00.000Z', 2), false)
      assert.equal(await store.healthChecks.start(a, '2026-01-02T00:00:00.000Z', 2), true)
      assert.equal(await store.healthChecks.start(a, '2026-01-03T00:00:00.000Z', 2), true)
      assert.deepEqual(await store.healthChecks.versions(a), ['2026-01-03T00:00:00.000Z', '2026-01-02T00:00:00.000Z'])
      const latest = await store.healthChecks.latest(a)
      assert.deepEqual(latest, { zoneId: a, version: '2026-01-03T00:00:00.000Z', state: 'IN_PROGRESS', checks: null, counts: null, message: null, finishedAt: null })
      assert.equal(await store.healthChecks.find(a, '2026-01-01T00:00:00.000Z'), undefined)
    })

    it('records the end of a check; a version pushed out is not written', async () => {
      const end = { state: 'COMPLETED' as const, checks: '[]', counts: COUNTS, message: null, finishedAt: '2026-01-03T00:00:05.000Z' }
      assert.equal(await store.healthChecks.finish(a, '2026-01-03T00:00:00.000Z', end), true)
      assert.equal(await store.healthChecks.finish(a, '2026-01-01T00:00:00.000Z', end), false)
      assert.deepEqual(await store.healthChecks.find(a, '2026-01-03T00:00:00.000Z'), { zoneId: a, version: '2026-01-03T00:00:00.000Z', ...end })
      assert.equal(await store.healthChecks.delegation(a), undefined)
      await store.healthChecks.finish(a, '2026-01-02T00:00:00.000Z', { ...end, delegation: ['ns1.example.net.', 'ns2.example.net.'] })
      assert.deepEqual(await store.healthChecks.delegation(a), ['ns1.example.net.', 'ns2.example.net.'])
    })

    it('summarises the newest completed report of each zone of the scope', async () => {
      await store.healthChecks.start(other, '2026-01-03T00:00:00.000Z', 2)
      await store.healthChecks.finish(other, '2026-01-03T00:00:00.000Z', { state: 'COMPLETED', checks: '[]', counts: COUNTS, message: null, finishedAt: '2026-01-03T00:00:05.000Z' })
      const acme = (await store.accounts.findByName('acme'))!.id
      assert.deepEqual(await store.healthChecks.summaries({ accountIds: [acme] }), [{ zoneName: 'a.example.org.', accountName: 'acme', counts: COUNTS }])
      assert.deepEqual(await store.healthChecks.summaries({ accountIds: [] }), [])
    })

    it('gives the zones due: never checked first, then the oldest; no secondary', async () => {
      const due = await store.healthChecks.due('2026-01-04T00:00:00.000Z', 10)
      assert.deepEqual(due.map(z => z.name), ['b.example.org.', 'a.example.org.', 'c.example.net.'])
      assert.deepEqual((await store.healthChecks.due('2026-01-03T00:00:00.000Z', 10)).map(z => z.name), ['b.example.org.'])
    })

    it('deletes a zone\'s reports with the zone, and starts none for a zone that is gone', async () => {
      await store.zones.deleteById(a)
      assert.deepEqual(await store.healthChecks.versions(a), [])
      await assert.rejects(store.healthChecks.start(a, '2026-01-05T00:00:00.000Z', 2), (err: unknown) => (err as { code?: string }).code === 'ZONE_NOT_FOUND')
    })
  })
}
