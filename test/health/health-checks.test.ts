import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { query } from '../../src/dns/client/query.ts'
import { parseName } from '../../src/zone/name.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { healthResult, runHealthCheck, startHealthWorld, WORLD, type HealthWorld } from '../helpers/health-world.ts'
import { bindSkip } from '../helpers/named.ts'
import { pythonClients, runPython, ULTRA_REST_CLIENT } from '../helpers/python-clients.ts'
import { startTestService, type TestService } from '../helpers/service.ts'

/**
 * DNS health checks end to end: the service (its DNS on 127.0.0.3 and 127.0.0.4, the zones'
 * nameservers ns1/ns2.zonal.test.) in a loopback world with a BIND parent (`test.`) and a BIND
 * resolver (test/helpers/health-world.ts). Each zone has one defect, and its report says so.
 */
type Json = any

const PASSWORD = 'health check password'
const DELEGATIONS: Record<string, string[]> = {
  'healthy.test.': ['ns1.zonal.test.', 'ns2.zonal.test.'],
  'onens.test.': ['ns1.zonal.test.'],
  'badsoa.test.': ['ns1.zonal.test.', 'ns2.zonal.test.'],
  'mxcname.test.': ['ns1.zonal.test.', 'ns2.zonal.test.'],
  'lame.test.': ['ns1.zonal.test.', 'ns.ext.test.'],
  'parentdiff.test.': ['ns1.zonal.test.'],
  'nullmx.test.': ['ns1.zonal.test.', 'ns2.zonal.test.']
}

const result = healthResult

