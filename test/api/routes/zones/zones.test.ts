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
  'www IN CNAME ns1',
  'txt IN TXT "hello world"',
  ''
].join('\n')

for (const engine of await engineCases()) {
  describe(`${engine.name}: zone operations`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: ReturnType<typeof client>
    let reader: ReturnType<typeof client>
    let mallory: ReturnType<typeof client>

    before(async () => {
      t = await buildTestApp(engine.name)
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
      reader = client(t.app, await t.user('rita', 'acme', 'ReadOnly'))
      mallory = client(t.app, await t.user('mallory', 'other', 'Owner'))
    })
    after(async () => { await t.close() })

    const audits = async (changeType: string) => (await t.store.audit.recent(500, changeType)).map(r => ({ ...r, detail: JSON.parse(r.detail) }))

    describe('POST /zones', () => {
      it('requires properties (55001 "properties is required field.")', async () => {
        const res = await alice.post('/zones', {})
        assert.equal(res.statusCode, 400)
        assert.deepEqual(res.json(), [{ errorCode: 55001, errorMessage: 'properties is required field.' }])
      })

      it('requires name, type and the primary section, and refuses bad values', async () => {
        assert.equal(errorCode((await alice.post('/zones', { properties: { type: 'PRIMARY' } })).body), 55001)
        assert.equal(errorCode((await alice.post('/zones', { properties: { name: 'a.test' } })).body), 55001)
        assert.equal(errorCode((await alice.post('/zones', { properties: { name: 'a.test', type: 'TERTIARY' } })).body), 53001)
        assert.equal(errorCode((await alice.post('/zones', { properties: { name: 'a..test', type: 'PRIMARY' } })).body), 2507)
        assert.equal(errorCode((await alice.post('/zones', { properties: { name: 'a.test', type: 'PRIMARY' } })).body), 55001)
        assert.equal(errorCode((await alice.post('/zones', { properties: { name: 'a.test', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'CLONE' } })).body), 53004)
        assert.equal(errorCode((await alice.post('/zones', { properties: { name: 'a.test', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'TRANSFER' } })).body), 53004)
        const long = await alice.newPrimary('a.test', 'acme', {})
        assert.equal(long.statusCode, 201)
        const comment = await alice.post('/zones', { properties: { name: 'b.test', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' }, changeComment: 'x'.repeat(513) })
        assert.equal(errorCode(comment.body), 53005)
      })

      it('creates a NEW primary with SOA and NS, answering 201 with a Location, with or without the trailing dot', async () => {
        const res = await alice.newPrimary('Example.ORG', 'acme')
        assert.equal(res.statusCode, 201)
        assert.deepEqual(res.json(), { message: 'Successful' })
        assert.match(String(res.headers.location), /\/v3\/zones\/example\.org\.$/)
        const zone = (await alice.get('/zones/example.org.')).json()
        assert.equal(zone.properties.name, 'example.org.')
        assert.equal(zone.properties.type, 'PRIMARY')
        assert.equal(zone.properties.status, 'ACTIVE')
        assert.equal(zone.properties.recordCount, 3)
        assert.match(zone.properties.lastModifiedDateTime, /^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/)
        assert.equal(zone.properties.mailMonitor, false)
        assert.deepEqual(zone.registrarInfo, { nameServers: { ok: ['ns1.zonal.test.', 'ns2.zonal.test.'], missing: [], incorrect: [] } })
        const [add] = (await audits('ADD')).filter(r => r.object === 'example.org.')
        assert.equal(add?.object_type, 'ZONE')
        assert.equal(add?.user_name, 'alice')
        assert.equal(add?.account_name, 'acme')
      })

      it('refuses an existing zone with 1802, also when another account holds it', async () => {
        assert.equal(errorCode((await alice.newPrimary('example.org', 'acme')).body), 1802)
        assert.equal(errorCode((await mallory.newPrimary('example.org', 'other')).body), 1802)
      })

      it('refuses accounts the caller may not create zones in', async () => {
        assert.equal((await alice.newPrimary('c.test', 'other')).statusCode, 403)
        assert.equal((await reader.newPrimary('c.test', 'acme')).statusCode, 403)
      })

      it('copies a primary (records renamed, serial restarted) and refuses a copy of a non-primary', async () => {
        await alice.upload({ properties: { name: 'source.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, ZONE_FILE)
        const res = await alice.post('/zones', { properties: { name: 'copy.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'COPY', originalZoneName: 'source.test' } })
        assert.equal(res.statusCode, 201, res.body)
        const copy = (await alice.get('/zones/copy.test')).json()
        assert.equal(copy.properties.recordCount, 5)
        // The copy's apex NS is the source's, renamed: not one of this service's name servers.
        assert.deepEqual(copy.registrarInfo.nameServers, { ok: [], missing: ['ns1.zonal.test.', 'ns2.zonal.test.'], incorrect: ['ns1.copy.test.'] })
        const missing = await alice.post('/zones', { properties: { name: 'copy2.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'COPY', originalZoneName: 'nothing.test' } })
        assert.equal(errorCode(missing.body), 53001)
      })

      it('uploads a BIND file as multipart (zone and file parts)', async () => {
        const res = await alice.upload({ properties: { name: 'up.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, ZONE_FILE)
        assert.equal(res.statusCode, 201, res.body)
        assert.equal((await alice.get('/zones/up.test')).json().properties.recordCount, 5)
      })

      it('answers every problem of a bad upload with its line, and leaves no zone behind', async () => {
        const bad = ZONE_FILE + 'a IN A 192.0.2.999\nb IN MX\n$INCLUDE /etc/passwd\n'
        const res = await alice.upload({ properties: { name: 'bad.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, bad)
        assert.equal(res.statusCode, 400)
        const messages = (res.json() as { errorMessage: string }[]).map(e => e.errorMessage)
        assert.equal(messages.length, 3)
        assert.match(messages[0]!, /^Invalid input: line 7: ZONEFILE_BAD_RDATA/)
        assert.match(messages[1]!, /^Invalid input: line 8: ZONEFILE_BAD_RDATA/)
        assert.match(messages[2]!, /^Invalid input: line 9: ZONEFILE_INCLUDE_REFUSED/)
        assert.equal((await alice.get('/zones/bad.test')).statusCode, 404)
        const checks = await alice.upload({ properties: { name: 'bad.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, '$TTL 60\n@ IN NS ns1.example.net.\n')
        assert.match(checks.json()[0].errorMessage, /ZONE_SOA_MISSING/)
        const noFile = await alice.upload({ properties: { name: 'bad.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, undefined)
        assert.deepEqual(noFile.json(), [{ errorCode: 70009, errorMessage: 'One file must be specified: json or file' }])
      })

      it('creates a secondary with its primary name servers, the TSIG secret shown only to writers', async () => {
        const res = await alice.post('/zones', {
          properties: { name: 'sec.test', accountName: 'acme', type: 'SECONDARY' },
          secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.53', tsigKey: 'xfr', tsigKeyValue: 'c2VjcmV0c2VjcmV0', tsigAlgorithm: 'hmac-sha256' } } } }
        })
        assert.equal(res.statusCode, 201, res.body)
        const mine = (await alice.get('/zones/sec.test')).json()
        assert.deepEqual(mine.primaryNameServers.nameServerIpList.nameServerIp1, { ip: '192.0.2.53', tsigKey: 'xfr.', tsigKeyValue: 'c2VjcmV0c2VjcmV0', tsigAlgorithm: 'hmac-sha256' })
        assert.equal(mine.properties.type, 'SECONDARY')
        const theirs = (await reader.get('/zones/sec.test')).json()
        assert.equal(theirs.primaryNameServers.nameServerIpList.nameServerIp1.tsigKeyValue, '<TSIG_KEY_VALUE>')
        const bad = await alice.post('/zones', { properties: { name: 'sec2.test', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: 'not-an-ip' } } } } })
        assert.equal(errorCode(bad.body), 53002)
        const none = await alice.post('/zones', { properties: { name: 'sec2.test', type: 'SECONDARY' }, secondaryCreateInfo: {} })
        assert.equal(errorCode(none.body), 55001)
      })

      it('creates an alias of a primary of the same account, and refuses other originals', async () => {
        const res = await alice.post('/zones', { properties: { name: 'alias.test', accountName: 'acme', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'up.test.' } })
        assert.equal(res.statusCode, 201, res.body)
        const alias = (await alice.get('/zones/alias.test')).json()
        assert.equal(alias.originalZoneName, 'up.test.')
        assert.equal(alias.properties.recordCount, 5)
        assert.equal(errorCode((await alice.post('/zones', { properties: { name: 'alias2.test', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'sec.test' } })).body), 53001)
        assert.equal(errorCode((await alice.post('/zones', { properties: { name: 'alias2.test', type: 'ALIAS' }, aliasCreateInfo: {} })).body), 55001)
      })

      it('validates the transfer settings with the real codes', async () => {
        const cases: [Record<string, unknown>, number][] = [
          [{ restrictIPList: [{ comment: 'nothing' }] }, 120001],
          [{ restrictIPList: [{ cidr: '192.0.2.0/33' }] }, 120002],
          [{ restrictIPList: [{ startIP: '192.0.2.1', endIP: '2001:db8::1' }] }, 120003],
          [{ restrictIPList: [{ startIP: '192.0.2.9', endIP: '192.0.2.1' }] }, 120004],
          [{ tsig: { tsigKeyName: 'a..b', tsigKeyValue: 'AAAA' } }, 120006],
          [{ tsig: { tsigKeyName: 'k', tsigKeyValue: 'not base64!' } }, 120007],
          [{ restrictIPList: [{ singleIP: '300.1.1.1' }] }, 120009],
          [{ notifyAddresses: [{ notifyAddress: 'nowhere' }] }, 120010]
        ]
        for (const [section, code] of cases) {
          assert.equal(errorCode((await alice.newPrimary('v.test', 'acme', section)).body), code, JSON.stringify(section))
        }
      })
    })

    describe('GET /zones/{zoneName}', () => {
      it('answers 1801 for a missing zone and for another account\'s zone', async () => {
        const missing = await alice.get('/zones/nothing.test')
        assert.equal(missing.statusCode, 404)
        assert.deepEqual(missing.json(), [{ errorCode: 1801, errorMessage: 'Zone does not exist in the system.' }])
        assert.equal(errorCode((await mallory.get('/zones/example.org')).body), 1801)
      })

      it('answers under every version prefix and with %2F in the name', async () => {
        await alice.newPrimary('0/25.2.0.192.in-addr.arpa', 'acme')
        for (const url of ['/zones/0%2F25.2.0.192.in-addr.arpa', '/v1/zones/0%2F25.2.0.192.in-addr.arpa.', '/v3/zones/0%2f25.2.0.192.in-addr.arpa/']) {
          const res = await alice.get(url)
          assert.equal(res.statusCode, 200, url)
          assert.equal(res.json().properties.name, '0/25.2.0.192.in-addr.arpa.')
        }
      })
    })

    describe('PUT and PATCH /zones/{zoneName}', () => {
      it('PUT replaces the primary section: what is left out is deleted', async () => {
        await alice.put('/zones/example.org', { primaryCreateInfo: { restrictIPList: [{ cidr: '192.0.2.0/24', comment: 'lan' }], notifyAddresses: [{ notifyAddress: '192.0.2.7', description: 'sec' }], tsig: { tsigKeyName: 'k1', tsigKeyValue: 'c2VjcmV0', tsigAlgorithm: 'hmac-sha512' } } })
        let zone = (await alice.get('/zones/example.org')).json()
        assert.deepEqual(zone.restrictIpList, [{ startIP: '192.0.2.0', endIP: '192.0.2.255', comment: 'lan' }])
        assert.equal(zone.tsig.tsigKeyValue, 'c2VjcmV0')
        assert.equal((await reader.get('/zones/example.org')).json().tsig.tsigKeyValue, '<TSIG_KEY_VALUE>')
        const res = await alice.put('/zones/example.org', { createPrimaryInfo: { notifyAddresses: [{ notifyAddress: '2001:db8::7' }] }, changeComment: 'only notify' })
        assert.equal(res.statusCode, 200)
        zone = (await alice.get('/zones/example.org')).json()
        assert.deepEqual(zone.restrictIpList, [])
        assert.equal(zone.tsig, undefined)
        assert.deepEqual(zone.notifyAddresses, [{ notifyAddress: '2001:db8::7', description: '' }])
        const [modify] = (await audits('MODIFY')).filter(r => r.change_comment === 'only notify')
        assert.ok(modify?.detail.changes.some((c: { name: string }) => c.name === 'tsig'))
        assert.ok(!JSON.stringify(modify?.detail).includes('c2VjcmV0'), 'no secret in the audit log')
      })

      it('PATCH merges: what is left out is kept', async () => {
        await alice.patch('/zones/example.org', { primaryCreateInfo: { restrictIPList: [{ startIP: '198.51.100.1', endIP: '198.51.100.9' }] } })
        const zone = (await alice.get('/zones/example.org')).json()
        assert.deepEqual(zone.notifyAddresses, [{ notifyAddress: '2001:db8::7', description: '' }])
        assert.deepEqual(zone.restrictIpList, [{ startIP: '198.51.100.1', endIP: '198.51.100.9', comment: '' }])
      })

      it('applies JSON Patch, including paths into lists', async () => {
        const res = await alice.jsonPatch('/zones/example.org', [
          { op: 'replace', path: '/restrictIpList/0/endIP', value: '198.51.100.200' },
          { op: 'add', path: '/notifyAddresses/-', value: { notifyAddress: '192.0.2.99', description: 'new' } }
        ])
        assert.equal(res.statusCode, 200, res.body)
        const zone = (await alice.get('/zones/example.org')).json()
        assert.equal(zone.restrictIpList[0].endIP, '198.51.100.200')
        assert.equal(zone.notifyAddresses.length, 2)
        assert.equal(errorCode((await alice.jsonPatch('/zones/example.org', [{ op: 'frobnicate', path: '/tsig' }])).body), 170004)
        assert.equal(errorCode((await alice.jsonPatch('/zones/example.org', [{ op: 'replace', path: '/properties/name', value: 'x' }])).body), 170001)
        assert.equal(errorCode((await alice.jsonPatch('/zones/example.org', [{ op: 'replace', path: '/restrictIpList/9/endIP', value: '1.1.1.1' }])).body), 170001)
        assert.equal(errorCode((await alice.jsonPatch('/zones/example.org', {})).body), 170003)
        assert.equal(errorCode((await alice.jsonPatch('/zones/example.org', [{ op: 'replace', path: '/restrictIpList/0/endIP', value: '1.1.1.1' }])).body), 120004)
      })

      it('refuses the other type\'s section, alias zones (230000), readers and other accounts', async () => {
        assert.equal(errorCode((await alice.put('/zones/example.org', { secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.1' } } } } })).body), 53005)
        assert.equal(errorCode((await alice.patch('/zones/sec.test', { primaryCreateInfo: { tsig: { tsigKeyName: 'k', tsigKeyValue: 'AAAA' } } })).body), 53005)
        assert.deepEqual((await alice.put('/zones/alias.test', {})).json(), [{ errorCode: 230000, errorMessage: 'Alias zone cannot be updated' }])
        assert.equal((await reader.patch('/zones/example.org', {})).statusCode, 403)
        assert.equal(errorCode((await mallory.patch('/zones/example.org', {})).body), 1801)
      })

      it('updates the primary name servers of a secondary and its notification address', async () => {
        const res = await alice.patch('/zones/sec.test', { secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.54:5353' }, nameServerIp2: { ip: '[2001:db8::53]:53' } } }, notificationEmailAddress: 'ops@example.org' } })
        assert.equal(res.statusCode, 200, res.body)
        const zone = (await alice.get('/zones/sec.test')).json()
        assert.deepEqual(Object.keys(zone.primaryNameServers.nameServerIpList), ['nameServerIp1', 'nameServerIp2'])
        assert.equal(zone.notificationEmailAddress, 'ops@example.org')
      })
    })

    describe('DELETE /zones/{zoneName}', () => {
      it('refuses a primary that has aliases, readers and other accounts', async () => {
        assert.equal(errorCode((await alice.delete('/zones/up.test')).body), 1811)
        assert.equal((await reader.delete('/zones/copy.test')).statusCode, 403)
        assert.equal(errorCode((await mallory.delete('/zones/copy.test')).body), 1801)
      })

      it('deletes with 204 and records the comment', async () => {
        const res = await alice.delete('/zones/copy.test', { changeComment: 'gone' })
        assert.equal(res.statusCode, 204)
        assert.equal(res.body, '')
        assert.equal((await alice.get('/zones/copy.test')).statusCode, 404)
        assert.ok((await audits('DELETE')).some(r => r.object === 'copy.test.' && r.change_comment === 'gone'))
      })
    })

    describe('isolation', () => {
      it('answers 1801 for every operation on another account\'s zone, and changes nothing', async () => {
        await alice.newPrimary('private.test', 'acme')
        await alice.post('/zones', { properties: { name: 'private-sec.test', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.1' } } } } })
        await alice.post('/zones', { properties: { name: 'private-alias.test', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'private.test' } })
        const attempts = [
          await mallory.get('/zones/private.test'),
          await mallory.put('/zones/private.test', {}),
          await mallory.patch('/zones/private.test', {}),
          await mallory.jsonPatch('/zones/private.test', [{ op: 'add', path: '/notifyAddresses/-', value: { notifyAddress: '192.0.2.1' } }]),
          await mallory.delete('/zones/private.test'),
          await mallory.post('/zones/private-sec.test/convert'),
          await mallory.post('/zones/private-alias.test/unalias'),
          await mallory.post('/zones/private.test/suspend'),
          await mallory.post('/zones', { properties: { name: 'steal.test', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'COPY', originalZoneName: 'private.test' } }),
          await mallory.post('/zones', { properties: { name: 'steal.test', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'private.test' } })
        ]
        assert.deepEqual(attempts.map(r => errorCode(r.body)), [1801, 1801, 1801, 1801, 1801, 1801, 1801, 1801, 53001, 53001])
        const zone = (await alice.get('/zones/private.test')).json()
        assert.equal(zone.properties.status, 'ACTIVE')
        assert.deepEqual(zone.notifyAddresses, [])
        assert.equal((await alice.get('/zones/private-sec.test')).json().properties.type, 'SECONDARY')
      })
    })

    describe('POST /zones/{zoneName}/unalias, convert and suspend', () => {
      it('unalias copies the primary\'s data into an independent primary', async () => {
        assert.equal(errorCode((await alice.post('/zones/example.org/unalias')).body), 150014)
        const res = await alice.post('/zones/alias.test/unalias', { changeComment: 'split' })
        assert.equal(res.statusCode, 200)
        const zone = (await alice.get('/zones/alias.test')).json()
        assert.equal(zone.properties.type, 'PRIMARY')
        assert.equal(zone.properties.recordCount, 5)
        assert.deepEqual(zone.registrarInfo.nameServers.incorrect, ['ns1.alias.test.'])
        assert.equal((await alice.delete('/zones/up.test')).statusCode, 204)
        assert.equal((await alice.get('/zones/alias.test')).json().properties.recordCount, 5)
        assert.ok((await audits('UNALIAS')).some(r => r.object === 'alias.test.'))
      })

      it('converts a secondary to a primary and refuses other types', async () => {
        assert.equal(errorCode((await alice.post('/zones/example.org/convert')).body), 150014)
        assert.equal(errorCode((await alice.post('/zones/nothing.test/convert')).body), 1801)
        const res = await alice.post('/zones/sec.test/convert')
        assert.equal(res.statusCode, 201)
        const zone = (await alice.get('/zones/sec.test')).json()
        assert.equal(zone.properties.type, 'PRIMARY')
        assert.equal(zone.primaryNameServers, undefined)
        assert.ok((await audits('CONVERT')).some(r => r.object === 'sec.test.'))
      })

      it('suspends for administrators only, once; GET still works, updates are refused', async () => {
        assert.equal((await reader.post('/zones/example.org/suspend')).statusCode, 403)
        const res = await alice.post('/zones/example.org/suspend', { changeComment: 'abuse' })
        assert.equal(res.statusCode, 200)
        assert.deepEqual(res.json(), { message: 'Successful' })
        assert.equal(errorCode((await alice.post('/zones/example.org/suspend')).body), 1814)
        assert.equal((await alice.get('/zones/example.org')).json().properties.status, 'SUSPENDED')
        assert.equal(errorCode((await alice.put('/zones/example.org', {})).body), 1813)
        assert.equal(errorCode((await mallory.post('/zones/example.org/suspend')).body), 1801)
        assert.ok((await audits('SUSPEND')).some(r => r.object === 'example.org.' && r.change_comment === 'abuse'))
      })

      it('refuses to unalias a suspended alias (59006)', async () => {
        await alice.post('/zones', { properties: { name: 'alias3.test', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'alias.test' } })
        await alice.post('/zones/alias3.test/suspend')
        assert.equal(errorCode((await alice.post('/zones/alias3.test/unalias')).body), 59006)
      })
    })
  })
}

describe('sqlite: large zone uploads run as a task', () => {
  it('answers 202 with X-Task-Id and the task creates the zone; a bad large file ends ERROR with every problem and no zone', async () => {
    const { TaskRunner } = await import('../../../../src/tasks/runner.ts')
    const { taskHandlers } = await import('../../../../src/tasks/jobs/index.ts')
    let runner: InstanceType<typeof TaskRunner> | undefined
    const t = await buildTestApp('sqlite', { bodyLimit: 8 << 20, tasks: (store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'upload-test', pollMs: 20 })) })
    try {
      runner!.start()
      const alice = client(t.app, await t.user('alice', 'acme'))
      let big = ZONE_FILE
      for (let i = 0; big.length <= 600 * 1024; i++) big += `host${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}\n`
      const res = await alice.upload({ properties: { name: 'big.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, big)
      assert.equal(res.statusCode, 202, res.body)
      assert.deepEqual(res.json(), { message: 'Pending' })
      const waitFor = async (id: string) => {
        for (let i = 0; i < 500; i++) {
          const task = (await alice.get(`/tasks/${id}`)).json()
          if (task.code === 'COMPLETE' || task.code === 'ERROR') return task
          await new Promise(resolve => setTimeout(resolve, 20))
        }
        throw new Error('task did not finish')
      }
      const done = await waitFor(String(res.headers['x-task-id']))
      assert.equal(done.code, 'COMPLETE', done.message)
      const lines = big.trim().split('\n').length - 1
      assert.equal((await alice.get('/zones/big.test')).json().properties.recordCount, lines)
      const bad = await alice.upload({ properties: { name: 'bigbad.test', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, big + 'x IN A 1.2.3\ny IN MX\n')
      const failed = await waitFor(String(bad.headers['x-task-id']))
      assert.equal(failed.code, 'ERROR')
      assert.match(failed.message, /ZONEFILE_BAD_RDATA.*; .*ZONEFILE_BAD_RDATA/)
      assert.equal((await alice.get('/zones/bigbad.test')).statusCode, 404)
    } finally {
      await runner?.stop()
      await t.close()
    }
  })
})
