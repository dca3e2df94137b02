/** Aggregated query counts on both engines: each flush adds to the stored rows, never replaces them. */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { RCODE_COLUMNS, VOLUME_COLUMNS } from '../../src/analytics/query-count-sink.ts'
import { RCODE_COUNTERS, VOLUME_COUNTERS } from '../../src/store/query-count-columns.ts'
import type { Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

describe('query count columns', () => {
  it('are the same for the sink (analytics/) and the tables (store/)', () => {
    assert.deepEqual(VOLUME_COLUMNS, VOLUME_COUNTERS)
    assert.deepEqual(RCODE_COLUMNS, RCODE_COUNTERS)
  })
})

for (const engine of await engineCases()) {
  describe(`${engine.name}: query counts`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    before(async () => { ({ store, close } = await freshStore(engine.name)) })
    after(async () => await close?.())

    async function rows (table: 'query_volume' | 'response_codes'): Promise<Array<Record<string, unknown>>> {
      const db = (store as any).engineImpl.db
      const found = await db.selectFrom(table).selectAll().orderBy('day').orderBy('zone').execute() as Array<Record<string, unknown>>
      return found.map(r => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && !['day', 'zone', 'node'].includes(k) ? Number(v) : typeof v === 'bigint' ? Number(v) : v])))
    }

    it('adds each flush to the stored counters, per (day, zone, node), in one transaction', async () => {
      await store.queryCounts.add({
        volume: [
          { day: '2026-11-24', zone: 'example.org.', node: 'n1', counts: { rsp_total: 3, udp: 2, tcp: 1, type_a: 2 } },
          { day: '2026-11-24', zone: '', node: 'n1', counts: { rsp_total: 1, udp: 1 } }
        ],
        rcodes: [{ day: '2026-11-24', zone: 'example.org.', node: 'n1', counts: { noerror: 2, nxdomain: 1 } }]
      })
      await store.queryCounts.add({
        volume: [
          { day: '2026-11-24', zone: 'example.org.', node: 'n1', counts: { rsp_total: 2, udp: 2, type_a: 1, type_svcb: 1 } },
          { day: '2026-11-25', zone: 'example.org.', node: 'n1', counts: { rsp_total: 1, tcp: 1 } }
        ],
        rcodes: [{ day: '2026-11-24', zone: 'example.org.', node: 'n1', counts: { noerror: 1, other: 4 } }]
      })
      const volume = await rows('query_volume')
      assert.deepEqual(volume.map(r => [r.day, r.zone, r.node, r.rsp_total, r.udp, r.tcp, r.type_a, r.type_svcb, r.ipv6]), [
        ['2026-11-24', '', 'n1', 1, 1, 0, 0, 0, 0],
        ['2026-11-24', 'example.org.', 'n1', 5, 4, 1, 3, 1, 0],
        ['2026-11-25', 'example.org.', 'n1', 1, 0, 1, 0, 0, 0]
      ])
      const rcodes = await rows('response_codes')
      assert.deepEqual(rcodes, [{ day: '2026-11-24', zone: 'example.org.', node: 'n1', noerror: 3, formerr: 0, servfail: 0, nxdomain: 1, notimp: 0, refused: 0, other: 4 }])
    })

    it('writes nothing of a flush that fails', async () => {
      const before = await rows('query_volume')
      await assert.rejects(store.queryCounts.add({
        volume: [{ day: '2026-11-24', zone: 'example.org.', node: 'n1', counts: { rsp_total: 100 } }],
        // The second table's row breaks NOT NULL: the first table's row must not stay.
        rcodes: [{ day: '2026-11-24', zone: null as unknown as string, node: 'n1', counts: { noerror: 1 } }]
      }))
      assert.deepEqual(await rows('query_volume'), before)
    })
  })
}
