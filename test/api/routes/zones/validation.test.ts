/**
 * The body schemas of the zone routes (src/api/schemas/zones.ts) and the mapping of their errors
 * (src/api/routes/zones/validation.ts): a body of the wrong shape is a 400 naming the field and
 * changes nothing; the codes the use cases answer stay; the bodies real clients send pass.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client, errorCode } from '../../../helpers/zones.ts'

const SECONDARY_SERVERS = { nameServerIpList: { nameServerIp1: { ip: '192.0.2.53' } } }

for (const engine of await engineCases()) {
  describe(`${engine.name}: zone body schemas`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: ReturnType<typeof client>

    before(async () => {
      t = await buildTestApp(engine.name)
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
      assert.equal((await alice.newPrimary('shape.test', 'acme', { notifyAddresses: [{ notifyAddress: '192.0.2.7', description: 'keep me' }] })).statusCode, 201)
      assert.equal((await alice.post('/zones', { properties: { name: 'shape-sec.test', accountName: 'acme', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: SECONDARY_SERVERS } })).statusCode, 201)
    })
    after(async () => { await t.close() })

    const modifications = async (): Promise<number> => (await t.store.audit.recent(1000, 'MODIFY')).length
    const raw = async (method: 'PUT' | 'PATCH', text: string, contentType = 'application/json') =>
      await alice.send(method, '/zones/shape.test', text, { 'content-type': contentType })

    describe('PUT and PATCH /zones/{zoneName} with a body of the wrong shape', () => {
      const cases: [string, string, RegExp][] = [
        ['a number', '123', /^Invalid input: body must be object$/],
        ['a string', '"x"', /^Invalid input: body must be object$/],
        ['null', 'null', /^Invalid input: body must be object$/],
        ['a list', '[]', /^Invalid input: body must be object$/],
        ['an unknown field', '{"bogus":1}', /^Invalid input: bogus is not a known field$/],
        ['a section field at the top', '{"restrictIpList":"x"}', /^Invalid input: restrictIpList is not a known field$/],
        ['a section of the wrong type', '{"primaryCreateInfo":"x"}', /^Invalid input: primaryCreateInfo must be object$/],
        ['an unknown field in a section', '{"primaryCreateInfo":{"notifyAdresses":[]}}', /^Invalid input: primaryCreateInfo\.notifyAdresses is not a known field$/],
        ['a list field that is an object', '{"primaryCreateInfo":{"notifyAddresses":{"notifyAddress":"192.0.2.8"}}}', /^Invalid input: primaryCreateInfo\.notifyAddresses must be array$/],
        ['a field of an item of the wrong type', '{"primaryCreateInfo":{"restrictIPList":[{"startIP":{}}]}}', /^Invalid input: primaryCreateInfo\.restrictIPList\[0\]\.startIP must be string$/],
        ['a comment over 512 characters', JSON.stringify({ changeComment: 'x'.repeat(513) }), /^Invalid input: changeComment must NOT have more than 512 characters$/],
        ['a flag that is a number', '{"primaryCreateInfo":{"valimailMonitor":1}}', /^Invalid input: primaryCreateInfo\.valimailMonitor must be true or false$/],
        ['a flag that is a string', '{"primaryCreateInfo":{"valimailMonitor":"true"}}', /^Invalid input: primaryCreateInfo\.valimailMonitor must be true or false$/]
      ]
      for (const method of ['PUT', 'PATCH'] as const) {
        for (const [what, text, message] of cases) {
          it(`${method} refuses ${what} with 400 naming the field, changing nothing`, async () => {
            const before = await modifications()
            const res = await raw(method, text)
            assert.equal(res.statusCode, 400, res.body)
            assert.equal(res.json().length, 1)
            assert.equal(res.json()[0].errorCode, 53005)
            assert.match(res.json()[0].errorMessage, message)
            assert.equal(await modifications(), before, 'no audit record')
            assert.deepEqual((await alice.get('/zones/shape.test')).json().notifyAddresses, [{ notifyAddress: '192.0.2.7', description: 'keep me' }])
          })
        }
      }

      it('PATCH refuses a media type it has no schema for (415), and a form body on PUT is checked like JSON', async () => {
        const before = await modifications()
        const form = await raw('PATCH', 'bogus=1', 'application/x-www-form-urlencoded')
        assert.equal(form.statusCode, 415)
        assert.equal(errorCode(form.body), 240002)
        const put = await raw('PUT', 'bogus=1', 'application/x-www-form-urlencoded')
        assert.deepEqual(put.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: bogus is not a known field' }])
        assert.equal(await modifications(), before)
      })

      it('PUT with a JSON Patch list is refused as a body that is not an object', async () => {
        const res = await raw('PUT', '[{"op":"remove","path":"/notifyAddresses/0"}]', 'application/json-patch+json')
        assert.deepEqual(res.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: body must be object' }])
      })

      it('a missing required field is 55001 naming it', async () => {
        const res = await alice.patch('/zones/shape.test', { primaryCreateInfo: { tsig: { tsigKeyValue: 'c2VjcmV0' } } })
        assert.deepEqual(res.json(), [{ errorCode: 55001, errorMessage: 'primaryCreateInfo.tsig.tsigKeyName is required field.' }])
        const server = await alice.patch('/zones/shape-sec.test', { secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp2: { ip: '192.0.2.54' } } } } })
        assert.deepEqual(server.json(), [{ errorCode: 55001, errorMessage: 'secondaryCreateInfo.primaryNameServers.nameServerIpList.nameServerIp1 is required field.' }])
        const key = await alice.patch('/zones/shape-sec.test', { secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.54' }, backup: { ip: '192.0.2.55' } } } } })
        assert.deepEqual(key.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: secondaryCreateInfo.primaryNameServers.nameServerIpList.backup is not a known field' }])
      })
    })

    describe('codes of the use cases kept for list items', () => {
      it('answers an item that is not an object with the section\'s code (120001, 120010, 53002)', async () => {
        assert.deepEqual((await alice.patch('/zones/shape.test', { primaryCreateInfo: { restrictIPList: ['192.0.2.1'] } })).json(),
          [{ errorCode: 120001, errorMessage: 'One of (startIP,endIP), cidr or singleIP is required to be set in restrictIPList[0]' }])
        assert.equal(errorCode((await alice.put('/zones/shape.test', { createPrimaryInfo: { restrictIpList: [{ cidr: '192.0.2.0/24' }, 7] } })).body), 120001)
        assert.deepEqual((await alice.patch('/zones/shape.test', { primaryCreateInfo: { notifyAddresses: ['192.0.2.8'] } })).json(),
          [{ errorCode: 120010, errorMessage: 'The IP \'\' is not valid in notifyAddresses[0].notifyAddress' }])
        assert.deepEqual((await alice.patch('/zones/shape-sec.test', { secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: '192.0.2.1' } } } })).json(),
          [{ errorCode: 53002, errorMessage: 'Invalid primary name server: nameServerIp1' }])
      })

      it('answers JSON Patch bodies with the JSON Patch codes (170003, 170004)', async () => {
        const codes = async (ops: string) => { const res = await raw('PATCH', ops, 'application/json-patch+json'); return [res.statusCode, errorCode(res.body)] }
        assert.deepEqual(await codes('[]'), [400, 170003])
        assert.deepEqual(await codes('{}'), [400, 170003])
        assert.deepEqual(await codes('null'), [400, 170003])
        assert.deepEqual(await codes('[{"path":"/tsig"}]'), [400, 170003])
        assert.deepEqual(await codes('[{"op":"add"}]'), [400, 170003])
        assert.deepEqual(await codes('[{"op":{},"path":"/tsig"}]'), [400, 170003])
        const unsupported = await raw('PATCH', '[{"op":"merge","path":"/tsig","value":null}]', 'application/json-patch+json')
        assert.deepEqual(unsupported.json(), [{ errorCode: 170004, errorMessage: 'Unsupported operation type: merge' }])
        const missing = await raw('PATCH', '[{"op":"add"}]', 'application/json-patch+json')
        assert.deepEqual(missing.json(), [{ errorCode: 170003, errorMessage: 'Invalid JSON patch. Each operation needs "op" and "path": [0].path is required.' }])
      })
    })

    describe('bodies the clients send are accepted', () => {
      // The official Python client (ultra_rest_client.py).
      it('Python create_primary_zone, create_secondary_zone (with TSIG) and edit_secondary_name_server', async () => {
        const primary = await alice.post('/zones', { properties: { name: 'py.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { forceImport: true, createType: 'NEW' } })
        assert.equal(primary.statusCode, 201, primary.body)
        const secondary = await alice.post('/zones', {
          properties: { name: 'py-sec.test', accountName: 'acme', type: 'SECONDARY' },
          secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.53', tsigKey: 'xfr', tsigKeyValue: 'c2VjcmV0c2VjcmV0' } } } }
        })
        assert.equal(secondary.statusCode, 201, secondary.body)
        const edit = await alice.patch('/zones/py-sec.test.', { secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.54' }, nameServerIp2: { ip: '192.0.2.55' }, nameServerIp3: { ip: '192.0.2.56' } } } } })
        assert.equal(edit.statusCode, 200, edit.body)
        assert.deepEqual(Object.keys((await alice.get('/zones/py-sec.test')).json().primaryNameServers.nameServerIpList), ['nameServerIp1', 'nameServerIp2', 'nameServerIp3'])
      })

      it('Python create_primary_zone_by_axfr reaches the use case (TRANSFER is not available in this app)', async () => {
        const res = await alice.post('/zones', {
          properties: { name: 'axfr.test', accountName: 'acme', type: 'PRIMARY' },
          primaryCreateInfo: { forceImport: true, createType: 'TRANSFER', nameServer: { ip: '192.0.2.53', tsigKey: 'xfr', tsigKeyValue: 'c2VjcmV0c2VjcmV0' } }
        })
        assert.deepEqual(res.json(), [{ errorCode: 53004, errorMessage: 'Invalid primary zone create type. TRANSFER is not available.' }])
      })

      it('convert takes the Zone API DTOs the spec allows there, and a comment', async () => {
        assert.equal((await alice.post('/zones', { properties: { name: 'conv.test', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: SECONDARY_SERVERS } })).statusCode, 201)
        const res = await alice.post('/zones/conv.test/convert', { properties: { name: 'conv.test', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' }, changeComment: 'now primary' })
        assert.equal(res.statusCode, 201, res.body)
        assert.ok((await t.store.audit.recent(100, 'CONVERT')).some(r => r.object === 'conv.test.' && r.change_comment === 'now primary'))
      })

      it('Python convert_zone and force_axfr: POST without a body, Content-Type application/json', async () => {
        const transfer = await alice.send('POST', '/v1/zones/py-sec.test./transfer', undefined, { 'content-type': 'application/json' })
        assert.equal(transfer.statusCode, 200, transfer.body)
        const convert = await alice.send('POST', '/v1/zones/py-sec.test./convert', undefined, { 'content-type': 'application/json' })
        assert.equal(convert.statusCode, 201, convert.body)
      })

      // octodns-ultra 1.1.3 (octodns_ultra/__init__.py).
      it('octodns-ultra _create_zone and the valimailMonitor PATCH', async () => {
        const created = await alice.post('/zones', { properties: { name: 'octo.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW', valimailMonitor: false } })
        assert.equal(created.statusCode, 201, created.body)
        const patched = await alice.patch('/zones/octo.test.', { primaryCreateInfo: { valimailMonitor: true } })
        assert.equal(patched.statusCode, 200, patched.body)
      })

      // The Go SDK's zone structures (reference notes §7) and the real API's examples.
      it('Go SDK primary with forceImport, inherit and every restrict form; secondary with notificationEmailAddress and allowUnresponsiveNS', async () => {
        const primary = await alice.post('/zones', {
          properties: { name: 'go.test', accountName: 'acme', type: 'PRIMARY' },
          primaryCreateInfo: {
            forceImport: false,
            createType: 'NEW',
            inherit: 'ALL',
            restrictIPList: [{ startIP: '192.0.2.1', endIP: '192.0.2.9', comment: 'range' }, { cidr: '198.51.100.0/24' }, { singleIP: '2001:db8::1' }],
            tsig: { tsigKeyName: 'go-key', tsigKeyValue: 'c2VjcmV0c2VjcmV0', tsigAlgorithm: 'hmac-sha512', description: 'go' },
            notifyAddresses: [{ notifyAddress: '192.0.2.10', description: 'east' }]
          },
          changeComment: 'from terraform'
        })
        assert.equal(primary.statusCode, 201, primary.body)
        const secondary = await alice.post('/zones', {
          properties: { name: 'go-sec.test', accountName: 'acme', type: 'SECONDARY' },
          secondaryCreateInfo: { primaryNameServers: SECONDARY_SERVERS, notificationEmailAddress: 'ops@example.org', allowUnresponsiveNS: true }
        })
        assert.equal(secondary.statusCode, 201, secondary.body)
        assert.equal((await alice.get('/zones/go-sec.test')).json().notificationEmailAddress, 'ops@example.org')
      })

      it('an update that sends the zone back whole (properties as GET shows them, the create fields) is accepted', async () => {
        const zone = (await alice.get('/zones/go.test')).json()
        const res = await alice.put('/zones/go.test', {
          properties: zone.properties,
          primaryCreateInfo: { forceImport: true, createType: 'NEW', restrictIPList: zone.restrictIpList, tsig: zone.tsig, notifyAddresses: zone.notifyAddresses, inherit: 'ALL' },
          changeComment: null
        })
        assert.equal(res.statusCode, 200, res.body)
        assert.deepEqual((await alice.get('/zones/go.test')).json().restrictIpList, zone.restrictIpList)
      })

      it('null clears a section on PATCH (tsig) and is no comment', async () => {
        const res = await alice.patch('/zones/go.test', { primaryCreateInfo: { tsig: null }, changeComment: null })
        assert.equal(res.statusCode, 200, res.body)
        assert.equal((await alice.get('/zones/go.test')).json().tsig, undefined)
      })

      it('an alias and the optional {changeComment} of suspend, unalias and delete', async () => {
        assert.equal((await alice.post('/zones', { properties: { name: 'go-alias.test', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'go.test.' }, changeComment: 'alias' })).statusCode, 201)
        assert.equal((await alice.post('/zones/go-alias.test/unalias', { changeComment: 'split' })).statusCode, 200)
        assert.equal((await alice.post('/zones/go-alias.test/suspend', {})).statusCode, 200)
        // A Go client encoding a nil pointer sends `null`: no body.
        const nullBody = await alice.send('DELETE', '/zones/go-alias.test', 'null', { 'content-type': 'application/json' })
        assert.equal(nullBody.statusCode, 204, nullBody.body)
        const bogus = await alice.delete('/zones/go.test', { comment: 'typo' })
        assert.deepEqual(bogus.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: comment is not a known field' }])
        assert.equal((await alice.get('/zones/go.test')).statusCode, 200)
      })
    })
  })
}
