/**
 * The asynchronous reports read from stored query counts: request (201 {requestId}), the task
 * computing it, and `GET /requests/{id}` (202 410004 while not ready, JSON or CSV, paging
 * headers, 404 for unknown or foreign ids), with every validation rule's message. Counts are
 * added through the store as the analytics flush adds them; test/cli/serve-reports.test.ts sends
 * real DNS queries.
 */
import assert from 'node:assert/strict'
import { gunzipSync } from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import type { Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { csvRecords } from '../../../helpers/csv.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { reportCalls, type Caller, type ReportRow } from '../../../helpers/reports.ts'
import { client } from '../../../helpers/zones.ts'

const NOW = new Date('2026-11-25T12:00:00.000Z')
const ZQV = '/reports/dns_resolution/query_volume/zone'
const ARC = '/reports/dns_resolution/advanced_response_codes'
const DAILY = '/reports/dns_resolution/query_volume/zone/daily'
const PROJECTED = '/v1/reports/dns_resolution/projected_query_volume'

type Row = ReportRow

for (const engine of await engineCases()) {
  describe(`${engine.name}: report requests over stored query counts`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Caller
    let bob: Caller

    before(async () => {
      t = await buildTestApp(engine.name, { clock: () => NOW, tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'report-test', pollMs: 20, maintenanceMs: 50 })) })
      alice = client(t.app, await t.user('alice', 'acme', 'Owner'))
      bob = client(t.app, await t.user('bob', 'other', 'Owner'))
      for (const zone of ['example.org', 'zz.example', 'aa.example']) assert.equal((await alice.newPrimary(zone, 'acme')).statusCode, 201)
      assert.equal((await bob.newPrimary('bob.example', 'other')).statusCode, 201)
      await t.store.queryCounts.add({
        volume: [
          { day: '2026-10-03', zone: 'example.org.', node: 'ams', counts: { rsp_total: 10, udp: 8, tcp: 2, ipv4: 10, ipv4_udp: 8, ipv4_tcp: 2, type_a: 7, type_aaaa: 3 } },
          { day: '2026-10-03', zone: 'example.org.', node: 'lax', counts: { rsp_total: 5, udp: 5, ipv6: 5, ipv6_udp: 5, type_https: 5 } },
          { day: '2026-10-20', zone: 'example.org.', node: 'ams', counts: { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_svcb: 1 } },
          { day: '2026-09-30', zone: 'example.org.', node: 'ams', counts: { rsp_total: 100, udp: 100 } },
          { day: '2026-10-15', zone: 'zz.example.', node: 'ams', counts: { rsp_total: 2, udp: 2 } },
          { day: '2026-10-15', zone: 'aa.example.', node: 'ams', counts: { rsp_total: 3, udp: 3 } },
          { day: '2026-10-15', zone: 'bob.example.', node: 'ams', counts: { rsp_total: 50, udp: 50 } },
          { day: '2026-10-15', zone: '', node: 'ams', counts: { rsp_total: 9, udp: 9 } },
          { day: '2026-11-24', zone: 'example.org.', node: 'ams', counts: { rsp_total: 40, udp: 40 } },
          { day: '2026-11-25', zone: 'example.org.', node: 'ams', counts: { rsp_total: 60, udp: 60 } },
          { day: '2026-11-10', zone: 'aa.example.', node: 'lax', counts: { rsp_total: 14, udp: 14 } }
        ],
        rcodes: [
          { day: '2026-11-24', zone: 'example.org.', node: 'ams', counts: { noerror: 30, nxdomain: 6, refused: 1, other: 3 } },
          { day: '2026-11-24', zone: 'example.org.', node: 'lax', counts: { noerror: 2, servfail: 1, formerr: 4, notimp: 5 } },
          { day: '2026-11-20', zone: 'example.org.', node: 'lax', counts: { noerror: 1000 } },
          { day: '2026-11-24', zone: 'aa.example.', node: 'ams', counts: { nxdomain: 2 } },
          { day: '2026-11-24', zone: 'bob.example.', node: 'ams', counts: { noerror: 77 } }
        ]
      })
    })
    after(async () => {
      await runner?.stop()
      await t.close()
    })

    const request = async (who: Caller, path: string, body: unknown, query = ''): Promise<string> => await reportCalls(path).request(who, body, query)
    const { result } = reportCalls('')
    const rows = async (who: Caller, path: string, body: unknown, query = ''): Promise<Row[]> => await reportCalls(path).rows(who, body, query)
    const error = async (who: Caller, path: string, body: unknown, query = ''): Promise<[number, number, string]> => await reportCalls(path).error(who, body, query)

    it('answers 202 with the real API\'s "not ready" object until the task has run, then the rows', async () => {
      const id = await request(alice, ZQV, {})
      assert.match(id, /^PQV-/)
      const pending = await alice.get(`/requests/${id}`)
      assert.equal(pending.statusCode, 202)
      assert.deepEqual(pending.json(), { errorCode: 410004, errorMessage: 'Report is not ready. Please try again later.' })
      runner.start()
      const done = await result(alice, id)
      assert.equal(done.statusCode, 200, done.body)
    })

    it('zone query volume: the previous month by default, per zone and month, every node summed, only the caller\'s zones', async () => {
      const found = await rows(alice, ZQV, {})
      assert.deepEqual(found.map(r => [r.zoneName, r.accountName, r.startDate, r.endDate, r.rspTotal]), [
        ['aa.example.', 'acme', '2026-10-15', '2026-10-15', 3],
        ['example.org.', 'acme', '2026-10-03', '2026-10-20', 16],
        ['zz.example.', 'acme', '2026-10-15', '2026-10-15', 2]
      ])
      const ex = found[1]!
      assert.deepEqual([ex.udpTotal, ex.updTotal, ex.tcpTotal, ex.ipv4Total, ex.ipv6Total, ex.ipv4udpTotal, ex.ipv4tcpTotal, ex.ipv6udpTotal, ex.ipv6tcpTotal], [14, 14, 2, 11, 5, 9, 2, 5, 0])
      assert.deepEqual([ex.recordA, ex.recordAAAA, ex.recordHttps, ex.recordSvcb, ex.recordMx], [7, 3, 5, 1, 0])
      assert.equal(Object.keys(ex).length, 4 + 9 + 1 + 33)
    })

    it('zone query volume: a range over two months gives a row per month; zoneName with or without the dot; sortFields', async () => {
      const body = { zoneQueryVolume: { startDate: '2026-09-01', endDate: '2026-11-25', zoneName: 'example.org' }, sortFields: { endDate: 'DESC' } }
      const found = await rows(alice, ZQV, body)
      assert.deepEqual(found.map(r => [r.startDate, r.endDate, r.rspTotal]), [['2026-11-24', '2026-11-25', 100], ['2026-10-03', '2026-10-20', 16], ['2026-09-30', '2026-09-30', 100]])
      const byTotal = await rows(alice, ZQV, { zoneQueryVolume: { startDate: '2026-10-01', endDate: '2026-10-31' }, sortFields: { rspTotal: 'DESC' } })
      assert.deepEqual(byTotal.map(r => r.zoneName), ['example.org.', 'aa.example.', 'zz.example.'])
      assert.deepEqual(await rows(alice, ZQV, { zoneQueryVolume: { ultra2: true } }), [])
    })

    it('pages: offset and limit, Limit and Results headers, Link to POST again', async () => {
      const id = await request(alice, ZQV, { zoneQueryVolume: { startDate: '2026-09-01', endDate: '2026-11-25' } }, '?offset=1&limit=2')
      const res = await result(alice, id)
      assert.equal(res.statusCode, 200)
      assert.deepEqual((res.json() as Row[]).map(r => [r.zoneName, r.startDate]), [['aa.example.', '2026-11-10'], ['example.org.', '2026-09-30']])
      assert.equal(res.headers.limit, '2')
      assert.equal(res.headers.results, '2')
      assert.equal(res.headers.link, '</v1/reports/dns_resolution/query_volume/zone?offset=3&limit=2>; rel="next", </v1/reports/dns_resolution/query_volume/zone?offset=0&limit=2>; rel="previous"')
      const last = await result(alice, await request(alice, ZQV, { zoneQueryVolume: { startDate: '2026-09-01', endDate: '2026-11-25' } }, '?offset=4&limit=2'))
      assert.deepEqual((last.json() as Row[]).map(r => [r.zoneName, r.startDate]), [['example.org.', '2026-11-24'], ['zz.example.', '2026-10-15']])
      assert.equal(last.headers.link, '</v1/reports/dns_resolution/query_volume/zone?offset=2&limit=2>; rel="previous"')
      const beyond = await result(alice, await request(alice, ZQV, { zoneQueryVolume: { startDate: '2026-09-01', endDate: '2026-11-25' } }, '?offset=6'))
      assert.deepEqual([beyond.json(), beyond.headers.results, beyond.headers.limit], [[], '0', '1000'])
    })

    it('CSV with Accept: text/csv: a header row of the field names, then the rows', async () => {
      const id = await request(alice, ZQV, {})
      const res = await result(alice, id, { accept: 'text/csv' })
      assert.match(String(res.headers['content-type']), /^text\/csv/)
      const parsed = csvRecords(res.body)
      assert.deepEqual(parsed.map(r => [r.zoneName, r.rspTotal, r.recordA]), [['aa.example.', '3', '0'], ['example.org.', '16', '7'], ['zz.example.', '2', '0']])
      assert.equal(res.body.split('\r\n')[0]!.split(',').slice(0, 6).join(','), 'zoneName,accountName,startDate,endDate,rspTotal,tcpTotal')
    })

    it('JSON as stored, gzip-compressed, to a client that accepts gzip; as text to one that does not', async () => {
      const id = await request(alice, ZQV, { zoneQueryVolume: { startDate: '2026-09-01', endDate: '2026-11-25' } })
      const plain = await result(alice, id)
      assert.equal(plain.headers['content-encoding'], undefined)
      assert.equal(plain.headers.vary, 'accept-encoding')
      assert.equal((plain.json() as Row[]).length, 6)
      for (const accept of ['gzip', 'br, gzip, deflate', 'x-gzip', '*', 'GZIP;q=0.5']) {
        const zipped = await result(alice, id, { 'accept-encoding': accept })
        assert.equal(zipped.headers['content-encoding'], 'gzip', accept)
        assert.equal(zipped.headers.results, '6')
        assert.deepEqual(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8')), plain.json(), accept)
      }
      for (const accept of ['gzip;q=0', 'identity', 'deflate, *;q=0', 'br, gzip;q=0, *']) {
        const unzipped = await result(alice, id, { 'accept-encoding': accept })
        assert.equal(unzipped.headers['content-encoding'], undefined, accept)
        assert.deepEqual(unzipped.json(), plain.json())
      }
    })

    it('404 for an unknown id and for another account\'s request', async () => {
      const res = await alice.get('/requests/PQV-0000000000000000')
      assert.equal(res.statusCode, 404)
      assert.deepEqual(res.json(), [{ errorCode: 404, errorMessage: 'No report with the given ID was requested before.' }])
      const id = await request(alice, ZQV, {})
      assert.equal((await result(alice, id)).statusCode, 200)
      const foreign = await bob.get(`/v1/requests/${id}`)
      assert.equal(foreign.statusCode, 404)
      const anonymous = await t.app.inject({ method: 'GET', url: `/requests/${id}` })
      assert.equal(anonymous.statusCode, 401)
    })

    it('a request past its 60 days answers 404, and the task runner\'s upkeep deletes it', async () => {
      const account = (await t.store.accounts.findByName('acme'))!
      await t.store.reportRequests.create({ id: 'PQV-00000000000000aa', kind: 'reports/dns_resolution/query_volume/zone', userId: null, taskId: null, accountIds: [account.id], params: { params: {}, accounts: [], offset: 0, limit: 1, requestedAt: '2026-09-01T00:00:00.000Z' }, createdAt: '2026-09-01T00:00:00.000Z', expiresAt: '2026-10-31T00:00:00.000Z' })
      assert.equal((await alice.get('/requests/PQV-00000000000000aa')).statusCode, 404)
      const deadline = Date.now() + 30_000
      while (await t.store.reportRequests.find('PQV-00000000000000aa') !== undefined && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 20))
      assert.equal(await t.store.reportRequests.find('PQV-00000000000000aa'), undefined)
      const kept = await request(alice, ZQV, {})
      assert.notEqual(await t.store.reportRequests.find(kept), undefined)
    })

    it('advanced response codes: per zone over the range, the six counts summed, the account required and checked', async () => {
      const found = await rows(alice, ARC, { advancedResponseCodes: { accountName: 'acme' } })
      assert.deepEqual(found, [
        { responseCount: 2, reportStartDate: '2026-11-24', reportEndDate: '2026-11-24', refusedCount: 0, notimpCount: 0, nxdomainCount: 2, servfailCount: 0, formerrCount: 0, noerrorCount: 0, accountName: 'acme', zoneName: 'aa.example.' },
        { responseCount: 49, reportStartDate: '2026-11-24', reportEndDate: '2026-11-24', refusedCount: 1, notimpCount: 5, nxdomainCount: 6, servfailCount: 1, formerrCount: 4, noerrorCount: 32, accountName: 'acme', zoneName: 'example.org.' }
      ])
      const week = await rows(alice, ARC, { advancedResponseCodes: { accountName: 'acme', zoneName: 'example.org.', reportStartDate: '2026-11-18', reportEndDate: '2026-11-25' } })
      assert.deepEqual(week.map(r => [r.zoneName, r.noerrorCount, r.responseCount]), [['example.org.', 1032, 1049]])
      assert.match((await request(alice, ARC, { advancedResponseCodes: { accountName: 'acme' } })), /^ARC-/)
    })

    it('zone daily query volume: one row per day of one zone', async () => {
      const found = await rows(alice, DAILY, { zoneDailyQueryVolume: { zoneName: 'example.org', startDate: '2026-10-01', endDate: '2026-10-31' } })
      assert.deepEqual(found.map(r => [r.zoneName, r.date, r.rspTotal, r.udpTotal]), [['example.org.', '2026-10-03', 15, 13], ['example.org.', '2026-10-20', 1, 1]])
      const desc = await rows(alice, DAILY, { zoneDailyQueryVolume: { zoneName: 'example.org', startDate: '2026-10-01', endDate: '2026-10-31' }, sortFields: { rspTotal: 'ASC' } })
      assert.deepEqual(desc.map(r => r.date), ['2026-10-20', '2026-10-03'])
    })

    it('projected query volume: this month per day, month to date and the 7- and 30-day projections', async () => {
      const found = await rows(alice, PROJECTED, { projectedQueryVolume: { accountName: 'acme' } })
      assert.equal(found.length, 25)
      const day = (n: number) => found.find(r => r.currentDay === n)!
      assert.deepEqual(day(1), { year: 2026, month: 'NOVEMBER', currentDay: 1, rspMtd: 0, rspMtd7dAvg: 0, rspMtd30dAvg: Math.round((16 + 3 + 2) / 30 * 29), ttlAvg: null, rspDaily: 0 })
      assert.deepEqual([day(10).rspMtd, day(10).rspDaily, day(24).rspMtd, day(25).rspMtd], [14, 14, 54, 114])
      assert.equal(day(25).rspMtd7dAvg, Math.round(114 + (40 + 60) / 7 * 5))
      // The 30 days ending on the 25th start on October 27th: October's responses are outside.
      assert.equal(day(25).rspMtd30dAvg, Math.round(114 + 114 / 30 * 5))
      const sorted = await rows(alice, PROJECTED, { projectedQueryVolume: {}, sortFields: { rspDaily: 'DESC' } })
      assert.deepEqual(sorted.slice(0, 3).map(r => r.currentDay), [25, 24, 10])
    })

    it('refuses bad requests with the spec\'s messages, before anything is recorded', async () => {
      const acme = (extra: Record<string, unknown>) => ({ advancedResponseCodes: { accountName: 'acme', ...extra } })
      assert.deepEqual(await error(alice, ARC, { advancedResponseCodes: {} }), [400, 55001, 'Account name not provided.'])
      assert.deepEqual(await error(alice, ARC, { advancedResponseCodes: { accountName: 'other' } }), [400, 410003, 'You do not have access to the accountName.'])
      assert.deepEqual(await error(alice, ARC, { advancedResponseCodes: { accountName: 'nosuch' } }), [400, 410003, 'You do not have access to the accountName.'])
      assert.deepEqual(await error(alice, ARC, acme({ reportStartDate: '2026-11-20', reportEndDate: '2026-11-19' })), [400, 53005, 'reportEndDate is before reportStartDate.'])
      assert.deepEqual(await error(alice, ARC, acme({ reportStartDate: '2026/11/20' })), [400, 55003, 'Date provided is not in a valid format.'])
      assert.deepEqual(await error(alice, ARC, acme({ reportStartDate: '2026-02-30' })), [400, 55003, 'Date provided is not in a valid format.'])
      assert.deepEqual(await error(alice, ARC, acme({ reportEndDate: '2026-11-26' })), [400, 53005, 'start or end date is a future date'])
      assert.deepEqual(await error(alice, ARC, acme({ reportStartDate: '2026-08-26', reportEndDate: '2026-08-27' })), [400, 53005, 'start date is older than 90 days'])
      assert.deepEqual(await error(alice, ARC, acme({}), '?offset=-1'), [400, 53005, 'Offset value is a negative value.'])
      assert.deepEqual(await error(alice, ARC, acme({}), '?limit=10001'), [400, 53005, 'Invalid input: limit \'10001\' must be between 1 and 10000.'])
      assert.deepEqual(await error(alice, ARC, acme({ zoneName: 'bob.example' })), [404, 1801, 'Zone does not exist in the system.'])
      assert.deepEqual(await error(alice, ARC, acme({ zoneName: '*.example' })), [400, 53005, 'Invalid input: zoneName \'*.example\': wildcards are not supported.'])
      assert.deepEqual(await error(alice, ZQV, { zoneQueryVolume: { startDate: '2025-09-01', endDate: '2026-10-01' } }), [400, 53005, 'The span between startDate and endDate is at most 13 months.'])
      assert.deepEqual(await error(alice, ZQV, { zoneQueryVolume: {} }, '?limit=100001'), [400, 53005, 'Invalid input: limit \'100001\' must be between 1 and 100000.'])
      assert.deepEqual(await error(alice, ZQV, { sortFields: { nope: 'ASC' } }), [400, 70004, 'Invalid sort option: nope; sortable columns: zoneName, startDate, endDate, rspTotal'])
      assert.deepEqual(await error(alice, ZQV, { zoneQueryVolume: { startDate: 20261001 } }), [400, 53005, 'Invalid input: startDate must be a string'])
      assert.deepEqual(await error(alice, DAILY, { zoneDailyQueryVolume: {} }), [400, 55001, 'Zone name not provided.'])
      const unauthenticated = await t.app.inject({ method: 'POST', url: ARC, payload: acme({}) })
      assert.equal(unauthenticated.statusCode, 401)
    })
  })
}
