/**
 * Operation 10, `POST /zones/{zoneName}/transfer`: a secondary zone's transfer is asked for
 * (status IN_PROGRESS, "Zone transfer requested", which the refresher of any node follows); the
 * spec's errors for a missing zone, a caller who may not update it, a zone that is not secondary,
 * and a suspended one. A new secondary zone starts with its first transfer asked for.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client, errorCode } from '../../../helpers/zones.ts'

const SECONDARY = { properties: { name: 'sec.test', accountName: 'acme', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '127.0.0.1:15353' } } } } }

for (const engine of await engineCases()) {
  describe(`${engine.name}: POST /zones/{zoneName}/transfer`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: ReturnType<typeof client>
    let reader: ReturnType<typeof client>
    let mallory: ReturnType<typeof client>

    before(async () => {
      t = await buildTestApp(engine.name)
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
      reader = client(t.app, await t.user('rita', 'acme', 'ReadOnly'))
      mallory = client(t.app, await t.user('mallory', 'other', 'Owner'))
      assert.equal((await alice.post('/zones', SECONDARY)).statusCode, 201)
      assert.equal((await alice.newPrimary('prim.test', 'acme')).statusCode, 201)
    })
    after(async () => { await t.close() })

    const status = async (): Promise<Record<string, unknown>> => (await alice.get('/zones/sec.test')).json().transferStatusDetails as Record<string, unknown>

    it('starts a new secondary zone with its first transfer asked for', async () => {
      assert.deepEqual(await status(), { lastRefreshStatus: 'IN_PROGRESS', lastRefreshStatusMessage: 'Zone transfer requested' })
    })

    it('asks for a transfer of a secondary zone (200 Successful), keeping the last refresh times', async () => {
      const zone = await t.store.zones.findByName('sec.test.', { accountIds: (await t.store.accounts.list()).map(a => a.id) })
      await t.store.zones.update(zone!.id, { settings: { transfer: { phase: { kind: 'failed', reason: 'Connection refused' }, lastRefresh: '2026-11-22T15:04:05.000Z' } } })
      const res = await alice.post('/zones/sec.test/transfer')
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), { message: 'Successful' })
      assert.deepEqual(await status(), { lastRefresh: '11/22/26 03:04:05 PM GMT', lastRefreshStatus: 'IN_PROGRESS', lastRefreshStatusMessage: 'Zone transfer requested' })
    })

    it('refuses a zone that is not secondary, a missing zone, another account\'s zone and a read-only caller', async () => {
      const primary = await alice.post('/zones/prim.test/transfer')
      assert.equal(primary.statusCode, 400)
      assert.deepEqual(primary.json(), [{ errorCode: 53001, errorMessage: 'Invalid zone type: prim.test. is not a secondary zone; only a secondary zone requests transfers from its primary name servers.' }])
      assert.equal(errorCode((await alice.post('/zones/missing.test/transfer')).body), 1801)
      assert.equal(errorCode((await mallory.post('/zones/sec.test/transfer')).body), 1801)
      const denied = await reader.post('/zones/sec.test/transfer')
      assert.equal(denied.statusCode, 403)
    })

    it('refuses a suspended secondary zone (no transfers)', async () => {
      assert.equal((await alice.post('/zones/sec.test/suspend')).statusCode, 200)
      assert.equal(errorCode((await alice.post('/zones/sec.test/transfer')).body), 1813)
    })
  })
}
