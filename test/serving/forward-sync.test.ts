/**
 * The forwarding server's table follows the store (`serving/forward-sync.ts`), on both engines:
 * every zone's forwards are loaded at start; a forward created, changed or deleted through the
 * API of another process (another Store on the same database: PostgreSQL LISTEN/NOTIFY, SQLite's
 * data version) reaches the table; a missed notification is caught up by comparing versions;
 * a suspended or deleted zone's forwards leave the table; an alias serves its primary's forwards
 * under its own name.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ForwardTable } from '../../src/forwards/table.ts'
import { ForwardSync } from '../../src/serving/forward-sync.ts'
import { openStore } from '../../src/store/open-store.ts'
import type { Store } from '../../src/store/store.ts'
import { SecretBox } from '../../src/auth/secrets.ts'
import { unsuspendZone } from '../../src/zones/actions.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { engineCases } from '../helpers/engines.ts'
import { client } from '../helpers/zones.ts'

const silent = { info: () => {}, error: () => {} }

async function eventually (check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return
    await new Promise(resolve => setTimeout(resolve, 10))
  }
  assert.fail(`${what}: not true within ${ms} ms`)
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: the forward table follows the store`, { skip: engine.skip }, () => {
    let t: TestApp
    let api: ReturnType<typeof client>
    const forward = (host: string, to = 'https://example.net/') => ({ requestTo: host, defaultRedirectTo: to, defaultForwardType: 'HTTP_301_REDIRECT' })

    before(async () => {
      t = await buildTestApp(engine.name)
      api = client(t.app, await t.user('fwd', 'acme'))
      assert.equal((await api.newPrimary('sync.test', 'acme')).statusCode, 201)
      assert.equal((await api.post('/zones/sync.test/webforwards', forward('start.sync.test'))).statusCode, 201)
    })
    after(async () => { await t?.close() })

    it('loads every forward at start, then follows changes committed by another process; a suspended zone\'s forwards leave', async () => {
      // The API writes through t.store; the table is kept by a second store, as another node's would be.
      const other = await openStore(t.url)
      const table = new ForwardTable()
      const sync = new ForwardSync(other, table, silent, { fullSyncMs: 600_000 })
      try {
        await sync.start()
        assert.equal(table.lookup('start.sync.test', '/')?.redirectTo, 'https://example.net/')
        const res = await api.post('/zones/sync.test/webforwards', forward('new.sync.test/page', 'https://example.net/page'))
        assert.equal(res.statusCode, 201)
        await eventually(() => table.lookup('NEW.sync.test:80', '/page/x')?.redirectTo === 'https://example.net/page', 'a new forward')
        assert.equal(table.lookup('new.sync.test', '/other'), undefined)
        const guid = res.json().guid
        assert.equal((await api.patch(`/zones/sync.test/webforwards/${guid}`, { defaultRedirectTo: 'https://example.net/changed' })).statusCode, 200)
        await eventually(() => table.lookup('new.sync.test', '/page')?.redirectTo === 'https://example.net/changed', 'a changed forward')
        assert.equal((await api.delete(`/zones/sync.test/webforwards/${guid}`)).statusCode, 204)
        await eventually(() => table.lookup('new.sync.test', '/page') === undefined, 'a deleted forward')
        // An alias serves its primary's forwards under its own name, and follows the primary's changes.
        assert.equal((await api.post('/zones', { properties: { name: 'mirror.test', accountName: 'acme', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'sync.test' } })).statusCode, 201)
        await eventually(() => table.lookup('start.mirror.test', '/')?.zone === 'mirror.test.', 'an alias\'s forwards')
        assert.equal((await api.post('/zones/sync.test/webforwards', forward('sync.test/apex', 'https://example.net/apex'))).statusCode, 201)
        await eventually(() => table.lookup('mirror.test', '/apex')?.redirectTo === 'https://example.net/apex', 'a primary\'s new forward under its alias')
        assert.equal(table.lookup('sync.test', '/apex')?.zone, 'sync.test.')
        assert.equal((await api.delete('/zones/mirror.test')).statusCode, 204)
        await eventually(() => table.lookup('start.mirror.test', '/') === undefined, 'a deleted alias\'s forwards')
        assert.equal((await api.post('/zones/sync.test/suspend', {})).statusCode, 200)
        await eventually(() => table.lookup('start.sync.test', '/') === undefined, 'a suspended zone\'s forwards')
      } finally {
        await sync.stop()
        await other.close()
      }
    })

    it('catches up a missed notification by comparing versions, and drops a deleted zone\'s forwards', async () => {
      const other = await openStore(t.url)
      // A store whose notifications never arrive.
      const deaf: Store = new Proxy(other, {
        get: (target, prop, receiver) => prop === 'watchZones' ? async () => async () => {} : Reflect.get(target, prop, receiver)
      })
      const table = new ForwardTable()
      const sync = new ForwardSync(deaf, table, silent, { fullSyncMs: 100 })
      try {
        await sync.start()
        assert.equal(table.size, 0, 'a suspended zone\'s forwards are not loaded')
        await unsuspendZone({ store: t.store, nameservers: [], secrets: new SecretBox(undefined), clock: () => new Date() }, { user: 'test', ipAddress: null }, 'sync.test')
        await eventually(() => table.lookup('start.sync.test', '/') !== undefined, 'an unsuspended zone\'s forwards')
        assert.equal((await api.post('/zones/sync.test/webforwards', forward('late.sync.test'))).statusCode, 201)
        await eventually(() => table.lookup('late.sync.test', '/') !== undefined, 'a forward of a missed notification')
        assert.equal((await api.delete('/zones/sync.test')).statusCode, 204)
        await eventually(() => table.size === 0, 'a deleted zone\'s forwards')
      } finally {
        await sync.stop()
        await other.close()
      }
    })
  })
}
