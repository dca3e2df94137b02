/** Responses per client on both engines: each flush adds to the stored rows; the report reads an account's zones, one network, a range of days. */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { ClientResponseRow, Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'

function row (day: string, zone: string, clientIp: string, place: [string, string, string], responses: number, node = 'n1'): ClientResponseRow {
  const classC = clientIp === '' ? '' : clientIp.includes(':') ? '2001:db8:1::' : clientIp.replace(/\.\d+$/, '.0')
  return { day, zone, clientIp, node, country: place[0], region: place[1], city: place[2], classC, responses }
}

const US: [string, string, string] = ['united states', 'virginia', 'ashburn']
const GB: [string, string, string] = ['united kingdom', 'england', 'london']
const NOWHERE: [string, string, string] = ['', '', '']

for (const engine of await engineCases()) {
  describe(`${engine.name}: client responses`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let a: string
    let b: string
    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      a = (await store.accounts.create('acct-a')).id
      b = (await store.accounts.create('acct-b')).id
      await storeZone(store, 'acct-a', 'example.org.', '')
      await storeZone(store, 'acct-a', 'example.com.', '')
      await storeZone(store, 'acct-b', 'example.net.', '')
    })
    after(async () => await close?.())

    async function stored (): Promise<Array<Record<string, unknown>>> {
      const db = (store as any).engineImpl.db
      const found = await db.selectFrom('client_responses').selectAll().orderBy('day').orderBy('zone').orderBy('client_ip').orderBy('country').execute() as Array<Record<string, unknown>>
      return found.map(r => ({ ...r, responses: Number(r.responses) }))
    }

    it('adds each flush to the stored rows, per (day, zone, client, node, place)', async () => {
      await store.clientResponses.add([
        row('2026-11-20', 'example.org.', '10.33.162.158', US, 3),
        row('2026-11-20', 'example.org.', '10.33.162.158', GB, 1),
        row('2026-11-20', 'example.org.', '', NOWHERE, 7)
      ])
      await store.clientResponses.add([
        row('2026-11-20', 'example.org.', '10.33.162.158', US, 2),
        row('2026-11-21', 'example.org.', '10.33.162.158', US, 1)
      ])
      assert.deepEqual(await stored(), [
        { day: '2026-11-20', zone: 'example.org.', client_ip: '', node: 'n1', country: '', region: '', city: '', class_c: '', responses: 7 },
        { day: '2026-11-20', zone: 'example.org.', client_ip: '10.33.162.158', node: 'n1', country: 'united kingdom', region: 'england', city: 'london', class_c: '10.33.162.0', responses: 1 },
        { day: '2026-11-20', zone: 'example.org.', client_ip: '10.33.162.158', node: 'n1', country: 'united states', region: 'virginia', city: 'ashburn', class_c: '10.33.162.0', responses: 5 },
        { day: '2026-11-21', zone: 'example.org.', client_ip: '10.33.162.158', node: 'n1', country: 'united states', region: 'virginia', city: 'ashburn', class_c: '10.33.162.0', responses: 1 }
      ])
    })

    it('writes nothing of a flush that fails', async () => {
      const before = await stored()
      await assert.rejects(store.clientResponses.add([
        row('2026-11-20', 'example.org.', '10.33.162.158', US, 100),
        { ...row('2026-11-20', 'example.org.', '10.33.162.9', US, 1), city: null as unknown as string }
      ]))
      assert.deepEqual(await stored(), before)
    })

    it('reports one network over the accounts\' zones: summed over zones and days, first and last day, filters, order, pages', async () => {
      await store.clientResponses.add([
        row('2026-11-22', 'example.com.', '10.33.162.158', US, 4),
        row('2026-11-22', 'example.org.', '10.33.162.20', US, 1),
        row('2026-11-22', 'example.org.', '10.33.162.3', NOWHERE, 2, 'n2'),
        row('2026-11-22', 'example.org.', '10.33.163.1', US, 50), // another network
        row('2026-11-22', 'example.net.', '10.33.162.158', US, 60), // another account's zone
        row('2026-11-22', '', '10.33.162.158', US, 70) // no zone answered
      ])
      const q = { accountIds: [a], classC: '10.33.162.0', from: '2026-11-01', to: '2026-11-30', offset: 0, limit: 100 }
      const all = await store.clientResponses.report(q)
      const brief = (rows: typeof all): unknown[] => rows.map(r => [r.clientIp, r.node, r.country, r.city, r.firstDay, r.lastDay, r.responses])
      assert.deepEqual(brief(all), [
        ['10.33.162.3', 'n2', '', '', '2026-11-22', '2026-11-22', 2],
        ['10.33.162.20', 'n1', 'united states', 'ashburn', '2026-11-22', '2026-11-22', 1],
        ['10.33.162.158', 'n1', 'united kingdom', 'london', '2026-11-20', '2026-11-20', 1],
        ['10.33.162.158', 'n1', 'united states', 'ashburn', '2026-11-20', '2026-11-22', 10]
      ])
      assert.ok(all.every(r => r.accountId === a && r.classC === '10.33.162.0' && r.region === (r.country === '' ? '' : r.city === 'london' ? 'england' : 'virginia')))
      assert.deepEqual(brief(await store.clientResponses.report({ ...q, from: '2026-11-21', to: '2026-11-21' })), [
        ['10.33.162.158', 'n1', 'united states', 'ashburn', '2026-11-21', '2026-11-21', 1]
      ])
      assert.deepEqual(brief(await store.clientResponses.report({ ...q, zone: 'example.com.' })), [
        ['10.33.162.158', 'n1', 'united states', 'ashburn', '2026-11-22', '2026-11-22', 4]
      ])
      assert.deepEqual(brief(await store.clientResponses.report({ ...q, clientIp: '10.33.162.158', country: 'United Kingdom' })), [
        ['10.33.162.158', 'n1', 'united kingdom', 'london', '2026-11-20', '2026-11-20', 1]
      ])
      assert.deepEqual(brief(await store.clientResponses.report({ ...q, region: 'VIRGINIA', city: 'ashburn' })).length, 2)
      assert.deepEqual(brief(await store.clientResponses.report({ ...q, offset: 1, limit: 2 })), brief(all.slice(1, 3)))
      assert.deepEqual(brief(await store.clientResponses.report({ ...q, accountIds: [b] })), [
        ['10.33.162.158', 'n1', 'united states', 'ashburn', '2026-11-22', '2026-11-22', 60]
      ])
      assert.deepEqual(await store.clientResponses.report({ ...q, accountIds: [] }), [])
    })

    it('reports IPv6 clients by their /48', async () => {
      await store.clientResponses.add([row('2026-11-23', 'example.org.', '2001:db8:1:2::5', GB, 3)])
      const rows = await store.clientResponses.report({ accountIds: [a], classC: '2001:db8:1::', from: '2026-11-23', to: '2026-11-23', offset: 0, limit: 10 })
      assert.deepEqual(rows.map(r => [r.clientIp, r.country, r.responses]), [['2001:db8:1:2::5', 'united kingdom', 3]])
    })

    it('sums each zone\'s responses by country (unknown and overflow as \'\'), a page of zones in name order', async () => {
      await store.clientResponses.add([
        row('2026-10-01', 'example.org.', '10.1.1.1', US, 5),
        row('2026-10-03', 'example.org.', '10.1.1.2', US, 2, 'n2'),
        row('2026-10-02', 'example.org.', '10.1.2.1', GB, 4),
        row('2026-10-02', 'example.org.', '10.1.1.3', NOWHERE, 1),
        row('2026-10-04', 'example.org.', '', NOWHERE, 6), // overflow
        row('2026-10-02', 'example.com.', '10.1.1.1', GB, 3),
        row('2026-10-02', 'example.net.', '10.1.1.1', US, 60), // another account's zone
        row('2026-10-02', '', '10.1.1.1', US, 70), // no zone answered
        row('2026-09-30', 'example.com.', '10.1.1.1', US, 80) // before the range
      ])
      const q = { accountIds: [a], from: '2026-10-01', to: '2026-10-31', offset: 0, limit: 100 }
      assert.deepEqual(await store.clientResponses.countriesByZone(q), [
        { accountId: a, zone: 'example.com.', firstDay: '2026-10-02', lastDay: '2026-10-02', countries: [{ country: 'united kingdom', responses: 3 }] },
        {
          accountId: a,
          zone: 'example.org.',
          firstDay: '2026-10-01',
          lastDay: '2026-10-04',
          countries: [{ country: '', responses: 7 }, { country: 'united kingdom', responses: 4 }, { country: 'united states', responses: 7 }]
        }
      ])
      assert.deepEqual((await store.clientResponses.countriesByZone({ ...q, offset: 1, limit: 1 })).map(z => z.zone), ['example.org.'])
      assert.deepEqual((await store.clientResponses.countriesByZone({ ...q, limit: 1 })).map(z => z.zone), ['example.com.'])
      assert.deepEqual((await store.clientResponses.countriesByZone({ ...q, zone: 'example.org.', to: '2026-10-02' })).map(z => [z.zone, z.firstDay, z.lastDay, z.countries.length]), [['example.org.', '2026-10-01', '2026-10-02', 3]])
      assert.deepEqual((await store.clientResponses.countriesByZone({ ...q, accountIds: [a, b] })).map(z => [z.accountId, z.zone]), [[a, 'example.com.'], [b, 'example.net.'], [a, 'example.org.']])
      assert.deepEqual(await store.clientResponses.countriesByZone({ ...q, accountIds: [] }), [])
    })

    it('ranks class C networks by responses over the accounts\' zones, leaving the overflow row out', async () => {
      const q = { accountIds: [a], from: '2026-10-01', to: '2026-10-31', offset: 0, limit: 100 }
      const brief = (rows: Awaited<ReturnType<Store['clientResponses']['networks']>>): unknown[] => rows.map(r => [r.classC, r.firstDay, r.lastDay, r.responses])
      assert.deepEqual(brief(await store.clientResponses.networks(q)), [
        ['10.1.1.0', '2026-10-01', '2026-10-03', 11],
        ['10.1.2.0', '2026-10-02', '2026-10-02', 4]
      ])
      assert.ok((await store.clientResponses.networks(q)).every(r => r.accountId === a))
      assert.deepEqual(brief(await store.clientResponses.networks({ ...q, country: 'United Kingdom' })), [
        ['10.1.2.0', '2026-10-02', '2026-10-02', 4],
        ['10.1.1.0', '2026-10-02', '2026-10-02', 3]
      ])
      assert.deepEqual(brief(await store.clientResponses.networks({ ...q, zone: 'example.com.' })), [['10.1.1.0', '2026-10-02', '2026-10-02', 3]])
      assert.deepEqual(brief(await store.clientResponses.networks({ ...q, offset: 1, limit: 1 })), [['10.1.2.0', '2026-10-02', '2026-10-02', 4]])
      // Equal counts: by network, then account.
      assert.deepEqual((await store.clientResponses.networks({ ...q, accountIds: [a, b], to: '2026-10-02', country: 'united states' })).map(r => [r.accountId, r.classC, r.responses]), [
        [b, '10.1.1.0', 60],
        [a, '10.1.1.0', 5]
      ])
      assert.deepEqual(await store.clientResponses.networks({ ...q, accountIds: [] }), [])
    })
  })
}
