/** Aggregated query counts on both engines: each flush adds to the stored rows, never replaces them. */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { RCODE_COLUMNS, VOLUME_COLUMNS } from '../../src/analytics/query-count-sink.ts'
import { RCODE_COUNTERS, VOLUME_COUNTERS } from '../../src/store/query-count-columns.ts'
import type { Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'

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

    it('reads by month the same sums from the months wholly in the range (their stored sums) and from the days of the months cut by its ends', async () => {
      await store.accounts.create('months')
      const zones = ['m1.example.', 'm2.example.']
      for (const z of zones) await storeZone(store, 'months', z, '')
      const account = (await store.accounts.findByName('months'))!
      // Days from 2026-08-28 to 2026-11-25, on two nodes, written in several flushes (some days twice).
      const written: Array<{ day: string, zone: string, node: string, total: number, a: number }> = []
      const first = Date.UTC(2026, 7, 28)
      for (let flush = 0; flush < 3; flush++) {
        const volume = []
        for (let d = flush; d < 90; d += 2) {
          const day = new Date(first + d * 86_400_000).toISOString().slice(0, 10)
          for (const [k, zone] of zones.entries()) {
            const node = (d + k) % 3 === 0 ? 'n2' : 'n1'
            const total = 1 + ((d * 7 + k * 3 + flush) % 11)
            written.push({ day, zone, node, total, a: total - 1 })
            volume.push({ day, zone, node, counts: { rsp_total: total, type_a: total - 1 } })
          }
        }
        await store.queryCounts.add({ volume, rcodes: [] })
      }
      const expected = (from: string, to: string): unknown[] => {
        const groups = new Map<string, { zone: string, start: string, end: string, total: number, a: number }>()
        for (const w of written.filter(w => w.day >= from && w.day <= to)) {
          const key = `${w.zone} ${w.day.slice(0, 7)}`
          const g = groups.get(key) ?? { zone: w.zone, start: w.day, end: w.day, total: 0, a: 0 }
          if (w.day < g.start) g.start = w.day
          if (w.day > g.end) g.end = w.day
          g.total += w.total
          g.a += w.a
          groups.set(key, g)
        }
        return [...groups.values()].sort((x, y) => x.zone.localeCompare(y.zone) || x.start.localeCompare(y.start)).map(g => [g.zone, g.start, g.end, g.total, g.a])
      }
      const ranges: Array<[string, string]> = [
        ['2026-08-28', '2026-11-25'], // cut, two whole months, cut
        ['2026-09-01', '2026-09-30'], // one whole month
        ['2026-09-01', '2026-10-31'], // two whole months
        ['2026-09-15', '2026-10-14'], // no whole month
        ['2026-10-05', '2026-10-05'], // one day
        ['2026-08-01', '2026-12-31'] // whole months beyond the days written
      ]
      for (const [from, to] of ranges) {
        const got = await store.queryCounts.volumeByMonth({ accountIds: [account.id], from, to, sort: [], offset: 0, limit: 1000 })
        assert.deepEqual(got.map(r => [r.zone, r.start, r.end, r.counts.rsp_total, r.counts.type_a]), expected(from, to), `${from} to ${to}`)
        assert.ok(got.every(r => r.accountName === 'months'))
      }
      // One zone, and paging over the months.
      const one = await store.queryCounts.volumeByMonth({ accountIds: [account.id], zone: 'm2.example.', from: '2026-08-28', to: '2026-11-25', sort: [['start', 'DESC']], offset: 1, limit: 2 })
      assert.deepEqual(one.map(r => [r.zone, r.start, r.counts.rsp_total]), (expected('2026-08-28', '2026-11-25') as Array<[string, string, string, number]>).filter(r => r[0] === 'm2.example.').reverse().slice(1, 3).map(r => [r[0], r[1], r[3]]))
    })
  })
}
