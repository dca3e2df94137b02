import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { StatusCounts } from '../../../../src/health/score.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client } from '../../../helpers/zones.ts'

type Json = any

const c = (ok: number, error = 0, warning = 0, bestPractice = 0, info = 0, na = 0): StatusCounts => ({ ok, error, warning, bestPractice, info, na })

/** Zones and the counts of their newest completed check, by category. */
const ZONES: Record<string, { account: string, counts?: Record<string, StatusCounts> }> = {
  'alpha.example.org.': { account: 'acme', counts: { NS: c(7), SOA: c(7), MX: c(2), DNSSEC: c(0, 0, 0, 0, 1), DOMAIN: c(3) } },
  'beta.example.org.': { account: 'acme', counts: { NS: c(6, 1), SOA: c(5, 0, 0, 2), MX: c(2), DNSSEC: c(0, 0, 0, 0, 1), DOMAIN: c(3) } },
  'gamma.example.org.': { account: 'acme', counts: { NS: c(5, 0, 2), SOA: c(7), MX: c(0, 0, 0, 0, 1, 1), DNSSEC: c(0, 0, 0, 0, 1), DOMAIN: c(2, 1) } },
  'acmeish.example.net.': { account: 'bigco', counts: { NS: c(7), SOA: c(6, 0, 0, 1), MX: c(2), DNSSEC: c(0, 0, 0, 0, 1), DOMAIN: c(3) } },
  'unchecked.example.org.': { account: 'acme' },
  'hidden.example.com.': { account: 'rival', counts: { NS: c(7) } }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: GET /dns_configuration/health_status/detail`, { skip: engine.skip }, () => {
    let t: TestApp
    let user: ReturnType<typeof client>
    before(async () => {
      t = await buildTestApp(engine.name)
      const owner = await t.user('owner', 'acme')
      await t.user('owner', 'bigco')
      await t.user('rival', 'rival')
      user = client(t.app, owner)
      const rival = client(t.app, await t.user('rival', 'rival'))
      for (const [zone, z] of Object.entries(ZONES)) {
        assert.equal((await (z.account === 'rival' ? rival : user).newPrimary(zone, z.account)).statusCode, 201)
        if (z.counts === undefined) continue
        const id = (await t.store.zones.findByName(zone, { accountIds: [(await t.store.accounts.findByName(z.account))!.id] }))!.id
        await t.store.healthChecks.start(id, '2026-01-01T00:00:00.000Z', 2)
        await t.store.healthChecks.finish(id, '2026-01-01T00:00:00.000Z', { state: 'COMPLETED', checks: '[]', counts: z.counts, message: null, finishedAt: '2026-01-01T00:00:01.000Z' })
        // A newer check still running does not hide the completed one.
        await t.store.healthChecks.start(id, '2026-01-02T00:00:00.000Z', 2)
      }
    })
    after(async () => await t?.close())

    const detail = async (query = ''): Promise<{ status: number, body: Json, link: string | undefined }> => {
      const res = await user.get(`/v1/dns_configuration/health_status/detail${query}`)
      return { status: res.statusCode, body: res.json(), link: res.headers.link as string | undefined }
    }

    it('lists a record per checked zone of the caller\'s accounts, lowest health score first', async () => {
      const { status, body, link } = await detail()
      assert.equal(status, 200)
      assert.equal(link, undefined)
      assert.deepEqual(body.healthStatusRecordsList.map((r: Json) => [r.zoneName, r.healthScore]), [
        ['gamma.example.org.', 8.82],
        ['beta.example.org.', 9.21],
        ['acmeish.example.net.', 9.87],
        ['alpha.example.org.', 10]
      ])
      assert.deepEqual(body.healthStatusRecordsList[3], {
        zoneName: 'alpha.example.org.', accountName: 'acme', okCount: 19, errorCount: 0, warningCount: 0, bestPracticeViolationCount: 0, infoCount: 1, naCount: 0, healthScore: 10
      })
    })

    it('matches q against the zone or the account name, sorts and orders, and counts one category', async () => {
      assert.deepEqual((await detail('?q=ACME&sort=zoneName&order=DESC')).body.healthStatusRecordsList.map((r: Json) => r.zoneName),
        ['gamma.example.org.', 'beta.example.org.', 'alpha.example.org.', 'acmeish.example.net.'])
      assert.deepEqual((await detail('?q=bigco')).body.healthStatusRecordsList.map((r: Json) => r.zoneName), ['acmeish.example.net.'])
      const ns = (await detail('?category=NS&sort=accountName')).body.healthStatusRecordsList
      assert.deepEqual(ns.map((r: Json) => [r.accountName, r.zoneName, r.okCount, r.errorCount, r.warningCount, r.healthScore]), [
        ['acme', 'alpha.example.org.', 7, 0, 0, 10],
        ['acme', 'beta.example.org.', 6, 1, 0, 8.57],
        ['acme', 'gamma.example.org.', 5, 0, 2, 8.57],
        ['bigco', 'acmeish.example.net.', 7, 0, 0, 10]
      ])
    })

    it('pages with the Link header\'s cursors, next and previous', async () => {
      const first = await detail('?limit=3')
      assert.equal(first.body.healthStatusRecordsList.length, 3)
      const next = /<([^>]+)>; rel="next"/.exec(first.link ?? '')?.[1]
      assert.ok(next !== undefined && next.startsWith('/v1/dns_configuration/health_status/detail?cursorOperation=NEXT&cursor='), first.link ?? 'no Link')
      assert.match(next, /&limit=3$/)
      const second = await user.get(next)
      assert.deepEqual(second.json().healthStatusRecordsList.map((r: Json) => r.zoneName), ['alpha.example.org.'])
      const previous = /<([^>]+)>; rel="previous"/.exec(second.headers.link as string)?.[1]
      assert.ok(previous !== undefined)
      assert.doesNotMatch(second.headers.link as string, /rel="next"/)
      const back = await user.get(previous)
      assert.deepEqual(back.json().healthStatusRecordsList.map((r: Json) => r.zoneName), ['gamma.example.org.', 'beta.example.org.', 'acmeish.example.net.'])
      assert.match(back.headers.link as string, /rel="next"/)
      assert.doesNotMatch(back.headers.link as string, /rel="previous"/)
    })

    it('refuses bad parameters with 400 and a message naming them', async () => {
      const cases: Array<[string, number, RegExp]> = [
        ['?sort=score', 70004, /^Invalid sort option: 'score'/],
        ['?order=UP', 53005, /order 'UP' must be ASC or DESC/],
        ['?category=WWW', 53005, /category 'WWW' must be one of ALL, NS, SOA, MX, DNSSEC, DOMAIN/],
        ['?limit=0', 53005, /limit '0' must be between 1 and 1000/],
        ['?limit=1001', 53005, /limit '1001' must be between 1 and 1000/],
        ['?cursor=bm9wZQ', 53005, /is not a cursor of this report/],
        ['?cursorOperation=SIDEWAYS&cursor=x', 53005, /cursorOperation 'SIDEWAYS' must be NEXT or PREVIOUS/]
      ]
      for (const [query, code, message] of cases) {
        const { status, body } = await detail(query)
        assert.equal(status, 400, query)
        assert.equal(body[0].errorCode, code, query)
        assert.match(body[0].errorMessage, message, query)
      }
    })

    it('sums the counts in the summary report, for q and a category', async () => {
      const all = (await user.get('/v1/dns_configuration/health_status/summary')).json()
      assert.deepEqual(all, { okCount: 19 + 16 + 14 + 18, errorCount: 2, warningCount: 2, bestPracticeViolationCount: 3, infoCount: 5, naCount: 1 })
      assert.deepEqual((await user.get('/v1/dns_configuration/health_status/summary?q=bigco&category=SOA')).json(),
        { okCount: 6, errorCount: 0, warningCount: 0, bestPracticeViolationCount: 1, infoCount: 0, naCount: 0 })
      const bad = await user.get('/v1/dns_configuration/health_status/summary?category=ANY')
      assert.equal(bad.statusCode, 400)
      assert.match(bad.json()[0].errorMessage, /category 'ANY' must be one of/)
    })

    it('reports each account\'s health: unsigned zones, zones with errors or never checked', async () => {
      const res = await user.get('/v1/accounts/healthchecks')
      assert.equal(res.statusCode, 200)
      const report = res.json()
      assert.equal(report.status, 'WARNING')
      assert.deepEqual(report.accountHealths.map((a: Json) => [a.accountName, a.status]), [['acme', 'WARNING'], ['bigco', 'WARNING']])
      const [dnssec, zones] = report.accountHealths[0].results
      assert.deepEqual(dnssec.messages, [{ status: 'WARNING', message: '4 of the account\'s 4 primary zones are not signed.' }])
      assert.deepEqual(zones.messages, [{
        status: 'WARNING',
        message: '2 zones have errors in their latest DNS health check: [beta.example.org., gamma.example.org.]; 1 zone has no completed DNS health check: [unchecked.example.org.].'
      }])
      assert.equal(report.accountHealths[1].results[1].status, 'OK')
      assert.equal(report.accountHealths[1].results[1].hint, undefined)
    })

    it('needs a token', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/dns_configuration/health_status/detail' })
      assert.equal(res.statusCode, 401)
    })
  })
}
