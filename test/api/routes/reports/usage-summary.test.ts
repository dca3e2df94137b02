/**
 * The usage summary reports (monthly and daily) on both engines, with a test clock crossing a
 * month boundary: zones, records and pools created through the API (one zone created and
 * deleted within a day, records deleted the next day), query responses written through the
 * store's analytics write path (the one the capture's flush uses), the days closed by the
 * snapshot job; the figures equal what was created and queried. CSV read back; every
 * validation error; 401; another account's name refused with the spec's message.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { UsageDays } from '../../../../src/analytics/usage-days.ts'
import type { QueryCountRow } from '../../../../src/store/store.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { csvRecords } from '../../../helpers/csv.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client } from '../../../helpers/zones.ts'

const MONTHLY = '/reports/dns/usage_summary'
const DAILY = '/reports/dns/usage_summary/daily'
const ACCOUNT_ERROR = [{ errorCode: 410003, errorMessage: 'accountName is not provided; You do not have access to the accountName.' }]
const context = (name: string): string => `http://schemas.ultradns.com/${name}.jsonschema`

type Caller = ReturnType<typeof client>
type Usage = Record<string, string | number>

const quiet = { info () {}, warn () {} }

function volume (day: string, zone: string, node: string, n: number): QueryCountRow {
  return { day, zone, node, counts: { rsp_total: n, udp: n, ipv4: n, ipv4_udp: n, type_a: n } }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: usage summary reports`, { skip: engine.skip }, () => {
    let t: TestApp
    let now = new Date('2026-10-31T22:00:00.000Z')
    const clock = (): Date => now
    let alice: Caller
    let bob: Caller
    let job: UsageDays
    /** The records of zone a.example. at the end of October, of b.example. while it existed. */
    let aOctober = 0
    let bRecords = 0
    let aNovember = 0

    const recordCount = async (zone: string): Promise<number> => {
      const res = await alice.get(`/zones/${zone}`)
      assert.equal(res.statusCode, 200, res.body)
      return (res.json() as { properties: { recordCount: number } }).properties.recordCount
    }
    const ok = async (res: { statusCode: number, body: string }, status = 201): Promise<void> => {
      assert.equal(res.statusCode, status, res.body)
    }
    const monthly = async (who: Caller, account: string): Promise<Usage[]> => {
      const res = await who.get(`${MONTHLY}?accountName=${account}`)
      assert.equal(res.statusCode, 200, res.body)
      return (res.json() as { usageSummary: Usage[] }).usageSummary
    }
    const daily = async (who: Caller, body: unknown, query = ''): Promise<Usage[]> => {
      const res = await who.send('GET', `${DAILY}${query}`, body, { 'content-type': 'application/json' })
      assert.equal(res.statusCode, 200, res.body)
      return (res.json() as { usageSummary: Usage[] }).usageSummary
    }

    before(async () => {
      // Tokens outlive the days the clock moves through.
      t = await buildTestApp(engine.name, { clock, auth: { accessTokenTtl: 30 * 86400 } })
      t.store.usage.useClock(clock)
      job = new UsageDays(t.store.usage, { logger: quiet, now: clock })
      alice = client(t.app, await t.user('alice', 'acme', 'Owner'))
      bob = client(t.app, await t.user('bob', 'other', 'Owner'))
      await t.user('alice', 'side', 'Owner')

      // October 31st: a.example. with records and pools; b.example. created and deleted.
      await ok(await alice.newPrimary('a.example', 'acme'))
      await ok(await alice.post('/zones/a.example/rrsets/A/www', { ttl: 300, rdata: ['192.0.2.1', '192.0.2.2'] }))
      await ok(await alice.post('/zones/a.example/rrsets/A/sb', {
        ttl: 300, rdata: ['192.0.2.11', '192.0.2.12'], profile: { '@context': context('SBPool'), rdataInfo: [{}, {}] }
      }))
      await ok(await alice.post('/zones/a.example/rrsets/A/tc', { ttl: 300, rdata: ['192.0.2.21'], profile: { '@context': context('TCPool'), rdataInfo: [{}] } }))
      await ok(await alice.post('/zones/a.example/rrsets/TXT/dir', {
        ttl: 300, rdata: ['v=spf1 -all'], profile: { '@context': context('DirPool'), rdataInfo: [{ allNonConfigured: true }] }
      }))
      aOctober = await recordCount('a.example.')
      await ok(await alice.newPrimary('b.example', 'acme'))
      await ok(await alice.post('/zones/b.example/rrsets/MX/@', { ttl: 300, rdata: ['10 mail.b.example.'] }))
      bRecords = await recordCount('b.example.')
      await ok(await alice.delete('/zones/b.example'), 204)
      await ok(await bob.newPrimary('bob.example', 'other'))
      await ok(await alice.newPrimary('side.example', 'side'))
      await t.store.queryCounts.add({
        volume: [
          volume('2026-10-31', 'a.example.', 'n1', 10),
          volume('2026-10-31', 'a.example.', 'n2', 4),
          volume('2026-10-31', 'b.example.', 'n1', 3),
          volume('2026-10-31', 'bob.example.', 'n1', 99),
          volume('2026-10-31', '', 'n1', 1000)
        ],
        rcodes: []
      })

      // November 1st: the day closed by the job; www deleted, an SF pool added.
      now = new Date('2026-11-01T01:00:00.000Z')
      await job.run()
      await ok(await alice.delete('/zones/a.example/rrsets/A/www'), 204)
      await ok(await alice.post('/zones/a.example/rrsets/A/sf', {
        ttl: 300, rdata: ['192.0.2.31'], profile: { '@context': context('SFPool'), regionFailureSensitivity: 'LOW', monitor: { method: 'GET', url: 'https://a.example/' }, backupRecord: { rdata: '192.0.2.39' } }
      }))
      aNovember = await recordCount('a.example.')
      await t.store.queryCounts.add({ volume: [volume('2026-11-01', 'a.example.', 'n1', 5)], rcodes: [] })
    })
    after(async () => {
      await job?.stop()
      await t?.close()
    })

    it('records what was created: a.example. and b.example. of the records asked for', () => {
      // Records of NEW zones are their SOA and NS records; then 2 A, 2 SB, 1 TC, 1 DIR, 1 MX.
      assert.equal(bRecords - 1, aOctober - 6)
      assert.equal(aNovember, aOctober - 2 + 1)
    })

    it('GET /reports/dns/usage_summary: 36 months, the current first, peaks per month (a zone deleted the day it was created counts), query responses summed', async () => {
      const months = await monthly(alice, 'acme')
      assert.equal(months.length, 36)
      assert.deepEqual(months.map(m => m.month).slice(0, 3), ['November 2026', 'October 2026', 'September 2026'])
      assert.equal(months[35]!.month, 'December 2023')
      assert.deepEqual(months[0], {
        accountName: 'acme',
        month: 'November 2026',
        domainsCount: 1,
        // The day began with October's last value; www went, then the SF record came.
        recordsCount: aOctober,
        queryResponsesCount: 5,
        urlForwardCount: 0,
        failoverPoolRecordsCount: 3,
        trafficControllerRecordsCount: 1,
        directionalRecordsCount: 1
      })
      assert.deepEqual(months[1], {
        accountName: 'acme',
        month: 'October 2026',
        domainsCount: 2,
        recordsCount: aOctober + bRecords,
        queryResponsesCount: 17,
        urlForwardCount: 0,
        failoverPoolRecordsCount: 2,
        trafficControllerRecordsCount: 1,
        directionalRecordsCount: 1
      })
      for (const m of months.slice(2)) {
        assert.deepEqual([m.domainsCount, m.recordsCount, m.queryResponsesCount, m.failoverPoolRecordsCount], [0, 0, 0, 0])
      }
      const other = await monthly(bob, 'OTHER')
      assert.deepEqual([other[1]!.accountName, other[1]!.domainsCount, other[1]!.queryResponsesCount], ['other', 1, 99])
    })

    it('GET /reports/dns/usage_summary/daily: one element per day up to today, peaks of the day, closed days and today alike', async () => {
      const october = await daily(alice, { month: 'October 2026', accountNames: ['acme'] })
      assert.equal(october.length, 31)
      assert.deepEqual(october.map(d => d.date).slice(0, 2), ['2026-10-01', '2026-10-02'])
      assert.deepEqual(october[30], {
        month: 'October 2026',
        date: '2026-10-31',
        domainsCount: 2,
        recordsCount: aOctober + bRecords,
        queryResponsesCount: 17,
        urlForwardCount: 0,
        emailForwardCount: 0,
        failoverPoolRecordsCount: 2,
        trafficControllerRecordsCount: 1,
        directionalRecordsCount: 1
      })
      assert.ok(october.slice(0, 30).every(d => d.domainsCount === 0 && d.queryResponsesCount === 0))
      const november = await daily(alice, { month: 'november 2026' }, '?accountName=acme')
      assert.deepEqual(november.map(d => [d.date, d.domainsCount, d.recordsCount, d.failoverPoolRecordsCount, d.queryResponsesCount]), [
        ['2026-11-01', 1, aOctober, 3, 5]
      ])
    })

    it('the next day: the job closes the day before and carries the values into the new one', async () => {
      now = new Date('2026-11-02T03:00:00.000Z')
      await job.run()
      // Counts flushed after the close are not lost to the current day.
      await t.store.queryCounts.add({ volume: [volume('2026-11-02', 'a.example.', 'n2', 7), volume('2026-11-01', 'a.example.', 'n2', 2)], rcodes: [] })
      await job.run()
      const november = await daily(alice, { month: 'November 2026', accountNames: ['acme'] })
      assert.deepEqual(november.map(d => [d.date, d.domainsCount, d.recordsCount, d.failoverPoolRecordsCount, d.trafficControllerRecordsCount, d.directionalRecordsCount, d.queryResponsesCount]), [
        ['2026-11-01', 1, aOctober, 3, 1, 1, 7],
        ['2026-11-02', 1, aNovember, 3, 1, 1, 7]
      ])
      const months = await monthly(alice, 'acme')
      assert.deepEqual([months[0]!.recordsCount, months[0]!.queryResponsesCount, months[1]!.queryResponsesCount], [aOctober, 14, 17])
    })

    it('several accounts are summed per day', async () => {
      const both = await daily(alice, { month: 'November 2026', accountNames: ['acme', 'side'] })
      const one = await daily(alice, { month: 'November 2026', accountNames: ['side'] })
      assert.deepEqual(one.map(d => d.domainsCount), [1, 1])
      assert.deepEqual(both.map(d => d.domainsCount), [2, 2])
      assert.deepEqual(both.map(d => d.recordsCount), [aOctober + (one[0]!.recordsCount as number), aNovember + (one[1]!.recordsCount as number)])
    })

    it('CSV with Accept: text/csv, read back equal to the JSON', async () => {
      const res = await alice.send('GET', `${MONTHLY}?accountName=acme`, undefined, { accept: 'text/csv' })
      assert.equal(res.statusCode, 200, res.body)
      assert.match(res.headers['content-type'] as string, /^text\/csv/)
      const rows = csvRecords(res.body)
      const json = await monthly(alice, 'acme')
      assert.equal(rows.length, 36)
      assert.deepEqual(rows.map(r => [r['Account Name'], r.Month, Number(r['Domains Count']), Number(r['Records Count']), Number(r['Query Responses Count']),
        Number(r['URLForward Count']), Number(r['Failover Pool Records Count']), Number(r['TrafficController Records Count']), Number(r['Directional Records Count'])]),
      json.map(m => [m.accountName, m.month, m.domainsCount, m.recordsCount, m.queryResponsesCount, m.urlForwardCount, m.failoverPoolRecordsCount, m.trafficControllerRecordsCount, m.directionalRecordsCount]))
      const d = await alice.send('GET', DAILY, { month: 'November 2026', accountNames: ['acme'] }, { accept: 'text/csv', 'content-type': 'application/json' })
      assert.equal(d.statusCode, 200, d.body)
      const days = csvRecords(d.body)
      const djson = await daily(alice, { month: 'November 2026', accountNames: ['acme'] })
      assert.deepEqual(days.map(r => [r.Month, r.Date, Number(r.Domains), Number(r.Records), Number(r['Query Responses']), Number(r['URL Forward']), Number(r['Email Forward']),
        Number(r['Failover Pool Records']), Number(r['TC Records']), Number(r['Directional Records'])]),
      djson.map(m => [m.month, m.date, m.domainsCount, m.recordsCount, m.queryResponsesCount, m.urlForwardCount, m.emailForwardCount, m.failoverPoolRecordsCount, m.trafficControllerRecordsCount, m.directionalRecordsCount]))
    })

    it('400 with the spec\'s message when accountName is missing, unknown or another account\'s', async () => {
      for (const url of [MONTHLY, `${MONTHLY}?accountName=`, `${MONTHLY}?accountName=other`, `${MONTHLY}?accountName=nobody`]) {
        const res = await alice.get(url)
        assert.equal(res.statusCode, 400, url)
        assert.deepEqual(res.json(), ACCOUNT_ERROR, url)
      }
      for (const [body, query] of [[{ month: 'November 2026' }, ''], [{ month: 'November 2026', accountNames: [] }, ''], [{ month: 'November 2026', accountNames: ['acme', 'other'] }, ''],
        [{ month: 'November 2026' }, '?accountName=other']] as const) {
        const res = await alice.send('GET', `${DAILY}${query}`, body, { 'content-type': 'application/json' })
        assert.equal(res.statusCode, 400, JSON.stringify(body))
        assert.deepEqual(res.json(), ACCOUNT_ERROR, JSON.stringify(body))
      }
    })

    it('400 for a month that is not a month name and year, in the future, or older than 13 months; a bad body', async () => {
      const cases: Array<[unknown, number, string]> = [
        [{ accountNames: ['acme'] }, 53005, 'Invalid input: month is required: a month name and year, such as March 2023.'],
        [{ month: 'Smarch 2026', accountNames: ['acme'] }, 55003, 'Invalid input: month \'Smarch 2026\' is not a month name and year, such as March 2023.'],
        [{ month: '2026-11', accountNames: ['acme'] }, 55003, 'Invalid input: month \'2026-11\' is not a month name and year, such as March 2023.'],
        [{ month: 202611, accountNames: ['acme'] }, 55003, 'Invalid input: month \'202611\' is not a month name and year, such as March 2023.'],
        [{ month: 'December 2026', accountNames: ['acme'] }, 53005, 'Invalid input: month \'December 2026\' is in the future.'],
        [{ month: 'October 2025', accountNames: ['acme'] }, 53005, 'Invalid input: month \'October 2025\' is not within the last 13 months.'],
        [{ month: 'November 2026', accountNames: 'acme' }, 53005, 'Invalid input: accountNames must be a list of account names.'],
        [{ month: 'November 2026', accountNames: Array.from({ length: 101 }, () => 'acme') }, 53005, 'Invalid input: accountNames holds at most 100 names.'],
        [['November 2026'], 53005, 'Invalid input: the body is a JSON object {month, accountNames}.'],
        ['{"month": ', 53005, 'Invalid input: the request body is not valid JSON.']
      ]
      for (const [body, errorCode, errorMessage] of cases) {
        const res = await alice.send('GET', DAILY, typeof body === 'string' ? body : JSON.stringify(body), { 'content-type': 'application/json' })
        assert.equal(res.statusCode, 400, JSON.stringify(body))
        assert.deepEqual(res.json(), [{ errorCode, errorMessage }], JSON.stringify(body))
      }
      // The oldest month allowed: the 13th counting the current one.
      assert.equal((await daily(alice, { month: 'November 2025', accountNames: ['acme'] })).length, 30)
    })

    it('401 without a token or with a bad one', async () => {
      for (const headers of [{}, { authorization: 'Bearer nope' }]) {
        for (const url of [`${MONTHLY}?accountName=acme`, DAILY]) {
          const res = await t.app.inject({ method: 'GET', url, headers })
          assert.equal(res.statusCode, 401)
          assert.equal((res.json() as { errorMessage: string }).errorMessage, 'Unauthorized. Token not found, expired or invalid.')
        }
      }
    })
  })
}
