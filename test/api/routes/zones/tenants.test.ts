import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client, errorCode } from '../../../helpers/zones.ts'

const ZONE_FILE = [
  '$TTL 300',
  '@ IN SOA ns1 hostmaster 2024010101 3600 900 604800 300',
  '@ IN NS ns1',
  'ns1 IN A 192.0.2.1',
  ''
].join('\n')

const primary = (name: string, account: string, createInfo: Record<string, unknown> = { createType: 'NEW' }) =>
  ({ properties: { name, accountName: account, type: 'PRIMARY' }, primaryCreateInfo: createInfo })

for (const engine of await engineCases()) {
  describe(`${engine.name}: one account cannot create zones inside or above another's`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: ReturnType<typeof client>
    let bob: ReturnType<typeof client>

    before(async () => {
      t = await buildTestApp(engine.name)
      alice = client(t.app, await t.user('alice', 'acme', 'Owner'))
      bob = client(t.app, await t.user('bob', 'bigco', 'Owner'))
      assert.equal((await bob.newPrimary('b-zone.test', 'bigco')).statusCode, 201)
      assert.equal((await alice.upload(primary('a-zone.test', 'acme', { createType: 'UPLOAD' }), ZONE_FILE)).statusCode, 201)
    })
    after(async () => { await t.close() })

    const refused = (res: { statusCode: number, body: string }, name: string): void => {
      assert.equal(res.statusCode, 400, res.body)
      assert.deepEqual(JSON.parse(res.body), [{ errorCode: 1891, errorMessage: `Zone ${name} is inside or above a zone of another account.` }])
    }

    it('refuses a primary below the other account\'s zone, by every create type', async () => {
      refused(await alice.newPrimary('sub.b-zone.test', 'acme'), 'sub.b-zone.test.')
      refused(await alice.newPrimary('Deep.Sub.B-Zone.Test.', 'acme'), 'deep.sub.b-zone.test.')
      refused(await alice.upload(primary('up.b-zone.test', 'acme', { createType: 'UPLOAD' }), ZONE_FILE.replaceAll('ns1', 'ns1.up.b-zone.test.')), 'up.b-zone.test.')
      refused(await alice.post('/zones', primary('copy.b-zone.test', 'acme', { createType: 'COPY', originalZoneName: 'a-zone.test.' })), 'copy.b-zone.test.')
      // Refused before the transfer is tried (no name server is asked).
      refused(await alice.post('/zones', primary('xfr.b-zone.test', 'acme', { createType: 'TRANSFER', nameServer: { ip: '127.0.0.1' } })), 'xfr.b-zone.test.')
    })

    it('refuses a secondary and an alias below it', async () => {
      refused(await alice.post('/zones', {
        properties: { name: 'sec.b-zone.test', accountName: 'acme', type: 'SECONDARY' },
        secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '127.0.0.1' } } } }
      }), 'sec.b-zone.test.')
      refused(await alice.post('/zones', { properties: { name: 'alias.b-zone.test', accountName: 'acme', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'a-zone.test.' } }), 'alias.b-zone.test.')
    })

    it('refuses a parent of the other account\'s zone', async () => {
      refused(await alice.newPrimary('test', 'acme'), 'test.')
      // And the other way round: bob cannot create above or below alice's zone.
      refused(await bob.newPrimary('x.a-zone.test', 'bigco'), 'x.a-zone.test.')
    })

    it('leaves nothing behind: no zone, and the other account\'s zone as it was', async () => {
      for (const name of ['sub.b-zone.test.', 'deep.sub.b-zone.test.', 'up.b-zone.test.', 'sec.b-zone.test.', 'alias.b-zone.test.', 'test.']) {
        assert.equal(await t.store.zones.exists(name), false, name)
      }
      assert.equal((await bob.get('/zones/b-zone.test.')).json().properties.recordCount, 3)
    })

    it('allows names that only look alike, and nesting inside one account', async () => {
      assert.equal((await alice.newPrimary('xb-zone.test', 'acme')).statusCode, 201)
      assert.equal((await alice.newPrimary('b-zone.test.example', 'acme')).statusCode, 201)
      assert.equal((await bob.newPrimary('sub.b-zone.test', 'bigco')).statusCode, 201)
      assert.equal((await bob.newPrimary('deeper.sub.b-zone.test', 'bigco')).statusCode, 201)
      assert.equal((await alice.newPrimary('child.a-zone.test', 'acme')).statusCode, 201)
      // The same name in another account stays "already exists".
      assert.equal(errorCode((await alice.newPrimary('b-zone.test', 'acme')).body), 1802)
    })

    it('lets only one of two accounts racing for a parent and its child win', async () => {
      const rounds = 12
      const results = await Promise.all(Array.from({ length: rounds }, async (_, i) => await Promise.all([
        alice.newPrimary(`race${i}.test.example`, 'acme'),
        bob.newPrimary(`sub.race${i}.test.example`, 'bigco')
      ])))
      for (const [i, [parent, child]] of results.entries()) {
        const created = [parent, child].filter(r => r.statusCode === 201).length
        assert.equal(created, 1, `round ${i}: ${parent.statusCode} ${parent.body} / ${child.statusCode} ${child.body}`)
      }
    })
  })
}

describe('sqlite: a large upload into another account\'s domain is refused before its task', () => {
  it('answers 1891 at once and queues no task', async () => {
    const t = await buildTestApp('sqlite', { bodyLimit: 8 << 20, tasks: () => ({ wake () {} }) })
    try {
      const alice = client(t.app, await t.user('alice', 'acme'))
      const bob = client(t.app, await t.user('bob', 'bigco'))
      assert.equal((await bob.newPrimary('b-zone.test', 'bigco')).statusCode, 201)
      let big = ZONE_FILE
      for (let i = 0; big.length <= 600 * 1024; i++) big += `host${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}\n`
      const res = await alice.upload(primary('big.b-zone.test', 'acme', { createType: 'UPLOAD' }), big)
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(errorCode(res.body), 1891)
      assert.equal(res.headers['x-task-id'], undefined)
    } finally {
      await t.close()
    }
  })
})
