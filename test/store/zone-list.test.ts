import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { ListedZone, Scope, Store, ZoneListQuery, ZoneSort } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

/**
 * Keyset paging of `ZoneStore.list` over a scope large enough (10,000+ zones) that SQLite reads
 * sorted pages along the order index, and a small scope that keeps the account index.
 */
for (const engine of await engineCases()) {
  describe(`${engine.name}: zone list paging`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let both: Scope
    let smallOnly: Scope
    const all: { name: string, type: string, account: string }[] = []

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      const big = await store.accounts.create('big')
      const small = await store.accounts.create('small')
      both = { accountIds: [big.id, small.id] }
      smallOnly = { accountIds: [small.id] }
      await store.transaction(async (tx) => {
        for (let i = 0; i < 10_050; i++) {
          const account = i % 201 === 7 ? small : big
          const name = `z${String((i * 7919) % 10_050).padStart(5, '0')}.example.org.`
          const type = (['PRIMARY', 'SECONDARY', 'ALIAS'] as const)[i % 3]!
          await tx.zones.create({ accountId: account.id, accountNameKey: account.name_key, name, type, status: i % 13 === 0 ? 'SUSPENDED' : 'ACTIVE' })
          all.push({ name, type, account: account.name_key })
        }
      })
    })
    after(async () => { await close?.() })

    function expected (sort: ZoneSort, reverse: boolean, accounts: string[]): string[] {
      const key = (z: typeof all[number]): string => sort === 'ZONE_TYPE' ? z.type : sort === 'ACCOUNT_NAME' ? z.account : ''
      const rows = all.filter(z => accounts.includes(z.account))
      rows.sort((a, b) => {
        const c = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0
        return reverse ? -c : c
      })
      return rows.map(z => z.name)
    }

    const position = (row: ListedZone, sort: ZoneSort): { value: string, name: string } =>
      ({ value: sort === 'ZONE_TYPE' ? row.zone_type : row.account_name_key!, name: row.name })

    async function pageAll (scope: Scope, sort: ZoneSort, reverse: boolean, backwards: boolean): Promise<string[]> {
      const base: ZoneListQuery = { scope, filter: {}, sort, reverse, limit: 997 }
      const pages: ListedZone[][] = []
      let page = await store.zones.list(backwards ? { ...base, before: 'end' } : base)
      while (page.length > 0) {
        pages.push(page)
        const at = backwards ? position(page[0]!, sort) : position(page.at(-1)!, sort)
        page = await store.zones.list(backwards ? { ...base, before: at } : { ...base, after: at })
      }
      return (backwards ? pages.reverse() : pages).flat().map(z => z.name)
    }

    it('pages a large scope forward and backward in every non-name order', async () => {
      for (const sort of ['ZONE_TYPE', 'ACCOUNT_NAME'] as const) {
        for (const reverse of [false, true]) {
          const want = expected(sort, reverse, ['big', 'small'])
          assert.deepEqual(await pageAll(both, sort, reverse, false), want, `${sort} reverse=${reverse}`)
          assert.deepEqual(await pageAll(both, sort, reverse, true), want, `${sort} reverse=${reverse} backwards`)
        }
      }
    })

    it('pages a small scope the same way', async () => {
      assert.deepEqual(await pageAll(smallOnly, 'ZONE_TYPE', true, false), expected('ZONE_TYPE', true, ['small']))
      assert.deepEqual(await pageAll(smallOnly, 'NAME', false, true), expected('NAME', false, ['small']))
    })

    it('lists a zone as findById reads it, with the settings a list shows and none kept as JSON', async () => {
      const rows = await store.zones.list({ scope: both, filter: {}, sort: 'NAME', reverse: false, limit: 3 })
      assert.equal(rows.length, 3)
      for (const row of rows) {
        const { settings, ...columns } = (await store.zones.findById(row.id))!
        assert.deepEqual(row, { ...columns, settings: { mailMonitor: settings.mailMonitor, certEnabled: settings.certEnabled, valimailMonitor: settings.valimailMonitor } })
      }
    })

    it('applies the status filter whatever index the page is read through', async () => {
      const rows = await store.zones.list({ scope: both, filter: { status: 'SUSPENDED', type: 'ALIAS' }, sort: 'ZONE_TYPE', reverse: false, limit: 1000 })
      assert.ok(rows.length > 0)
      assert.ok(rows.every(z => z.status === 'SUSPENDED' && z.zone_type === 'ALIAS'))
      assert.equal(await store.zones.count(both, { status: 'SUSPENDED', type: 'ALIAS' }), rows.length)
    })
  })
}
