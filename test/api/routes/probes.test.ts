/**
 * Probes of SB and TC pools through the API (`/zones/{zone}/rrsets/{type}/{owner}/probes`), on
 * both engines: create (pool and record level), list with q, get, replace, merge, delete, an
 * audit record per change, and the errors: PING and SMTP_SEND refused, agents and threshold
 * rules, details checked, pools of other kinds, records not in the pool, unknown probes, other
 * accounts' zones, and no token; a pool deleted or turned into another kind takes its probes along.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { engineCases } from '../../helpers/engines.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'

const SB = {
  ttl: 60,
  rdata: ['127.0.0.2', '127.0.0.3'],
  profile: { '@context': 'http://schemas.ultradns.com/SBPool.jsonschema', rdataInfo: [{ priority: 1 }, { priority: 2 }], backupRecords: [{ rdata: '127.0.0.9' }] }
}
const HTTP_PROBE = {
  type: 'HTTP',
  interval: 'ONE_MINUTE',
  agents: ['NEW_YORK', 'DALLAS'],
  threshold: 2,
  headers: { 'X-Probe': ['a'] },
  details: { transactions: [{ method: 'GET', url: 'http://www.example.org/health', expectedResponse: '2XX|3XX', limits: { connect: { fail: 5 }, searchString: { fail: 'ok' } } }] }
}
const BASE = '/zones/example.org./rrsets/A/sb/probes'

for (const engine of await engineCases()) {
  describe(`${engine.name}: ${BASE}`, { skip: engine.skip }, () => {
    let t: TestApp
    let token: string
    let other: string

    before(async () => {
      t = await buildTestApp(engine.name)
      token = await t.user('alice', 'acme')
      other = await t.user('bob', 'globex')
      const send = async (method: 'POST', url: string, payload: unknown): Promise<void> => {
        const res = await t.app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${token}` } })
        assert.ok(res.statusCode < 300, res.body)
      }
      await send('POST', '/zones', { properties: { name: 'example.org.', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
      await send('POST', '/zones/example.org./rrsets/A/sb', SB)
      await send('POST', '/zones/example.org./rrsets/A/rd', { ttl: 60, rdata: ['192.0.2.1', '192.0.2.2'], profile: { '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: 'FIXED' } })
    })
    after(async () => { await t?.close() })

    const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, auth = token) => await t.app.inject({
      method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers: auth === '' ? {} : { authorization: `Bearer ${auth}` }
    })
    const error = (res: { json: () => unknown }): [number, string] => {
      const e = (res.json() as Array<{ errorCode: number, errorMessage: string }>)[0]!
      return [e.errorCode, e.errorMessage]
    }

    it('creates pool- and record-level probes, lists, reads, changes and deletes them', async () => {
      const created = await call('POST', BASE, HTTP_PROBE)
      assert.equal(created.statusCode, 201, created.body)
      const id = (created.json() as { id: string }).id
      assert.match(id, /^[0-9A-F]{16}$/)
      assert.ok(String(created.headers.location).endsWith(`/zones/example.org./rrsets/A/sb.example.org./probes/${id}`), String(created.headers.location))
      const tcp = await call('POST', '/zones/example.org/rrsets/A/sb.example.org./probes', { type: 'TCP', poolRecord: '127.0.0.3', agents: ['EUROPE_WEST'], threshold: 1, details: { port: 8443 } })
      assert.equal(tcp.statusCode, 201, tcp.body)
      const tcpId = (tcp.json() as { id: string }).id

      const got = await call('GET', `${BASE}/${id}`)
      assert.equal(got.statusCode, 200, got.body)
      assert.deepEqual(got.json(), { id, type: 'HTTP', interval: 'ONE_MINUTE', agents: ['NEW_YORK', 'DALLAS'], threshold: 2, headers: { 'X-Probe': ['a'] }, details: HTTP_PROBE.details })

      const list = async (q = ''): Promise<unknown[]> => ((await call('GET', `${BASE}${q === '' ? '' : `?q=${encodeURIComponent(q)}`}`)).json() as { probes: Array<{ id: string }> }).probes.map(p => p.id)
      assert.deepEqual(await list(), [id, tcpId])
      assert.deepEqual(await list('type:POOL'), [id])
      assert.deepEqual(await list('type:RECORD'), [tcpId])
      assert.deepEqual(await list('poolRecord:127.0.0.3'), [tcpId])
      const listed = (await call('GET', BASE)).json() as { queryInfo: unknown, resultInfo: unknown }
      assert.deepEqual(listed.resultInfo, { totalCount: 2, offset: 0, returnedCount: 2 })

      const patched = await call('PATCH', `${BASE}/${tcpId}`, { interval: 'HALF_MINUTE', details: { port: 9443 } })
      assert.equal(patched.statusCode, 200, patched.body)
      assert.deepEqual((await call('GET', `${BASE}/${tcpId}`)).json(), { id: tcpId, poolRecord: '127.0.0.3', type: 'TCP', interval: 'HALF_MINUTE', agents: ['EUROPE_WEST'], threshold: 1, details: { port: 9443 } })
      const replaced = await call('PUT', `${BASE}/${tcpId}`, { type: 'DNS', agents: ['ASIA'], threshold: 1, details: { type: 'A', ownerName: 'www.example.org.' } })
      assert.equal(replaced.statusCode, 200, replaced.body)
      const dns = (await call('GET', `${BASE}/${tcpId}`)).json() as Record<string, unknown>
      assert.deepEqual([dns.type, dns.interval, dns.poolRecord], ['DNS', 'FIVE_MINUTES', '127.0.0.3'])

      assert.equal((await call('DELETE', `${BASE}/${tcpId}`)).statusCode, 204)
      assert.deepEqual(error(await call('GET', `${BASE}/${tcpId}`)), [130002, 'The requested Pool Probe does not belong to the Pool for the specified zone and owner.'])
      assert.equal((await call('DELETE', `${BASE}/${tcpId}`)).statusCode, 404)
      const audit = (await t.store.audit.recent(20)).filter(r => r.object_type === 'PROBE').map(r => [r.change_type, r.object])
      assert.deepEqual(audit.sort(), [['ADD', id], ['ADD', tcpId], ['DELETE', tcpId], ['MODIFY', tcpId], ['MODIFY', tcpId]].sort())
    })

    it('refuses PING and SMTP_SEND, saying why', async () => {
      const ping = await call('POST', BASE, { type: 'PING', agents: ['ASIA'], threshold: 1, details: {} })
      assert.equal(ping.statusCode, 400)
      assert.match(error(ping)[1], /ICMP/)
      const send = await call('POST', BASE, { type: 'SMTP_SEND', agents: ['ASIA'], threshold: 1, details: {} })
      assert.equal(send.statusCode, 400)
      assert.match(error(send)[1], /send mail/)
    })

    it('checks agents, threshold, interval and details', async () => {
      assert.deepEqual(error(await call('POST', BASE, { ...HTTP_PROBE, agents: [] })), [53006, 'Agents must not be empty.'])
      assert.deepEqual(error(await call('POST', BASE, { ...HTTP_PROBE, agents: ['MARS'] })), [130016, 'Agent \'MARS\' is not valid for account \'acme\'.'])
      assert.deepEqual(error(await call('POST', BASE, { ...HTTP_PROBE, threshold: 3 })), [130010, 'Threshold can not be 0 or greater than number of agents.'])
      assert.deepEqual(error(await call('POST', BASE, { ...HTTP_PROBE, threshold: 0 })), [130010, 'Threshold can not be 0 or greater than number of agents.'])
      assert.equal(error(await call('POST', BASE, { ...HTTP_PROBE, interval: 'TEN_SECONDS' }))[0], 53005)
      assert.equal(error(await call('POST', BASE, { ...HTTP_PROBE, details: { transactions: [{ method: 'GET', url: 'http://x.example/', expectedResponse: '2XX|999' }] } }))[0], 130017)
      assert.equal(error(await call('POST', BASE, { ...HTTP_PROBE, details: { transactions: [{ method: 'GET', url: 'ftp://x.example/' }] } }))[0], 130012)
      assert.equal(error(await call('POST', BASE, { ...HTTP_PROBE, headers: { Host: ['x'] } }))[0], 130012)
      assert.equal(error(await call('POST', BASE, { type: 'TCP', agents: ['ASIA'], threshold: 1, details: { port: 70000 } }))[0], 130012)
      assert.equal(error(await call('POST', BASE, { type: 'TCP', agents: ['ASIA'], threshold: 1, details: {} }))[0], 130012)
      assert.equal(error(await call('POST', BASE, { type: 'DNS', agents: ['ASIA'], threshold: 1, details: { type: 'AXFR' } }))[0], 130012)
      assert.deepEqual(error(await call('POST', BASE, { ...HTTP_PROBE, poolRecord: '127.0.0.8' })), [110013, 'Cannot find SB or TC pool record for the given owner. (127.0.0.8)'])
      assert.equal((await call('GET', BASE)).json().probes.length, 1, 'nothing was stored')
    })

    it('answers for SB and TC pools only, in zones the caller can see', async () => {
      assert.deepEqual(error(await call('POST', '/zones/example.org./rrsets/A/rd/probes', HTTP_PROBE)).slice(0, 1), [130014])
      assert.equal((await call('GET', '/zones/example.org./rrsets/A/nothing/probes')).statusCode, 404)
      assert.deepEqual(error(await call('GET', BASE, undefined, other)), [1801, 'Zone does not exist in the system.'])
      assert.equal((await call('GET', BASE, undefined, '')).statusCode, 401)
      assert.equal((await call('GET', `${BASE}/0000000000000000`)).statusCode, 404)
    })

    it('forgets the probes of a pool deleted or turned into another kind', async () => {
      assert.equal((await call('GET', BASE)).json().probes.length, 1)
      assert.equal((await call('DELETE', '/zones/example.org./rrsets/A/sb')).statusCode, 204)
      assert.equal((await call('POST', '/zones/example.org./rrsets/A/sb', SB)).statusCode, 201)
      assert.deepEqual((await call('GET', BASE)).json().probes, [], 'a new pool at the owner starts without the old probes')
      assert.equal((await call('POST', BASE, HTTP_PROBE)).statusCode, 201)
      const rd = { ttl: 60, rdata: SB.rdata, profile: { '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: 'FIXED' } }
      assert.equal((await call('PUT', '/zones/example.org./rrsets/A/sb', rd)).statusCode, 200)
      assert.equal((await call('PUT', '/zones/example.org./rrsets/A/sb', SB)).statusCode, 200)
      assert.deepEqual((await call('GET', BASE)).json().probes, [])
    })
  })
}