describe('DNS health checks in a loopback world', { skip: bindSkip('named') }, () => {
  let world: HealthWorld
  let running: TestService
  let token: string
  let base: string
  const reports = new Map<string, Json>()

  const api = async (method: string, path: string, body?: unknown): Promise<Response> => await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

  const check = async (zone: string): Promise<Json> => await runHealthCheck(api, zone)

  before(async () => {
    world = await startHealthWorld(DELEGATIONS)
    running = await startTestService(PASSWORD, { ...world.env, ZONAL_HEALTH_INTERVAL: '0', ZONAL_HEALTH_QPS: '1000', ZONAL_DNS_WORKERS: '0' })
    base = `http://127.0.0.1:${running.service.httpPort}`
    const login = await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: PASSWORD }) })
    token = (await login.json() as { accessToken: string }).accessToken
    for (const zone of Object.keys(DELEGATIONS)) {
      const res = await api('POST', '/zones', { properties: { name: zone, accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
      assert.equal(res.status, 201, await res.text())
      if (zone !== 'nullmx.test.') assert.equal((await api('POST', `/zones/${zone}/rrsets/MX/@`, { ttl: 3600, rdata: [zone === 'mxcname.test.' ? '10 alias.ext.test.' : '10 mail.ext.test.'] })).status, 201)
    }
    const put = async (zone: string, type: string, rdata: string[]): Promise<void> => {
      const res = await api('PUT', `/zones/${zone}/rrsets/${type}/@`, { ttl: 3600, rdata })
      assert.equal(res.status, 200, await res.text())
    }
    await put('onens.test.', 'NS', ['ns1.zonal.test.'])
    await put('badsoa.test.', 'SOA', ['ns1.zonal.test. hostmaster.badsoa.test. 2026010100 300 3600 1800 300'])
    await put('lame.test.', 'NS', ['ns1.zonal.test.', 'ns.ext.test.'])
    assert.equal((await api('POST', '/zones/nullmx.test./rrsets/MX/@', { ttl: 3600, rdata: ['0 .'] })).status, 201)
    for (const zone of Object.keys(DELEGATIONS)) reports.set(zone, await check(zone))
  })

  after(async () => {
    await running?.stop()
    await world?.stop()
  })

  it('the service\'s own DNS answers as a checked nameserver: authoritative over UDP and TCP', async () => {
    for (const transport of ['udp', 'tcp'] as const) {
      const m = await query({ host: WORLD.ns2, port: world.port }, parseName('healthy.test.'), RRType.SOA, { transport })
      assert.equal(m.aa, true)
      assert.equal(m.answers[0]?.type, RRType.SOA)
    }
  })

  it('gives a healthy zone a COMPLETED report with every graded result OK, and DNSSEC INFO "not signed"', () => {
    const report = reports.get('healthy.test.')
    assert.equal(report.state, 'COMPLETED')
    assert.deepEqual(report.checks.map((c: Json) => c.category), ['NS', 'SOA', 'MX', 'DNSSEC', 'DOMAIN'])
    for (const c of report.checks) {
      assert.equal(c.state, 'COMPLETED')
      assert.equal(c.status, c.category === 'DNSSEC' ? 'INFO' : 'OK', `${c.category}: ${JSON.stringify(c.results.filter((r: Json) => r.status !== 'OK'))}`)
    }
    assert.deepEqual(result(report, 'NS', 'Authoritative name servers have the same NS record list as the parent zone').messages, [{
      status: 'OK', message: 'The NS set from parent [\'ns1.zonal.test.\', \'ns2.zonal.test.\'] and NS set from zone [\'ns1.zonal.test.\', \'ns2.zonal.test.\'] are same.'
    }])
    assert.deepEqual(result(report, 'NS', 'Name servers answer authoritatively').messages.map((m: Json) => m.message), [
      'Nameserver \'ns1.zonal.test.\' (127.0.0.3) answers authoritatively.',
      'Nameserver \'ns2.zonal.test.\' (127.0.0.4) answers authoritatively.'
    ])
    assert.equal(result(report, 'DNSSEC', 'Zone is signed').messages[0].message, 'Zone \'healthy.test.\' is not signed!')
    assert.equal(result(report, 'MX', 'MX targets resolve to addresses and are not aliases').messages[0].message, 'MX target \'mail.ext.test.\' resolves to 192.0.2.25.')
    assert.equal(result(report, 'DOMAIN', 'Zone is delegated from its parent').status, 'OK')
  })

  it('scores the healthy zone 10 in the health status detail report, and the others lower', async () => {
    const records = (await (await api('GET', '/v1/dns_configuration/health_status/detail?sort=zoneName')).json() as Json).healthStatusRecordsList
    const scores = Object.fromEntries(records.map((r: Json) => [r.zoneName, r.healthScore]))
    assert.equal(scores['healthy.test.'], 10)
    for (const zone of ['onens.test.', 'badsoa.test.', 'mxcname.test.', 'lame.test.', 'parentdiff.test.']) assert.ok(scores[zone] < 10, `${zone}: ${scores[zone]}`)
    const healthy = records.find((r: Json) => r.zoneName === 'healthy.test.')
    assert.deepEqual([healthy.errorCount, healthy.warningCount, healthy.bestPracticeViolationCount, healthy.naCount], [0, 0, 0, 0])
  })

  it('reports one name server as an ERROR', () => {
    const r = result(reports.get('onens.test.'), 'NS', 'Zone has at least two name servers')
    assert.equal(r.status, 'ERROR')
    assert.deepEqual(r.messages, [{ status: 'ERROR', message: 'The zone \'onens.test.\' has only one name server (\'ns1.zonal.test.\'); at least two are required.' }])
    assert.equal(typeof r.hint, 'string')
  })

  it('reports SOA timers out of range: REFRESH a BEST_PRACTICE, EXPIRE an ERROR', () => {
    const report = reports.get('badsoa.test.')
    assert.deepEqual(result(report, 'SOA', 'SOA REFRESH is present and valid').messages, [{ status: 'BEST_PRACTICE', message: 'The SOA refresh value of \'300\' for the zone \'badsoa.test.\' is not within the range of best practice (1200–43200).' }])
    assert.deepEqual(result(report, 'SOA', 'SOA EXPIRE is present and valid').messages, [{ status: 'ERROR', message: 'The SOA expire value of \'1800\' for zone \'badsoa.test.\' is under a week.' }])
    assert.equal(result(report, 'SOA', 'SOA RETRY is present and valid').status, 'ERROR') // retry 3600 not below refresh 300
    assert.equal(report.checks.find((c: Json) => c.category === 'SOA').status, 'ERROR')
  })

  it('reports an MX pointing at a CNAME as an ERROR', () => {
    const r = result(reports.get('mxcname.test.'), 'MX', 'MX targets resolve to addresses and are not aliases')
    assert.deepEqual(r.messages, [{ status: 'ERROR', message: 'MX target \'alias.ext.test.\' is a CNAME (to \'mail.ext.test.\'); an MX must name a host, not an alias.' }])
  })

  it('reports a lame delegation: the server that only refers is not authoritative', () => {
    const r = result(reports.get('lame.test.'), 'NS', 'Name servers answer authoritatively')
    assert.equal(r.status, 'ERROR')
    assert.deepEqual(r.messages, [
      { status: 'OK', message: 'Nameserver \'ns1.zonal.test.\' (127.0.0.3) answers authoritatively.' },
      { status: 'ERROR', message: 'Nameserver \'ns.ext.test.\' (127.0.0.1) does not answer authoritatively for \'lame.test.\' (AA not set, rcode NOERROR): lame delegation.' }
    ])
  })

  it('reports a parent NS set that differs from the zone\'s as a WARNING naming the difference', () => {
    const r = result(reports.get('parentdiff.test.'), 'NS', 'Authoritative name servers have the same NS record list as the parent zone')
    assert.deepEqual(r.messages, [{
      status: 'WARNING',
      message: 'The NS set from parent [\'ns1.zonal.test.\'] and NS set from zone [\'ns1.zonal.test.\', \'ns2.zonal.test.\'] differ; only in the zone: [\'ns2.zonal.test.\'].'
    }])
  })

  it('fills registrarInfo.nameServers from the delegation the check found at the parent', async () => {
    const ns = async (zone: string): Promise<Json> => ((await (await api('GET', `/v3/zones/${zone}`)).json()) as Json).registrarInfo.nameServers
    assert.deepEqual(await ns('healthy.test.'), { ok: ['ns1.zonal.test.', 'ns2.zonal.test.'], missing: [], incorrect: [] })
    assert.deepEqual(await ns('parentdiff.test.'), { ok: ['ns1.zonal.test.'], missing: ['ns2.zonal.test.'], incorrect: [] })
    assert.deepEqual(await ns('lame.test.'), { ok: ['ns1.zonal.test.'], missing: ['ns2.zonal.test.'], incorrect: ['ns.ext.test.'] })
  })

  it('accepts a null MX (RFC 7505) and leaves the MX targets NOT_APPLICABLE', () => {
    const report = reports.get('nullmx.test.')
    assert.deepEqual(result(report, 'MX', 'Zone has MX records').messages, [{ status: 'OK', message: 'The zone \'nullmx.test.\' has a null MX: it accepts no mail (RFC 7505).' }])
    assert.equal(result(report, 'MX', 'MX targets resolve to addresses and are not aliases').status, 'NOT_APPLICABLE')
  })

  it('keeps the two newest versions; latest and versions read them', async () => {
    const zone = 'healthy.test.'
    await check(zone)
    await check(zone)
    const versions = (await (await api('GET', `/v1/zones/${zone}/healthchecks/versions`)).json() as Json).versions
    assert.equal(versions.length, 2)
    assert.ok(versions[0] > versions[1])
    const latest = await (await api('GET', `/v1/zones/${zone}/healthchecks/latest`)).json() as Json
    assert.equal(latest.version, versions[0])
    // The documented spelling of a version (a '-' for the 'T') reads the same report.
    const dashed = await (await api('GET', `/v1/zones/${zone}/healthchecks/${(versions[1] as string).replace(/^(\d{4}-\d{2}-\d{2})-/, '$1T')}`)).json() as Json
    assert.equal(dashed.version, versions[1])
  })

  it('refuses a secondary zone, an unknown zone, a bad version, and a zone never checked, each clearly', async () => {
    const secondary = await api('POST', '/zones', { properties: { name: 'sec.test.', accountName: 'default', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '127.0.0.1' } } } } })
    assert.ok([201, 202].includes(secondary.status), await secondary.text())
    const refused = await api('POST', '/v1/zones/sec.test./healthchecks', {})
    assert.equal(refused.status, 400)
    assert.deepEqual(await refused.json(), [{ errorCode: 53001, errorMessage: 'Invalid zone type: health checks run on primary and alias zones; sec.test. is a secondary zone.' }])
    const unknown = await api('POST', '/v1/zones/nowhere.test./healthchecks', {})
    assert.equal(unknown.status, 404)
    assert.equal((await unknown.json() as Json)[0].errorCode, 1801)
    const bad = await api('GET', '/v1/zones/healthy.test./healthchecks/yesterday')
    assert.equal(bad.status, 400)
    assert.equal((await bad.json() as Json)[0].errorMessage, 'Invalid input: \'yesterday\' is not a health check report version (YYYY-MM-DD-HH24:MI:SS.nnnZ, or latest).')
    assert.equal((await api('POST', '/zones', { properties: { name: 'never.test.', accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })).status, 201)
    for (const path of ['latest', 'versions', '2026-01-01T00:00:00.000Z']) {
      const none = await api('GET', `/v1/zones/never.test./healthchecks/${path}`)
      assert.equal(none.status, 404, path)
      assert.match((await none.json() as Json)[0].errorMessage, /^Data not found: the zone never\.test\. has no health check report/)
    }
  })
})

