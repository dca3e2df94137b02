/**
 * Zone settings clients round-trip: `valimailMonitor` (octoDNS reads it from the zone list's
 * properties of primaries, sends it in `primaryCreateInfo` on create and PATCHes it), and updates
 * that change nothing, which write nothing (no audit record, no new version, no transfer asked).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client, errorCode } from '../../../helpers/zones.ts'

const SECONDARY = { properties: { name: 'sec.test', accountName: 'acme', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.53', tsigKey: 'k1', tsigKeyValue: 'c2VjcmV0' } } } } }
const SECTION = { restrictIPList: [{ cidr: '192.0.2.0/24', comment: 'lan' }], notifyAddresses: [{ notifyAddress: '192.0.2.7:5353', description: 'sec' }], tsig: { tsigKeyName: 'k1', tsigKeyValue: 'c2VjcmV0', tsigAlgorithm: 'hmac-sha256' } }

for (const engine of await engineCases()) {
  describe(`${engine.name}: zone settings round trips`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: ReturnType<typeof client>

    before(async () => {
      // With a secret key: sealing the same TSIG secret twice gives two different stored values.
      t = await buildTestApp(engine.name, { secretKey: 'settings test key' })
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
    })
    after(async () => { await t.close() })

    const zone = async (name: string) => (await t.store.zones.findByName(name, { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!
    const modifies = async (name: string): Promise<number> => (await t.store.audit.recent(1000, 'MODIFY')).filter(r => r.object === name).length
    const listed = async (): Promise<Record<string, Record<string, unknown>>> => {
      const body = (await alice.get('/zones?limit=1000&q=zone_type:PRIMARY')).json() as { zones: { properties: Record<string, unknown> }[] }
      return Object.fromEntries(body.zones.map(z => [z.properties.name, z.properties]))
    }

    it('stores valimailMonitor from primaryCreateInfo and shows it on GET and in the list (false by default)', async () => {
      assert.equal((await alice.newPrimary('vm.test', 'acme', { valimailMonitor: true })).statusCode, 201)
      assert.equal((await alice.newPrimary('plain.test', 'acme')).statusCode, 201)
      const vm = (await alice.get('/zones/vm.test')).json().properties
      assert.deepEqual([vm.valimailMonitor, vm.mailMonitor, vm.certEnabled], [true, false, false])
      const list = await listed()
      assert.equal(list['vm.test.']?.valimailMonitor, true)
      assert.equal(list['plain.test.']?.valimailMonitor, false)
    })

    it('PATCHes valimailMonitor as octoDNS does, and refuses a value that is not a boolean (53005)', async () => {
      const res = await alice.patch('/zones/vm.test', { primaryCreateInfo: { valimailMonitor: false } })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal((await alice.get('/zones/vm.test')).json().properties.valimailMonitor, false)
      assert.equal((await listed())['vm.test.']?.valimailMonitor, false)
      const [record] = (await t.store.audit.recent(1, 'MODIFY'))
      assert.deepEqual(JSON.parse(record!.detail).changes, [{ name: 'valimailMonitor', from: true, to: false }])
      assert.equal(errorCode((await alice.patch('/zones/vm.test', { primaryCreateInfo: { valimailMonitor: 'yes' } })).body), 53005)
      assert.equal(errorCode((await alice.newPrimary('bad.test', 'acme', { valimailMonitor: 1 })).body), 53005)
    })

    it('keeps valimailMonitor through a PUT of the transfer settings that does not name it', async () => {
      assert.equal((await alice.patch('/zones/vm.test', { primaryCreateInfo: { valimailMonitor: true } })).statusCode, 200)
      assert.equal((await alice.put('/zones/vm.test', { primaryCreateInfo: { notifyAddresses: [] } })).statusCode, 200)
      assert.equal((await alice.get('/zones/vm.test')).json().properties.valimailMonitor, true)
    })

    it('writes nothing for a PUT, PATCH or JSON Patch that changes nothing (no audit record, same version)', async () => {
      assert.equal((await alice.put('/zones/plain.test', { primaryCreateInfo: SECTION })).statusCode, 200)
      const version = (await zone('plain.test.')).version
      const audits = await modifies('plain.test.')
      const same = [
        await alice.put('/zones/plain.test', { primaryCreateInfo: SECTION }),
        await alice.patch('/zones/plain.test', { primaryCreateInfo: { tsig: SECTION.tsig } }),
        await alice.patch('/zones/plain.test', {}),
        await alice.jsonPatch('/zones/plain.test', [{ op: 'test', path: '/restrictIpList/0/endIP', value: '192.0.2.255' }]),
        await alice.jsonPatch('/zones/plain.test', [{ op: 'replace', path: '/notifyAddresses/0/notifyAddress', value: '192.0.2.7:5353' }])
      ]
      assert.deepEqual(same.map(r => r.statusCode), [200, 200, 200, 200, 200])
      assert.equal((await zone('plain.test.')).version, version)
      assert.equal(await modifies('plain.test.'), audits)
      // A real change still counts.
      assert.equal((await alice.patch('/zones/plain.test', { primaryCreateInfo: { notifyAddresses: [] } })).statusCode, 200)
      assert.equal((await zone('plain.test.')).version, version + 1)
      assert.equal(await modifies('plain.test.'), audits + 1)
    })

    it('asks a secondary for a transfer again only when its primaries change', async () => {
      assert.equal((await alice.post('/zones', SECONDARY)).statusCode, 201)
      const id = (await zone('sec.test.')).id
      await t.store.zones.update(id, { settings: { transfer: { phase: { kind: 'failed', reason: 'Connection refused' } } } })
      const version = (await zone('sec.test.')).version
      assert.equal((await alice.put('/zones/sec.test', { secondaryCreateInfo: SECONDARY.secondaryCreateInfo })).statusCode, 200)
      assert.equal((await zone('sec.test.')).version, version)
      assert.equal((await alice.patch('/zones/sec.test', { secondaryCreateInfo: { notificationEmailAddress: 'ops@example.org' } })).statusCode, 200)
      const patched = await zone('sec.test.')
      assert.equal(patched.settings.notificationEmail, 'ops@example.org')
      assert.deepEqual(patched.settings.transfer?.phase, { kind: 'failed', reason: 'Connection refused' })
      const other = { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.54' } } } }
      assert.equal((await alice.patch('/zones/sec.test', { secondaryCreateInfo: other })).statusCode, 200)
      assert.deepEqual((await zone('sec.test.')).settings.transfer?.phase, { kind: 'requested', full: false })
    })
  })
}
