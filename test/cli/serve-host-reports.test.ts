/**
 * The host query volume and ADVANCED_NXDOMAINS reports of the running service from the DNS
 * queries it answered: real queries (hits, NXDOMAIN, several types, UDP and TCP), the counts
 * flushed, the reports requested over HTTP and polled until computed; exact rows, the overflow
 * host past the per-zone limit, and its count on /metrics.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { csvRecords } from '../helpers/csv.ts'
import { tcpExchange, udpExchange, ZONE } from '../helpers/dns-clients.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

function query (name: string, type: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: 9, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  return w.finish()
}

const A = 1; const SOA = 6; const TXT = 16; const AAAA = 28
const HQV = '/v1/reports/dns_resolution/query_volume/host'

describe('sqlite: host reports from the queries the running service answered', () => {
  let t: TestService
  let base: string
  let headers: Record<string, string>
  before(async () => {
    // No periodic flush: the per-zone limit of 4 hosts holds for the whole test.
    t = await startTestService('admin password', { ZONAL_ADMIN_ACCOUNT: 'acme', ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_NODE_NAME: 'edge-7', ZONAL_DNS_RRL: '0', ZONAL_ANALYTICS_FLUSH_SECONDS: '3600', ZONAL_ANALYTICS_HOSTS_FLUSH_SECONDS: '3600', ZONAL_ANALYTICS_HOSTS_PER_ZONE: '4' })
    await storeZone(t.service.store, 'acme', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
    await t.service.dns.loaded
    // Until the zone is loaded the answer is REFUSED, which no host counts; then one SOA query of example.org.
    while (decodeMessage((await udpExchange('127.0.0.1', t.service.dns.port, query('example.org.', SOA))).reply).rcode !== 0) {
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    base = `http://127.0.0.1:${t.service.httpPort}`
    const login = await fetch(`${base}/authorization/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' })
    })
    headers = { authorization: `Bearer ${(await login.json() as { accessToken: string }).accessToken}`, 'content-type': 'application/json' }
  })
  after(async () => await t?.stop())

  /** POST a report, poll GET /v1/requests/{id} until computed, return the response. */
  async function report (query: string, body: unknown, accept = 'application/json'): Promise<{ id: string, res: Response }> {
    const posted = await fetch(`${base}${HQV}${query}`, { method: 'POST', headers, body: JSON.stringify(body) })
    assert.equal(posted.status, 201, await posted.clone().text())
    const { requestId } = await posted.json() as { requestId: string }
    const deadline = Date.now() + 30_000
    for (;;) {
      const res = await fetch(`${base}/v1/requests/${requestId}`, { headers: { ...headers, accept } })
      if (res.status !== 202 || Date.now() > deadline) return { id: requestId, res }
      await new Promise(resolve => setTimeout(resolve, 25))
    }
  }

  it('counts each host\'s queries and reports them; names past the limit go to "(other hosts)"', async () => {
    const port = t.service.dns.port
    const rcodes: number[] = []
    const ask = async (how: typeof udpExchange, name: string, type: number): Promise<void> => {
      rcodes.push(decodeMessage((await how('127.0.0.1', port, query(name, type))).reply).rcode)
    }
    await ask(udpExchange, 'mail.example.org.', A)
    await ask(udpExchange, 'Mail.Example.org.', A)
    await ask(tcpExchange, 'mail.example.org.', AAAA)
    await ask(udpExchange, 'missing.example.org.', A)
    await ask(udpExchange, 'missing.example.org.', A)
    await ask(udpExchange, 'missing.example.org.', A)
    await ask(udpExchange, 'missing.example.org.', TXT)
    await ask(udpExchange, 'rand1.example.org.', A)
    await ask(udpExchange, 'rand2.example.org.', A) // a fifth name in the zone: over the limit
    await ask(tcpExchange, 'rand3.example.org.', TXT)
    await ask(udpExchange, 'example.com.', A) // no zone: not kept per host
    assert.deepEqual(rcodes, [0, 0, 0, 3, 3, 3, 3, 3, 3, 3, 5])
    await t.service.queries!.flush()
    await t.service.hostCounts!.flush()

    const today = new Date().toISOString().slice(0, 10)
    const { id, res } = await report('', { hostQueryVolume: { zoneName: 'example.org', startDate: today, endDate: today } })
    assert.match(id, /^HQV-/)
    assert.equal(res.status, 200)
    const rows = await res.json() as Array<Record<string, unknown>>
    const pick = (r: Record<string, unknown>): unknown[] => [r.hostName, r.rspTotal, r.udpTotal, r.tcpTotal, r.ipv4Total, r.ipv4udpTotal, r.ipv4tcpTotal, r.recordA, r.recordAAAA, r.recordTxt, r.recordSoa]
    assert.deepEqual(rows.map(pick), [
      ['(other hosts)', 2, 1, 1, 2, 1, 1, 1, 0, 1, 0],
      ['example.org.', 1, 1, 0, 1, 1, 0, 0, 0, 0, 1],
      ['mail.example.org.', 3, 2, 1, 3, 2, 1, 2, 1, 0, 0],
      ['missing.example.org.', 4, 4, 0, 4, 4, 0, 3, 0, 1, 0],
      ['rand1.example.org.', 1, 1, 0, 1, 1, 0, 1, 0, 0, 0]
    ])
    for (const r of rows) assert.deepEqual([r.zoneName, r.accountName, r.startDate, r.endDate, r.ipv6Total], ['example.org.', 'acme', today, today, 0])

    const nxd = await report('?advance=true&reportType=ADVANCED_NXDOMAINS&limit=100', { hostQueryVolume: { startDate: today, endDate: today, zoneNames: ['example.org.'] }, sortFields: { nxdomainCount: 'DESC' } })
    assert.match(nxd.id, /^HQV_NXD-/)
    assert.deepEqual(await nxd.res.json(), [
      { zoneName: 'example.org.', hostName: 'missing.example.org.', accountName: 'acme', startDate: today, endDate: today, nxdomainCount: 4, rspTotal: 4 },
      { zoneName: 'example.org.', hostName: '(other hosts)', accountName: 'acme', startDate: today, endDate: today, nxdomainCount: 2, rspTotal: 2 },
      { zoneName: 'example.org.', hostName: 'rand1.example.org.', accountName: 'acme', startDate: today, endDate: today, nxdomainCount: 1, rspTotal: 1 }
    ])
    const csv = await report('?advance=true&reportType=ADVANCED_NXDOMAINS', { hostQueryVolume: { startDate: today, endDate: today } }, 'text/csv')
    assert.deepEqual(csvRecords(await csv.res.text()).map(r => [r.hostName, r.nxdomainCount]), [['missing.example.org.', '4'], ['(other hosts)', '2'], ['rand1.example.org.', '1']])

    const bad = await fetch(`${base}${HQV}`, { method: 'POST', headers, body: JSON.stringify({ hostQueryVolume: { startDate: today, endDate: today } }) })
    assert.equal(bad.status, 400)
    assert.deepEqual(await bad.json(), [{ errorCode: 55001, errorMessage: 'Zone name not provided.' }])

    const metrics = await (await fetch(`${base}/metrics`)).text()
    assert.match(metrics, /^zonal_analytics_host_overflow_total 2$/m)
  })
})

