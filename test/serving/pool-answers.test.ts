/**
 * DNS answers follow the traffic pools (issue 18): SB, TC, SF and SLB pools answer by the health
 * of their records as `setPoolHealth` gives it, at once in every DNS thread (worker threads and
 * the main thread), never from a reply cached before the change: an answer changes after a
 * record fails, comes back after it recovers, and the backup (all-fail) record answers when
 * everything is down. Plain records keep being served from the reply cache.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { nameToString, parseName } from '../../src/zone/name.ts'
import type { PoolRecordHealth } from '../../src/zone/pools/health.ts'
import { addressesOf, askFrom, poolQuery, storePoolZone, trafficPools } from '../helpers/pool-zone.ts'
import { eventually } from '../helpers/named.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

/** Questions asked per check, each from its own socket (so the kernel spreads them over the workers). */
const ASKS = 8

for (const workers of [2, 0]) {
  describe(`pool answers follow health (${workers === 0 ? 'DNS on the main thread' : `${workers} DNS workers`})`, () => {
    let t: TestService
    let zoneId: string

    before(async () => {
      t = await startTestService('admin password', { ZONAL_DNS_WORKERS: String(workers) })
      zoneId = await storePoolZone(t.service.store, trafficPools())
      await eventually(async () => t.service.dns.index.find(parseName('example.org.')) !== undefined, 10_000, 'zone loaded')
      await t.service.dns.settled()
    })
    after(async () => { await t?.stop() })

    /** Every one of {@link ASKS} answers to `name` (addresses, sorted). */
    async function answers (name: string): Promise<string[][]> {
      const out: string[][] = []
      for (let i = 0; i < ASKS; i++) out.push(addressesOf(await askFrom(t.service.dns.port, poolQuery(name))).sort())
      return out
    }

    async function expectAll (name: string, expected: string[]): Promise<void> {
      for (const got of await answers(name)) assert.deepEqual(got, expected, name)
    }

    async function health (owner: string, states: Record<string, PoolRecordHealth>): Promise<void> {
      t.service.dns.setPoolHealth({ zoneId, owner, type: 1, health: new Map(Object.entries(states)) })
      await t.service.dns.settled()
    }

    it('SB: the top priority record, the next one when it fails, the backup when all fail, back on recovery', async () => {
      await expectAll('sb.example.org.', ['192.0.2.1'])
      await health('sb.example.org.', { '192.0.2.1': 'DOWN' })
      await expectAll('sb.example.org.', ['192.0.2.2'])
      await health('sb.example.org.', { '192.0.2.1': 'DOWN', '192.0.2.2': 'DOWN', '192.0.2.3': 'DOWN' })
      await expectAll('sb.example.org.', ['198.51.100.9'])
      await health('sb.example.org.', { '192.0.2.1': 'UP', '192.0.2.2': 'UP', '192.0.2.3': 'UP' })
      await expectAll('sb.example.org.', ['192.0.2.1'])
    })

    it('TC: answers only healthy records, the backup when all fail, all again after recovery', async () => {
      const seen = new Set((await answers('tc.example.org.')).flat())
      await health('tc.example.org.', { '192.0.2.13': 'DOWN' })
      for (let round = 0; round < 4; round++) for (const a of await answers('tc.example.org.')) assert.ok(a.length === 1 && a[0] !== '192.0.2.13', String(a))
      await health('tc.example.org.', { '192.0.2.11': 'DOWN', '192.0.2.12': 'DOWN', '192.0.2.13': 'DOWN' })
      await expectAll('tc.example.org.', ['198.51.100.19'])
      await health('tc.example.org.', {})
      // Weight 10 of 16: the heaviest record comes back (the statistics are in the TC weights test).
      await eventually(async () => (await answers('tc.example.org.')).some(a => a[0] === '192.0.2.13'), 10_000, 'the recovered record answered')
      assert.ok([...seen].every(a => ['192.0.2.11', '192.0.2.12', '192.0.2.13'].includes(a)), [...seen].join())
    })

    it('SF: the live record, the failover record while it is down', async () => {
      await expectAll('sf.example.org.', ['192.0.2.21'])
      await health('sf.example.org.', { '192.0.2.21': 'DOWN' })
      await expectAll('sf.example.org.', ['198.51.100.29'])
      await health('sf.example.org.', { '192.0.2.21': 'UP' })
      await expectAll('sf.example.org.', ['192.0.2.21'])
    })

    it('SLB: the first healthy record, the all-fail record when all fail, back on recovery', async () => {
      await expectAll('slb.example.org.', ['192.0.2.31'])
      await health('slb.example.org.', { '192.0.2.31': 'DOWN' })
      await expectAll('slb.example.org.', ['192.0.2.32'])
      await health('slb.example.org.', { '192.0.2.31': 'DOWN', '192.0.2.32': 'DOWN' })
      await expectAll('slb.example.org.', ['198.51.100.39'])
      await health('slb.example.org.', {})
      await expectAll('slb.example.org.', ['192.0.2.31'])
    })

    it('keeps the health of a pool across a change of the zone, and serves plain records from the reply cache', async () => {
      await health('sf.example.org.', { '192.0.2.21': 'DOWN' })
      const login = await t.service.app.inject({ method: 'POST', url: '/v1/authorization/token', payload: 'grant_type=password&username=admin&password=admin%20password', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      const token = (JSON.parse(login.body) as { accessToken: string }).accessToken
      const res = await t.service.app.inject({ method: 'POST', url: '/v1/zones/example.org./rrsets/A/fresh', payload: { ttl: 300, rdata: ['192.0.2.77'] }, headers: { authorization: `Bearer ${token}` } })
      assert.equal(res.statusCode, 201, res.body)
      await t.service.dns.settled()
      await expectAll('fresh.example.org.', ['192.0.2.77'])
      await expectAll('sf.example.org.', ['198.51.100.29'])
      await expectAll('plain.example.org.', ['192.0.2.99'])
      if (workers === 0) assert.ok(t.service.dns.index.replies.hits > 0, 'plain answers came from the reply cache')
      await health('sf.example.org.', {})
      await expectAll('sf.example.org.', ['192.0.2.21'])
    })

    it('answers by a profile changed through the API, and as plain records once the profile is gone', async () => {
      const login = await t.service.app.inject({ method: 'POST', url: '/v1/authorization/token', payload: 'grant_type=password&username=admin&password=admin%20password', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      const token = (JSON.parse(login.body) as { accessToken: string }).accessToken
      const put = async (body: unknown) => await t.service.app.inject({ method: 'PUT', url: '/v1/zones/example.org./rrsets/A/sb', payload: body as object, headers: { authorization: `Bearer ${token}` } })
      const rdata = ['192.0.2.1', '192.0.2.2', '192.0.2.3']
      const profile = { '@context': 'http://schemas.ultradns.com/SBPool.jsonschema', order: 'FIXED', maxActive: 1, rdataInfo: [{ priority: 3 }, { priority: 1 }, { priority: 2 }], backupRecords: [{ rdata: '198.51.100.9' }] }
      let res = await put({ ttl: 300, rdata, profile })
      assert.equal(res.statusCode, 200, res.body)
      await t.service.dns.settled()
      await expectAll('sb.example.org.', ['192.0.2.2'])
      await health('sb.example.org.', { '192.0.2.2': 'DOWN' })
      await expectAll('sb.example.org.', ['192.0.2.3'])
      await health('sb.example.org.', {})
      res = await put({ ttl: 300, rdata })
      assert.equal(res.statusCode, 200, res.body)
      await t.service.dns.settled()
      await expectAll('sb.example.org.', rdata)
      res = await put({ ttl: 300, rdata, profile: { ...profile, rdataInfo: [{ priority: 1 }, { priority: 2 }, { priority: 3 }] } })
      assert.equal(res.statusCode, 200, res.body)
      await t.service.dns.settled()
      await expectAll('sb.example.org.', ['192.0.2.1'])
    })

    it('gives an alias of the zone the same health under its own name', async () => {
      await storeZone(t.service.store, 'default', 'example.net.', '', { type: 'ALIAS', originalZoneId: zoneId })
      await eventually(async () => t.service.dns.index.find(parseName('example.net.')) !== undefined, 10_000, 'alias loaded')
      await t.service.dns.settled()
      await expectAll('slb.example.net.', ['192.0.2.31'])
      await health('slb.example.org.', { '192.0.2.31': 'DOWN' })
      await expectAll('slb.example.net.', ['192.0.2.32'])
      await expectAll('slb.example.org.', ['192.0.2.32'])
      await health('slb.example.org.', {})
      await expectAll('slb.example.net.', ['192.0.2.31'])
      // A directional CNAME pool's targets in the zone are the alias's names.
      const lab = await askFrom(t.service.dns.port, poolQuery('cn.example.net.'), '127.0.0.2')
      assert.deepEqual(lab.answers.map(a => nameToString(a.rdata.length === 4 ? a.name : a.rdata)), ['ns1.example.net.', 'ns1.example.net.'])
      assert.deepEqual(addressesOf(lab), ['192.0.2.53'])
      const other = await askFrom(t.service.dns.port, poolQuery('cn.example.net.'))
      assert.deepEqual(other.answers.map(a => nameToString(a.rdata)), ['mail.example.net.'])
    })

    if (workers > 0) {
      it('starts a worker that dies again with the pools\' current health', async () => {
        await health('sb.example.org.', { '192.0.2.1': 'DOWN' })
        const w = t.service.dns.workers!
        const before = w.threadIds()
        await w.terminate(0)
        await eventually(async () => w.listening() === workers && w.threadIds()[0] !== before[0], 20_000, 'worker 0 restarted')
        await t.service.dns.settled()
        await expectAll('sb.example.org.', ['192.0.2.2'])
        await health('sb.example.org.', {})
        await expectAll('sb.example.org.', ['192.0.2.1'])
      })
    }
  })
}
