/**
 * The usage summary of the running service, on both engines: a zone created over HTTP, real DNS
 * queries to it over UDP, counted by the analytics pipeline (a DNS worker thread, the flush);
 * the current month's and today's figures equal the zone, its records and the responses it
 * served. (The month boundary with a test clock: test/api/routes/reports/usage-summary.test.ts.)
 */
import assert from 'node:assert/strict'
import { request } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { query, udpExchange } from '../helpers/dns-clients.ts'
import { engineCases } from '../helpers/engines.ts'
import { startTestService, type TestService } from '../helpers/service.ts'

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

for (const engine of await engineCases()) {
  describe(`${engine.name}: usage summary from the queries the running service answered`, { skip: engine.skip }, () => {
    let t: TestService
    let base: string
    let headers: Record<string, string>
    before(async () => {
      t = await startTestService('admin password', { ZONAL_ADMIN_ACCOUNT: 'acme', ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0', ZONAL_ANALYTICS_FLUSH_SECONDS: '3600' }, engine.name)
      base = `http://127.0.0.1:${t.service.httpPort}`
      const login = await fetch(`${base}/authorization/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' })
      })
      headers = { authorization: `Bearer ${(await login.json() as { accessToken: string }).accessToken}`, 'content-type': 'application/json' }
    })
    after(async () => await t?.stop())

    it('counts the zone, its records and every response it served', async () => {
      const created = await fetch(`${base}/zones`, { method: 'POST', headers, body: JSON.stringify({ properties: { name: 'usage.example.', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } }) })
      assert.equal(created.status, 201, await created.text())
      const rr = await fetch(`${base}/zones/usage.example./rrsets/A/www`, { method: 'POST', headers, body: JSON.stringify({ ttl: 60, rdata: ['192.0.2.1', '192.0.2.2'] }) })
      assert.equal(rr.status, 201, await rr.text())
      const zone = await (await fetch(`${base}/zones/usage.example.`, { headers })).json() as { properties: { recordCount: number } }

      // Until the zone is loaded the answers are REFUSED (no zone's); then ten answered by it.
      const port = t.service.dns.port
      let answered = 0
      let id = 1
      while (answered < 10) {
        const name = answered % 2 === 0 ? 'www.usage.example.' : 'missing.usage.example.'
        const { rcode } = decodeMessage((await udpExchange('127.0.0.1', port, query(id++, name, 'A'))).reply)
        if (rcode === 5) {
          await new Promise(resolve => setTimeout(resolve, 50))
          continue
        }
        assert.ok(rcode === 0 || rcode === 3, `rcode ${rcode}`)
        answered++
      }

      const now = new Date()
      const month = `${MONTHS[now.getUTCMonth()]!} ${now.getUTCFullYear()}`
      const deadline = Date.now() + 30_000
      let current: Record<string, unknown> | undefined
      // Every query answered reaches the counts, which are then written.
      for (;;) {
        await t.service.queries!.flush()
        await t.service.queryCounts!.flush()
        const res = await fetch(`${base}/reports/dns/usage_summary?accountName=acme`, { headers })
        assert.equal(res.status, 200)
        const months = (await res.json() as { usageSummary: Array<Record<string, unknown>> }).usageSummary
        current = months[0]
        if (current?.queryResponsesCount === 10 || Date.now() > deadline) break
        await new Promise(resolve => setTimeout(resolve, 100))
      }
      assert.deepEqual(current, {
        accountName: 'acme',
        month,
        domainsCount: 1,
        recordsCount: zone.properties.recordCount,
        queryResponsesCount: 10,
        urlForwardCount: 0,
        failoverPoolRecordsCount: 0,
        trafficControllerRecordsCount: 0,
        directionalRecordsCount: 0
      })
      // A GET with a body, over HTTP (fetch refuses to send one; node:http does, as curl and the real API's clients).
      const text = await new Promise<string>((resolve, reject) => {
        const body = JSON.stringify({ month, accountNames: ['acme'] })
        const req = request(`${base}/v1/reports/dns/usage_summary/daily`, { method: 'GET', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
          let out = ''
          res.setEncoding('utf8').on('data', (c: string) => { out += c }).on('end', () => resolve(out))
        })
        req.on('error', reject)
        req.end(body)
      })
      const days = (JSON.parse(text) as { usageSummary: Array<Record<string, unknown>> }).usageSummary
      const today = days.at(-1)!
      assert.deepEqual([today.date, today.domainsCount, today.recordsCount, today.queryResponsesCount], [now.toISOString().slice(0, 10), 1, zone.properties.recordCount, 10])
    })
  })
}
