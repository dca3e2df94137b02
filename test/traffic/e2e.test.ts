/**
 * Traffic services end to end, the whole service as `npm start` runs it (its own timer, real
 * time, probes on with short intervals): an SF pool created through the API over a loopback HTTP
 * server; the server fails, the pool's GET shows CRITICAL, the service's DNS answers the backup
 * record and the failover report lists the failover; the server comes back, DNS answers the live
 * record again and the report lists the failback. An SLB pool over two loopback HTTP servers
 * answers its all-fail record when both fail and the recovered record after. Nothing is probed
 * outside loopback (the probed records are 127.0.0.5, 127.0.0.11 and 127.0.0.12).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { query } from '../../src/dns/client/query.ts'
import { parseName } from '../../src/zone/name.ts'
import { eventually } from '../helpers/named.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { HttpTarget } from '../helpers/loopback-targets.ts'

describe('traffic services in the running service', () => {
  let t: TestService
  let web: HttpTarget
  let base: string
  let headers: Record<string, string>

  before(async () => {
    web = await new HttpTarget('127.0.0.5').start()
    t = await startTestService('admin password', { ZONAL_PROBES: 'on', ZONAL_SF_MONITOR_INTERVAL: '1', ZONAL_PROBE_MIN_INTERVAL: '1', ZONAL_NODE_NAME: 'e2e-node' })
    base = `http://127.0.0.1:${t.service.httpPort}`
    const token = await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' }) })
    headers = { authorization: `Bearer ${(await token.json() as { accessToken: string }).accessToken}`, 'content-type': 'application/json' }
    const zone = await fetch(`${base}/zones`, { method: 'POST', headers, body: JSON.stringify({ properties: { name: 'example.org.', accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } }) })
    assert.equal(zone.status, 201, await zone.text())
  })
  after(async () => {
    await t?.stop()
    await web?.stop()
  })

  const report = async (): Promise<Array<{ poolRecordState: string, failoverReason: string, trafficServicePoolType: string }>> => {
    const res = await fetch(`${base}/reports/traffic_services/failover_report?accountName=default`, { headers })
    assert.equal(res.status, 200)
    return (await res.json() as { failoverRecords: Array<{ poolRecordState: string, failoverReason: string, trafficServicePoolType: string }> }).failoverRecords
  }
  const status = async (): Promise<unknown> => {
    const res = await fetch(`${base}/zones/example.org./rrsets/A/sf`, { headers })
    return (await res.json() as { rrSets: Array<{ profile: { status: unknown } }> }).rrSets[0]!.profile.status
  }

  /** The addresses the service's DNS answers for a pool's name (the probes' decision, reached through the DNS answer path). */
  const served = async (owner = 'sf.example.org.'): Promise<string[]> => {
    const m = await query({ host: '127.0.0.1', port: t.service.dns.port }, parseName(owner), 1, { timeoutMs: 2000, retries: 2 })
    return m.answers.filter(r => r.type === 1).map(r => [...r.rdata].join('.')).sort()
  }

  it('fails over when the monitored server fails, and back when it returns', async () => {
    const profile = { '@context': 'http://schemas.ultradns.com/SFPool.jsonschema', regionFailureSensitivity: 'HIGH', monitor: { method: 'GET', url: `http://www.example.org:${web.port}/health`, searchString: 'healthy' }, backupRecord: { rdata: '127.0.0.9' } }
    const created = await fetch(`${base}/zones/example.org./rrsets/A/sf`, { method: 'POST', headers, body: JSON.stringify({ ttl: 60, rdata: ['127.0.0.5'], profile }) })
    assert.equal(created.status, 201, await created.text())
    await eventually(async () => web.requests.length > 0, 20_000, 'the monitor runs')
    assert.equal(web.requests[0]!.host, `www.example.org:${web.port}`)
    assert.equal(await status(), 'OK')
    assert.deepEqual(await served(), ['127.0.0.5'])
    web.mode = 'error'
    await eventually(async () => (await report()).length === 1, 20_000, 'the failover is reported')
    assert.deepEqual((await report()).map(r => [r.poolRecordState, r.failoverReason, r.trafficServicePoolType]), [['INACTIVE', 'Probe Failure', 'FAILOVER_POOL']])
    assert.equal(await status(), 'CRITICAL')
    await eventually(async () => (await served()).join() === '127.0.0.9', 20_000, 'DNS answers the backup record')
    web.mode = 'up'
    await eventually(async () => (await report()).length === 2, 20_000, 'the failback is reported')
    assert.deepEqual((await report()).map(r => r.poolRecordState), ['INACTIVE', 'ACTIVE'])
    assert.equal(await status(), 'OK')
    await eventually(async () => (await served()).join() === '127.0.0.5', 20_000, 'DNS answers the live record again')
  })

  it('serves an SLB pool\'s healthy records, its all-fail record when every one fails, and a record again when it recovers', async () => {
    const a = await new HttpTarget('127.0.0.11').start()
    const b = await new HttpTarget('127.0.0.12').start(a.port)
    try {
      const profile = { '@context': 'http://schemas.ultradns.com/SLBPool.jsonschema', monitor: { method: 'GET', url: `http://slb.example.org:${a.port}/health` }, allFailRecord: { rdata: '127.0.0.19' }, rdataInfo: [{}, {}] }
      const created = await fetch(`${base}/zones/example.org./rrsets/A/slb`, { method: 'POST', headers, body: JSON.stringify({ ttl: 60, rdata: ['127.0.0.11', '127.0.0.12'], profile }) })
      assert.equal(created.status, 201, await created.text())
      await eventually(async () => a.requests.length > 0 && b.requests.length > 0, 20_000, 'the monitor checks both records')
      const healthy = await served('slb.example.org.')
      assert.ok(healthy.length > 0 && healthy.every(r => r === '127.0.0.11' || r === '127.0.0.12'), healthy.join())
      a.mode = 'error'
      b.mode = 'error'
      await eventually(async () => (await served('slb.example.org.')).join() === '127.0.0.19', 20_000, 'DNS answers the all-fail record')
      b.mode = 'up'
      await eventually(async () => (await served('slb.example.org.')).join() === '127.0.0.12', 20_000, 'DNS answers the recovered record')
    } finally {
      await a.stop()
      await b.stop()
    }
  })
})
