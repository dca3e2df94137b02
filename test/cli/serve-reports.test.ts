/**
 * Reports of real traffic: the running service answers DNS queries from several loopback
 * addresses, over UDP and TCP, IPv4 and IPv6, and the reports requested over HTTP count exactly
 * those; the official Python client requests and waits for them with its own ReportHandler; two
 * nodes on one PostgreSQL database are counted together.
 */
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { ipv6Unavailable, tcpExchange, udpExchange, ZONE } from '../helpers/dns-clients.ts'
import { engineCases } from '../helpers/engines.ts'
import { pythonClients, runPython, ULTRA_REST_CLIENT } from '../helpers/python-clients.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const A = 1; const NS = 2; const SOA = 6; const MX = 15; const TXT = 16; const AAAA = 28
const ZQV = '/reports/dns_resolution/query_volume/zone'
const ARC = '/v1/reports/dns_resolution/advanced_response_codes'
const REPORTS_SESSION = fileURLToPath(new URL('../api/clients/fixtures/python_client_reports.py', import.meta.url))

function query (name: string, type: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: 9, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  return w.finish()
}

type Row = Record<string, unknown>

/** An HTTP client of a running service, signed in as `admin`. */
async function api (t: TestService, password: string) {
  const base = `http://127.0.0.1:${t.service.httpPort}`
  const login = await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password }) })
  assert.equal(login.status, 200)
  const { accessToken } = await login.json() as { accessToken: string }
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }
  return {
    async report (path: string, body: unknown): Promise<Row[]> {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
      assert.equal(res.status, 201, await res.clone().text())
      const { requestId } = await res.json() as { requestId: string }
      for (;;) {
        const got = await fetch(`${base}/requests/${requestId}`, { headers })
        if (got.status === 200) return await got.json() as Row[]
        assert.equal(got.status, 202, await got.text())
        await new Promise(resolve => setTimeout(resolve, 50))
      }
    }
  }
}

