import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { AuthService } from '../../src/auth/auth-service.ts'
import { buildApp } from '../../src/app.ts'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import { openStore } from '../../src/store/open-store.ts'
import type { Store } from '../../src/store/store.ts'
import { zonal } from '../helpers/cli.ts'
import { freshDatabase, type TestDatabase } from '../helpers/engines.ts'

describe('sqlite: zonal zone unsuspend', () => {
  let db: TestDatabase
  let store: Store
  before(async () => {
    db = await freshDatabase('sqlite')
    store = await openStore(db.url)
    await store.migrate()
    const admin = new UserAdmin(store)
    await admin.addAccount('acme')
    await admin.addUser('alice', 'long password')
    await admin.grant('alice', 'acme', 'Owner')
    const auth = new AuthService(store)
    const app = await buildApp({ store, auth, config: { bodyLimit: 1 << 20, rateLimitMax: 0, rateLimitWindowSeconds: 60 } })
    const { accessToken } = await auth.login('alice', 'long password', '127.0.0.1')
    const headers = { authorization: `Bearer ${accessToken}` }
    await app.inject({ method: 'POST', url: '/zones', headers, payload: { properties: { name: 'example.org', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } } })
    await app.inject({ method: 'POST', url: '/zones/example.org/suspend', headers })
    await app.close()
  })
  after(async () => {
    await store.close()
    await db.drop()
  })

  it('makes a suspended zone active again with the next SOA serial, and refuses an active one', async () => {
    const before = await store.zones.findById((await store.zones.findByName('example.org.', { accountIds: (await store.accounts.list()).map(a => a.id) }))!.id)
    assert.equal(before?.status, 'SUSPENDED')
    const res = await zonal(db.url, ['zone', 'unsuspend', 'example.org'])
    assert.equal(res.code, 0, res.stderr)
    const after = await store.zones.findById(before.id)
    assert.equal(after?.status, 'ACTIVE')
    assert.ok(after!.serial > before.serial, `${after!.serial} > ${before.serial}`)
    assert.match(res.stdout, new RegExp(`example\\.org\\. is active again \\(serial ${after!.serial}\\)`))
    const soa = (await store.rrsets.list(before.id, 8)).find(r => r.type === 6)
    assert.match(soa!.rdataText[0]!, new RegExp(` ${after!.serial} `))
    assert.ok((await store.audit.recent(5, 'UNSUSPEND')).some(r => r.object === 'example.org.'))
    const again = await zonal(db.url, ['zone', 'unsuspend', 'example.org'])
    assert.equal(again.code, 2)
    assert.match(again.stderr, /Zone is not suspended/)
    assert.match((await zonal(db.url, ['zone', 'unsuspend', 'nothing.test'])).stderr, /Zone does not exist/)
  })
})
