/** Query counts per host on both engines: each flush adds to the stored rows, never replaces them. */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

for (const engine of await engineCases()) {
  describe(`${engine.name}: host volume`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    before(async () => { ({ store, close } = await freshStore(engine.name)) })
    after(async () => await close?.())

    async function rows (): Promise<unknown[][]> {
      const db = (store as any).engineImpl.db
      const found = await db.selectFrom('host_volume').selectAll().orderBy('day').orderBy('zone').orderBy('host').orderBy('node').execute() as Array<Record<string, unknown>>
      return found.map(r => [r.day, r.zone, r.host, r.node, ...['rsp_total', 'udp', 'tcp', 'type_a', 'type_txt', 'noerror', 'nxdomain', 'refused'].map(c => Number(r[c]))])
    }

    it('adds each flush to the stored counters, per (day, zone, host, node)', async () => {
      await store.hostVolume.add([
        { day: '2026-11-24', zone: 'example.org.', host: 'www.example.org.', node: 'n1', counts: { rsp_total: 3, udp: 3, type_a: 3, noerror: 3 } },
        { day: '2026-11-24', zone: 'example.org.', host: 'nope.example.org.', node: 'n1', counts: { rsp_total: 1, tcp: 1, type_txt: 1, nxdomain: 1 } },
        { day: '2026-11-24', zone: 'example.org.', host: 'www.example.org.', node: 'n2', counts: { rsp_total: 1, udp: 1, noerror: 1 } }
      ])
      await store.hostVolume.add([
        { day: '2026-11-24', zone: 'example.org.', host: 'www.example.org.', node: 'n1', counts: { rsp_total: 2, udp: 1, tcp: 1, type_a: 2, noerror: 1, refused: 1 } },
        { day: '2026-11-25', zone: 'example.org.', host: '(other hosts)', node: 'n1', counts: { rsp_total: 5, udp: 5, nxdomain: 5 } }
      ])
      assert.deepEqual(await rows(), [
        ['2026-11-24', 'example.org.', 'nope.example.org.', 'n1', 1, 0, 1, 0, 1, 0, 1, 0],
        ['2026-11-24', 'example.org.', 'www.example.org.', 'n1', 5, 4, 1, 5, 0, 4, 0, 1],
        ['2026-11-24', 'example.org.', 'www.example.org.', 'n2', 1, 1, 0, 0, 0, 1, 0, 0],
        ['2026-11-25', 'example.org.', '(other hosts)', 'n1', 5, 5, 0, 0, 0, 0, 5, 0]
      ])
    })

    it('writes nothing of a flush that fails', async () => {
      const before = await rows()
      await assert.rejects(store.hostVolume.add([
        { day: '2026-11-24', zone: 'example.org.', host: 'www.example.org.', node: 'n1', counts: { rsp_total: 100 } },
        { day: '2026-11-24', zone: 'example.org.', host: null as unknown as string, node: 'n1', counts: { rsp_total: 1 } }
      ]))
      assert.deepEqual(await rows(), before)
    })

    it('writes a flush larger than one statement (SQLite: 188 rows, PostgreSQL: 5,000)', async () => {
      const many = Array.from({ length: 5100 }, (_, i) => ({ day: '2026-11-26', zone: 'example.net.', host: `h${i}.example.net.`, node: 'n1', counts: { rsp_total: 1, nxdomain: 1 } }))
      await store.hostVolume.add(many)
      await store.hostVolume.add(many)
      const db = (store as any).engineImpl.db
      const r = await db.selectFrom('host_volume').select((eb: any) => [eb.fn.countAll().as('n'), eb.fn.sum('nxdomain').as('nx')]).where('day', '=', '2026-11-26').executeTakeFirst()
      assert.deepEqual([Number(r.n), Number(r.nx)], [5100, 10200])
    })
  })
}
