/** The running service removes analytics rows past their retention at start (and daily). */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { openStore } from '../../src/store/open-store.ts'
import { engineCases, freshDatabase } from '../helpers/engines.ts'
import { startTestService } from '../helpers/service.ts'

const DAY_MS = 86_400_000

for (const engine of await engineCases()) {
  describe(`${engine.name}: analytics retention in the running service`, { skip: engine.skip }, () => {
    it('removes the rows older than the limits at start and keeps the younger ones', async () => {
      const database = await freshDatabase(engine.name)
      const day = (ago: number): string => new Date(Date.now() - ago * DAY_MS).toISOString().slice(0, 10)
      const store = await openStore(database.url)
      try {
        await store.migrate()
        await store.hostVolume.add([95, 2].map(ago => ({ day: day(ago), zone: 'example.org.', host: 'www.example.org.', node: 'n1', counts: { rsp_total: 1 } })))
        await store.queryCounts.add({
          volume: [500, 95].map(ago => ({ day: day(ago), zone: 'example.org.', node: 'n1', counts: { rsp_total: 1 } })),
          rcodes: [95, 2].map(ago => ({ day: day(ago), zone: 'example.org.', node: 'n1', counts: { noerror: 1 } }))
        })
      } finally {
        await store.close()
      }
      const t = await startTestService('admin password', { ZONAL_DATABASE_URL: database.url })
      try {
        const db = (t.service.store as any).engineImpl.db
        const days = async (table: string): Promise<string[]> => (await db.selectFrom(table).select('day').orderBy('day').execute()).map((r: { day: string }) => r.day)
        const deadline = Date.now() + 30_000
        // One run prunes the tables in the order of ANALYTICS_TABLES, host_volume last.
        while ((await days('host_volume')).length > 1 && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 50))
        assert.deepEqual(await days('host_volume'), [day(2)])
        assert.deepEqual(await days('response_codes'), [day(2)])
        assert.deepEqual(await days('query_volume'), [day(95)])
      } finally {
        await t.stop()
        await database.drop()
      }
    })
  })
}
