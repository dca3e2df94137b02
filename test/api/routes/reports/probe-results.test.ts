/**
 * GET /v2/reports/traffic_services/probe_result/details and …/summary (the real API's v2 probe
 * result pages), on both engines: the runs the service recorded for the caller's account's
 * pools, filters, the 7-day span, counts and percentages, offset cursors, and the account rules.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { canonicalSortKey, parseName } from '../../../../src/zone/name.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { storeZone } from '../../../helpers/stored-zones.ts'
import { sbProfile, sfProfile } from '../../../helpers/traffic.ts'

const NOW = new Date('2026-11-26T12:00:00.000Z')
const minutesAgo = (m: number): string => new Date(NOW.getTime() - m * 60_000).toISOString()

for (const engine of await engineCases()) {
  describe(`${engine.name}: GET /v2/reports/traffic_services/probe_result`, { skip: engine.skip }, () => {
    let t: TestApp
    let token: string
    let other: string

    before(async () => {
      t = await buildTestApp(engine.name, { clock: () => NOW })
      token = await t.user('alice', 'acme')
      other = await t.user('bob', 'globex')
      const zone = await storeZone(t.store, 'acme', 'example.org.', `$ORIGIN example.org.
$TTL 300
@ IN SOA ns1 hostmaster 1 3600 900 604800 300
@ IN NS ns1
ns1 IN A 192.0.2.53
sb IN A 127.0.0.2
sb IN A 127.0.0.3
sf IN A 127.0.0.4
`, { profiles: { 'sb.example.org./1': sbProfile('sb.example.org.', ['127.0.0.2', '127.0.0.3']), 'sf.example.org./1': sfProfile('sf.example.org.', '127.0.0.4', 'http://www.example.org/') } })
      const sb = { zoneId: zone.id, ownerKey: canonicalSortKey(parseName('sb.example.org.')), rrtype: 1, probeId: 'P1', probeType: 'TCP', durationMs: 2 }
      const sf = { zoneId: zone.id, ownerKey: canonicalSortKey(parseName('sf.example.org.')), rrtype: 1, probeId: '', probeType: 'HTTP', durationMs: 2, record: '127.0.0.4' }
      await t.store.traffic.record({ ...sb, record: '127.0.0.2', agent: 'n1', region: 'NORTH_AMERICA_EAST', at: minutesAgo(30), ok: true, message: 'connected to port 80' })
      await t.store.traffic.record({ ...sb, record: '127.0.0.2', agent: 'n1', region: 'NORTH_AMERICA_EAST', at: minutesAgo(20), ok: false, message: 'port 80: ECONNREFUSED' })
      await t.store.traffic.record({ ...sb, record: '127.0.0.2', agent: 'n2', region: 'EUROPE_WEST', at: minutesAgo(20), ok: true, message: 'connected to port 80' })
      await t.store.traffic.record({ ...sb, record: '127.0.0.3', agent: 'n1', region: 'NORTH_AMERICA_EAST', at: minutesAgo(10), ok: true, message: 'connected to port 80' })
      await t.store.traffic.record({ ...sf, agent: 'n1', region: 'NORTH_AMERICA_EAST', at: minutesAgo(5), ok: true, message: '1 transaction(s) passed' })
      await t.store.traffic.record({ ...sf, agent: 'n1', region: 'NORTH_AMERICA_EAST', at: minutesAgo(60 * 24 * 2), ok: false, message: 'old' })
    })
    after(async () => { await t?.close() })

    const get = async (path: string, query: string, auth = token) => await t.app.inject({ method: 'GET', url: `/v2/reports/traffic_services/probe_result/${path}?${query}`, headers: { authorization: `Bearer ${auth}` } })

    it('details: every run of the last 24 hours, oldest first, with its pool\'s names', async () => {
      const res = await get('details', 'accountName=acme')
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json() as { sbTcProbeDetailsRow: Array<Record<string, unknown>>, sbTcprobeDetailsCount: number }
      assert.equal(body.sbTcprobeDetailsCount, 5)
      assert.deepEqual(body.sbTcProbeDetailsRow[1], {
        accountName: 'acme',
        zoneName: 'example.org.',
        poolName: 'sb.example.org.',
        trafficServicePoolType: 'SITE_BACKER',
        probeResultType: 'ALL',
        poolRecord: '127.0.0.2',
        poolRecordType: 'A',
        poolProbeRegion: 'NORTH_AMERICA_EAST',
        probeLogTime: minutesAgo(20),
        probeResult: 'FAILURE: port 80: ECONNREFUSED',
        probeType: 'TCP',
        statusCount: 1
      })
      assert.equal(body.sbTcProbeDetailsRow[4]!.trafficServicePoolType, 'SIMPLE_FAILOVER')
      const failures = (await get('details', 'accountName=acme&probeResultType=FAILURE')).json() as { sbTcProbeDetailsRow: Array<{ probeResultType: string, poolRecord: string }> }
      assert.deepEqual(failures.sbTcProbeDetailsRow.map(r => [r.probeResultType, r.poolRecord]), [['FAILURE', '127.0.0.2']])
      const region = (await get('details', 'accountName=acme&poolProbeRegion=EUROPE_WEST')).json() as { sbTcprobeDetailsCount: number }
      assert.equal(region.sbTcprobeDetailsCount, 1)
      const sfOnly = (await get('details', 'accountName=acme&trafficServicePoolType=SIMPLE_FAILOVER&poolName=sf.example.org')).json() as { sbTcprobeDetailsCount: number }
      assert.equal(sfOnly.sbTcprobeDetailsCount, 1)
    })

    it('details: pages with offset cursors in the Link header', async () => {
      const first = await get('details', 'accountName=acme&limit=2')
      const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))![1]!
      const second = await t.app.inject({ method: 'GET', url: next, headers: { authorization: `Bearer ${token}` } })
      assert.deepEqual((second.json() as { sbTcProbeDetailsRow: Array<{ probeLogTime: string }> }).sbTcProbeDetailsRow.map(r => r.probeLogTime), [minutesAgo(20), minutesAgo(10)])
      assert.match(String(second.headers.link), /rel="previous"/)
    })

    it('summary: runs counted per pool record and region, with percentages', async () => {
      const res = await get('summary', 'accountName=acme&poolName=sb.example.org.')
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json() as { sbtcprobeSummaryRow: Array<Record<string, unknown>>, sbtcprobeSummaryCount: number }
      assert.deepEqual(body.sbtcprobeSummaryRow.map(r => [r.poolRecord, r.poolProbeRegion, r.successes, r.failures, r.total, r.successPercentage, r.failurePercentage]), [
        ['127.0.0.2', 'EUROPE_WEST', 1, 0, 1, 100, 0],
        ['127.0.0.2', 'NORTH_AMERICA_EAST', 1, 1, 2, 50, 50],
        ['127.0.0.3', 'NORTH_AMERICA_EAST', 1, 0, 1, 100, 0]
      ])
      assert.equal(body.sbtcprobeSummaryRow[0]!.reportEndDateTime, NOW.toISOString())
    })

    it('checks the account, the 7-day span and the values', async () => {
      assert.equal((await get('summary', 'accountName=acme', other)).statusCode, 400)
      assert.equal((await get('summary', 'zoneName=example.org.')).statusCode, 400)
      const span = await get('details', 'accountName=acme&reportStartDateTime=2026-11-10T00:00:00.000Z&reportEndDateTime=2026-11-17T00:00:00.001Z')
      assert.equal((span.json() as Array<{ errorMessage: string }>)[0]!.errorMessage, 'The span between reportStartDateTime and reportEndDateTime is at most 7 days.')
      const old = (await get('details', 'accountName=acme&reportStartDateTime=2026-11-23T00:00:00.000Z&reportEndDateTime=2026-11-26T00:00:00.000Z')).json() as { sbTcprobeDetailsCount: number }
      assert.equal(old.sbTcprobeDetailsCount, 1, 'a window three days back')
      for (const q of ['probeResultType=MAYBE', 'poolProbeRegion=MARS', 'limit=1001', 'cursor=zzz']) assert.equal((await get('details', `accountName=acme&${q}`)).statusCode, 400, q)
    })
  })
}
