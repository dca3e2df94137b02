import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { bootstrapAdmin } from '../../src/cli/bootstrap.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

for (const engine of await engineCases()) {
  describe(`${engine.name}: first-start bootstrap`, { skip: engine.skip }, () => {
    let close: (() => Promise<void>) | undefined
    afterEach(async () => { await close?.() })

    it('creates the account and its Owner with their audit records by `bootstrap`, once', async () => {
      const fresh = await freshStore(engine.name)
      close = fresh.close
      const { store } = fresh
      const config = { adminAccount: 'first-acct', adminUsername: 'admin', adminPassword: 'admin password' }
      assert.deepEqual(await bootstrapAdmin(store, config), { account: 'first-acct', username: 'admin' })
      const admin = await store.users.findByUsername('admin')
      assert.ok(admin)
      assert.deepEqual((await store.users.memberships(admin.id)).map(m => [m.accountName, m.group]), [['first-acct', 'Owner']])
      const records = (await store.audit.recent(10)).reverse()
      assert.deepEqual(records.map(r => [r.user_name, r.object_type, r.change_type, r.object, r.account_name, JSON.parse(r.detail).changes]), [
        ['bootstrap', 'ACCOUNT', 'ADD', 'first-acct', 'first-acct', []],
        ['bootstrap', 'USER', 'ADD', 'admin', 'first-acct', [{ name: 'group', to: 'Owner' }]]
      ])
      assert.equal(await bootstrapAdmin(store, config), undefined)
      assert.equal((await store.audit.recent(10)).length, 2)
    })

    it('puts the admin in an account that exists already, recording only the user', async () => {
      const fresh = await freshStore(engine.name)
      close = fresh.close
      const { store } = fresh
      await store.accounts.create('first-acct')
      await bootstrapAdmin(store, { adminAccount: 'first-acct', adminUsername: 'admin', adminPassword: 'admin password' })
      assert.deepEqual((await store.audit.recent(10)).map(r => [r.object_type, r.change_type, r.object]), [['USER', 'ADD', 'admin']])
    })
  })
}
