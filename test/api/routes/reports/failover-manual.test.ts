/**
 * Forced states are failover events (reason Manual), on both engines: forcing an SB record
 * inactive and back, and an SF live record inactive (all-fail), through the rrsets API, are
 * listed by GET /reports/traffic_services/failover_report; a change that forces nothing new
 * lists nothing.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'

const SB = (state: string) => ({
  ttl: 60,
  rdata: ['127.0.0.2', '127.0.0.3'],
  profile: { '@context': 'http://schemas.ultradns.com/SBPool.jsonschema', rdataInfo: [{ priority: 1, state }, { priority: 2 }], backupRecords: [{ rdata: '127.0.0.9' }] }
})
const SF = (liveRecordState: string) => ({
  ttl: 60,
  rdata: ['127.0.0.4'],
  profile: { '@context': 'http://schemas.ultradns.com/SFPool.jsonschema', liveRecordState, regionFailureSensitivity: 'HIGH', monitor: { method: 'GET', url: 'http://www.example.org/' }, backupRecord: { rdata: '127.0.0.9' } }
})

interface Row { poolName: string, poolRecord: string, poolRecordState: string, failoverReason: string, allFailRecord: boolean, trafficServicePoolType: string }

for (const engine of await engineCases()) {
  describe(`${engine.name}: failover events of forced states`, { skip: engine.skip }, () => {
    let t: TestApp
    let token: string

    before(async () => {
      t = await buildTestApp(engine.name)
      token = await t.user('alice', 'acme')
      const res = await call('POST', '/zones', { properties: { name: 'example.org.', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
      assert.equal(res.statusCode, 201, res.body)
    })
    after(async () => { await t?.close() })

    async function call (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<{ statusCode: number, body: string, json: () => unknown }> {
      return await t.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers: { authorization: `Bearer ${token}` } })
    }
    const report = async (): Promise<Array<[string, string, string, string, boolean, string]>> => {
      const res = await call('GET', '/reports/traffic_services/failover_report?accountName=acme')
      assert.equal(res.statusCode, 200, res.body)
      return (res.json() as { failoverRecords: Row[] }).failoverRecords.map(r => [r.poolName, r.poolRecord, r.poolRecordState, r.failoverReason, r.allFailRecord, r.trafficServicePoolType])
    }

    it('lists a record forced inactive and back as Manual changes', async () => {
      assert.equal((await call('POST', '/zones/example.org./rrsets/A/sb', SB('NORMAL'))).statusCode, 201)
      assert.deepEqual(await report(), [], 'creating a pool changes no state')
      assert.equal((await call('PUT', '/zones/example.org./rrsets/A/sb', SB('INACTIVE'))).statusCode, 200)
      assert.equal((await call('PUT', '/zones/example.org./rrsets/A/sb', { ...SB('INACTIVE'), ttl: 120 })).statusCode, 200)
      assert.equal((await call('PUT', '/zones/example.org./rrsets/A/sb', SB('NORMAL'))).statusCode, 200)
      assert.deepEqual(await report(), [
        ['sb.example.org.', '127.0.0.2', 'INACTIVE', 'Manual', false, 'SITE_BACKER'],
        ['sb.example.org.', '127.0.0.2', 'ACTIVE', 'Manual', false, 'SITE_BACKER']
      ])
      const audit = (await t.store.audit.recent(10)).filter(r => r.object === 'sb.example.org.' && r.change_type === 'MODIFY')
      assert.equal(audit.length, 3, 'each change has its audit record')
    })

    it('lists an SF live record forced inactive as an all-fail Manual change', async () => {
      assert.equal((await call('POST', '/zones/example.org./rrsets/A/sf', SF('NOT_FORCED'))).statusCode, 201)
      assert.equal((await call('PUT', '/zones/example.org./rrsets/A/sf', SF('FORCED_INACTIVE'))).statusCode, 200)
      assert.deepEqual((await report()).at(-1), ['sf.example.org.', '127.0.0.4', 'INACTIVE', 'Manual', true, 'FAILOVER_POOL'])
    })
  })
}