/** Store example.org. in the service's default account and wait until DNS answers it. */
async function serveExample (t: TestService, load = true): Promise<void> {
  if (load) await storeZone(t.service.store, 'default', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
  await t.service.dns.loaded
  // Until the zone is loaded the answer is REFUSED and counted for no zone: exactly one SOA
  // query (the first NOERROR) is counted for example.org.
  while (decodeMessage((await udpExchange('127.0.0.1', t.service.dns.port, query('example.org.', SOA))).reply).rcode !== 0) {
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

const today = (): string => new Date().toISOString().slice(0, 10)
const noV6 = await ipv6Unavailable()
const PASSWORD = 'reports password'

describe('sqlite: reports of the queries the running service answered', { skip: noV6 }, () => {
  let t: TestService
  before(async () => {
    t = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1,::1', ZONAL_DNS_WORKERS: '1', ZONAL_NODE_NAME: 'ams', ZONAL_DNS_RRL: '0' })
    await serveExample(t)
    const port = t.service.dns.port
    const rcodes: number[] = []
    const ask = async (how: typeof udpExchange, host: '127.0.0.1' | '::1', from: string, name: string, type: number): Promise<void> => {
      rcodes.push(decodeMessage((await how(host, port, query(name, type), 2000, from)).reply).rcode)
    }
    await ask(udpExchange, '127.0.0.1', '127.0.0.2', 'mail.example.org.', A)
    await ask(udpExchange, '127.0.0.1', '127.0.0.2', 'missing.example.org.', A)
    await ask(udpExchange, '127.0.0.1', '127.0.0.2', 'example.org.', MX)
    await ask(udpExchange, '127.0.0.1', '127.0.0.2', 'example.com.', A)
    await ask(tcpExchange, '127.0.0.1', '127.0.0.3', 'example.org.', SOA)
    await ask(tcpExchange, '127.0.0.1', '127.0.0.3', 'example.org.', NS)
    await ask(udpExchange, '::1', '::1', 'mail.example.org.', AAAA)
    await ask(tcpExchange, '::1', '::1', 'missing.example.org.', TXT)
    assert.deepEqual(rcodes, [0, 3, 0, 5, 0, 0, 0, 3])
    await t.service.queries!.flush()
    await t.service.queryCounts!.flush()
  })
  after(async () => await t?.stop())

  it('the zone query volume report counts each response by transport, IP version and type', async () => {
    const client = await api(t, PASSWORD)
    const rows = await client.report(ZQV, { zoneQueryVolume: { startDate: today(), endDate: today() } })
    assert.equal(rows.length, 1)
    const r = rows[0]!
    assert.deepEqual([r.zoneName, r.accountName, r.startDate, r.endDate], ['example.org.', 'default', today(), today()])
    assert.deepEqual(
      [r.rspTotal, r.udpTotal, r.tcpTotal, r.ipv4Total, r.ipv6Total, r.ipv4udpTotal, r.ipv4tcpTotal, r.ipv6udpTotal, r.ipv6tcpTotal],
      [8, 5, 3, 6, 2, 4, 2, 1, 1]
    )
    assert.deepEqual([r.recordA, r.recordMx, r.recordSoa, r.recordNs, r.recordAAAA, r.recordTxt, r.recordHttps], [2, 1, 2, 1, 1, 1, 0])
  })

  it('the advanced response codes report counts them by rcode; the refused query of no zone is in no account', async () => {
    const client = await api(t, PASSWORD)
    const rows = await client.report(ARC, { advancedResponseCodes: { accountName: 'default', reportStartDate: today(), reportEndDate: today() } })
    assert.deepEqual(rows, [{ responseCount: 8, reportStartDate: today(), reportEndDate: today(), refusedCount: 0, notimpCount: 0, nxdomainCount: 2, servfailCount: 0, formerrCount: 0, noerrorCount: 6, accountName: 'default', zoneName: 'example.org.' }])
  })

  it('the projected query volume report shows today\'s responses', async () => {
    const client = await api(t, PASSWORD)
    const rows = await client.report('/v1/reports/dns_resolution/projected_query_volume', { projectedQueryVolume: { accountName: 'default' } })
    const day = Number(today().slice(8))
    assert.equal(rows.length, day)
    assert.deepEqual([rows.at(-1)!.currentDay, rows.at(-1)!.rspDaily, rows.at(-1)!.rspMtd], [day, 8, 8])
  })

  const clients = pythonClients(ULTRA_REST_CLIENT)
  it('the official Python client requests them and waits with its ReportHandler', { skip: 'skip' in clients ? clients.skip : undefined }, async () => {
    if ('skip' in clients) return
    const run = await runPython(clients, [REPORTS_SESSION, `127.0.0.1:${t.service.httpPort}`, 'admin', PASSWORD, today(), 'example.org'])
    assert.equal(run.code, 0, `the client session failed:\n${run.stderr}`)
    const steps = JSON.parse(run.stdout.trim().split('\n').at(-1)!)
    assert.match(steps['create_zone_query_volume_report request'].requestId, /^PQV-/)
    const zqv = steps.create_zone_query_volume_report
    assert.deepEqual(zqv.map((r: Row) => [r.zoneName, r.rspTotal, r.recordA]), [['example.org.', 8, 2]])
    const pqv = steps.create_projected_query_volume_report
    assert.match(steps['create_projected_query_volume_report request'].requestId, /^PQV-/)
    // The client asks for rspMtd DESC: today first.
    assert.deepEqual([pqv[0].currentDay, pqv[0].rspMtd], [Number(today().slice(8)), 8])
    assert.deepEqual(steps['get_report_results unknown'], [{ errorCode: 404, errorMessage: 'No report with the given ID was requested before.' }])
  })
})

const pg = (await engineCases()).find(e => e.name === 'postgres')!
describe('postgres: two nodes on one database are counted together', { skip: pg.skip }, () => {
  let first: TestService
  let second: TestService
  before(async () => {
    first = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_NODE_NAME: 'ams', ZONAL_DNS_RRL: '0' }, 'postgres')
    second = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_NODE_NAME: 'lax', ZONAL_DNS_RRL: '0', ZONAL_DATABASE_URL: first.db.url })
    await serveExample(first)
    await serveExample(second, false)
  })
  after(async () => {
    await second?.service.close()
    await second?.stop()
    await first?.stop()
  })

  it('each node writes its own rows; the report sums them', async () => {
    const ask = async (t: TestService, name: string, type: number) => decodeMessage((await udpExchange('127.0.0.1', t.service.dns.port, query(name, type), 2000, '127.0.0.4')).reply).rcode
    assert.deepEqual([await ask(first, 'mail.example.org.', A), await ask(first, 'missing.example.org.', A), await ask(second, 'mail.example.org.', AAAA)], [0, 3, 0])
    for (const t of [first, second]) {
      await t.service.queries!.flush()
      await t.service.queryCounts!.flush()
    }
    const nodes = await (first.service.store as any).engineImpl.db.selectFrom('query_volume').select(['node']).where('zone', '=', 'example.org.').orderBy('node').execute() as Array<{ node: string }>
    assert.deepEqual(nodes.map(n => n.node), ['ams', 'lax'])
    const client = await api(second, PASSWORD)
    const [r] = await client.report(ZQV, { zoneQueryVolume: { startDate: today(), endDate: today() } })
    // One SOA per node from the wait for the zone, then the three queries.
    assert.deepEqual([r!.rspTotal, r!.recordA, r!.recordAAAA, r!.recordSoa], [5, 2, 1, 2])
    const [codes] = await client.report(ARC, { advancedResponseCodes: { accountName: 'default', reportStartDate: today(), reportEndDate: today() } })
    assert.deepEqual([codes!.noerrorCount, codes!.nxdomainCount], [4, 1])
  })
})