const clients = pythonClients(ULTRA_REST_CLIENT)

describe('the Python client\'s health check methods', { skip: bindSkip('named') || ('skip' in clients ? clients.skip : undefined) }, () => {
  let world: HealthWorld
  let running: TestService

  before(async () => {
    world = await startHealthWorld({ 'py-health.test.': ['ns1.zonal.test.', 'ns2.zonal.test.'] })
    running = await startTestService(PASSWORD, { ...world.env, ZONAL_HEALTH_INTERVAL: '0', ZONAL_DNS_WORKERS: '0' })
  })

  after(async () => {
    await running?.stop()
    await world?.stop()
  })

  it('create_health_check gets 202 and a Location; get_health_check(zone, ts) reads the report', async () => {
    if ('skip' in clients) return
    const script = [
      'import json, sys, time',
      'from ultra_rest_client import RestApiClient',
      'c = RestApiClient("admin", sys.argv[2], use_http=True, host=sys.argv[1])',
      'c.create_primary_zone("default", "py-health.test.")',
      'started = c.create_health_check("py-health.test.")',
      'ts = started["location"].rsplit("/", 1)[1]',
      'for _ in range(300):',
      '    report = c.get_health_check("py-health.test.", ts)',
      '    if report.get("state") != "IN_PROGRESS": break',
      '    time.sleep(0.1)',
      'print(json.dumps({"started": started, "ts": ts, "report": report}))'
    ].join('\n')
    const run = await runPython(clients, ['-c', script, `127.0.0.1:${running.service.httpPort}`, PASSWORD])
    assert.equal(run.code, 0, run.stderr)
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!)
    assert.equal(out.started.message, 'Pending')
    assert.match(out.ts, /^\d{4}-\d{2}-\d{2}-\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    assert.equal(out.report.version, out.ts)
    assert.equal(out.report.state, 'COMPLETED')
    assert.deepEqual(out.report.checks.map((c: Json) => c.status), ['OK', 'OK', 'INFO', 'INFO', 'OK'])
  })
})