describe('sqlite: host counts are written on their own interval', () => {
  let t: TestService
  after(async () => await t?.stop())

  it('writes the other counts every ZONAL_ANALYTICS_FLUSH_SECONDS and the host counts every ZONAL_ANALYTICS_HOSTS_FLUSH_SECONDS', async () => {
    t = await startTestService('admin password', { ZONAL_ADMIN_ACCOUNT: 'acme', ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0', ZONAL_ANALYTICS_FLUSH_SECONDS: '1', ZONAL_ANALYTICS_HOSTS_FLUSH_SECONDS: '3600' })
    const store = t.service.store
    await storeZone(store, 'acme', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
    await t.service.dns.loaded
    while (decodeMessage((await udpExchange('127.0.0.1', t.service.dns.port, query('example.org.', SOA))).reply).rcode !== 0) {
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    const today = new Date().toISOString().slice(0, 10)
    const account = await store.accounts.findByName('acme')
    const q = { accountIds: [account!.id], from: today, to: today, sort: [], offset: 0, limit: 100 }
    // The 1-second flush writes the query volume of the SOA query (the wait is for that, however long it takes).
    while ((await store.queryCounts.volumeByDay(q)).length === 0) await new Promise(resolve => setTimeout(resolve, 50))
    // The DNS worker hands its host counts over: to the main thread's sink, which has not written them.
    await t.service.queries!.flush()
    assert.deepEqual(await store.hostVolume.volumeByHost({ ...q, zones: ['example.org.'] }), [])
    assert.deepEqual(t.service.hostCounts!.pending().map(r => [r.host, r.counts.rsp_total]), [['example.org.', 1]])
    await t.service.hostCounts!.flush()
    assert.deepEqual((await store.hostVolume.volumeByHost({ ...q, zones: ['example.org.'] })).map(r => [r.host, r.counts.rsp_total]), [['example.org.', 1]])
  })
})
