/**
 * The country code directional response counts report (the real API's page) and the class C
 * network ranking (a Zonal extension) over stored client counts, on both engines: every account
 * the caller reads or one, one zone, first and last day per row, countries as ISO codes with the
 * rest in "other", networks most first, paging, CSV, and the validation messages.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { REPORT_COUNTRY_CODES } from '../../../../src/reports/country-code.ts'
import type { ClientResponseRow, Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { csvRecords } from '../../../helpers/csv.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { reportCalls, type Caller, type ReportRow } from '../../../helpers/reports.ts'
import { client } from '../../../helpers/zones.ts'

const NOW = new Date('2026-11-25T12:00:00.000Z')
const CC = '/reports/dns_resolution/directional_response_counts/country_code'
const NET = '/reports/dns_resolution/directional_response_counts/class_c_network'

function row (day: string, zone: string, clientIp: string, country: string, responses: number): ClientResponseRow {
  const classC = clientIp === '' ? '' : clientIp.replace(/\.\d+$/, '.0')
  return { day, zone, clientIp, node: 'IAD', country, region: '', city: '', classC, responses }
}

/** Every listed code 0 except those given. */
function byCode (counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(REPORT_COUNTRY_CODES.map(c => [c, counts[c] ?? 0]))
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: directional response counts by country code and by class C network`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Caller
    let bob: Caller

    before(async () => {
      t = await buildTestApp(engine.name, { clock: () => NOW, tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'report-test', pollMs: 20 })) })
      await t.user('alice', 'beta', 'ReadOnly')
      alice = client(t.app, await t.user('alice', 'acme', 'Owner'))
      bob = client(t.app, await t.user('bob', 'other', 'Owner'))
      for (const zone of ['example.org', 'example.com']) assert.equal((await alice.newPrimary(zone, 'acme')).statusCode, 201)
      assert.equal((await bob.newPrimary('bob.example', 'other')).statusCode, 201)
      const admin = client(t.app, await t.user('carol', 'beta', 'Owner'))
      assert.equal((await admin.newPrimary('beta.example', 'beta')).statusCode, 201)
      await t.store.clientResponses.add([
        row('2026-11-24', 'example.org.', '10.33.162.158', 'united states', 200),
        row('2026-11-24', 'example.org.', '10.33.162.159', 'united kingdom', 50),
        row('2026-11-24', 'example.org.', '10.33.163.1', '', 7), // placed nowhere (loopback, private)
        row('2026-11-24', 'example.org.', '', '', 3), // counted past the bound of distinct clients
        row('2026-11-24', 'example.org.', '10.33.164.1', 'kosovo', 2), // XK: not a listed code
        row('2026-11-24', 'example.org.', '10.33.164.2', 'curaçao', 1), // CW (ICU also names AN so)
        row('2026-11-24', 'example.com.', '10.33.162.158', 'united states', 100),
        row('2026-11-14', 'example.com.', '10.33.162.158', 'united states', 9),
        row('2026-11-24', 'beta.example.', '192.0.2.1', 'japan', 40),
        row('2026-11-24', 'bob.example.', '10.33.162.158', 'united states', 60), // an account alice is not in
        row('2026-11-24', '', '10.33.162.158', 'united states', 70), // no zone answered
        row('2026-11-25', 'example.org.', '10.33.162.158', 'united states', 1) // today: not in the default range
      ])
      runner.start()
    })
    after(async () => {
      await runner?.stop()
      await t.close()
    })

    describe(`POST ${CC}`, () => {
      const calls = reportCalls(CC, /^CCDRC-[0-9a-f]{16}$/)
      const rows = async (body: Record<string, unknown>, query = ''): Promise<ReportRow[]> =>
        await calls.rows(alice, { countryCodeDirectionalResponseCounts: body }, query)
      const error = async (body: Record<string, unknown>, query = ''): Promise<[number, number, string]> =>
        await calls.error(alice, { countryCodeDirectionalResponseCounts: body }, query)

      it('yesterday, every account the caller reads: a row per zone with responses, by country code, the rest as other', async () => {
        const found = await rows({})
        assert.deepEqual(found.map(r => [r.accountName, r.zoneName, r.responseCountTotal, r.responseCountOther]), [
          ['beta', 'beta.example.', 40, 0],
          ['acme', 'example.com.', 100, 0],
          ['acme', 'example.org.', 263, 12]
        ])
        assert.deepEqual(found[2], {
          accountName: 'acme',
          reportStartDate: '2026-11-24',
          reportEndDate: '2026-11-24',
          zoneName: 'example.org.',
          responseCountTotal: 263,
          responseCountOther: 12,
          responseCountByCountryCode: byCode({ US: 200, GB: 50, CW: 1 })
        })
        assert.deepEqual(Object.keys(found[0]!.responseCountByCountryCode as object), REPORT_COUNTRY_CODES, 'every listed code, in the page\'s order')
        assert.equal((found[0]!.responseCountByCountryCode as Record<string, number>).JP, 40)
      })

      it('one account, one zone (with or without the final dot), a range: the zone\'s first and last day with responses', async () => {
        const found = await rows({ accountName: 'acme', reportStartDate: '2026-11-01', reportEndDate: '2026-11-24' })
        assert.deepEqual(found.map(r => [r.zoneName, r.reportStartDate, r.reportEndDate, r.responseCountTotal]), [
          ['example.com.', '2026-11-14', '2026-11-24', 109],
          ['example.org.', '2026-11-24', '2026-11-24', 263]
        ])
        assert.deepEqual((await rows({ zoneName: 'example.org', reportStartDate: '2026-11-25', reportEndDate: '2026-11-25' })).map(r => [r.zoneName, r.responseCountTotal, (r.responseCountByCountryCode as Record<string, number>).US]), [
          ['example.org.', 1, 1]
        ])
        assert.deepEqual(await rows({ accountName: 'acme', reportStartDate: '2026-11-20', reportEndDate: '2026-11-20' }), [])
      })

      it('pages with offset and limit; CSV with a column per listed code after Total and Other', async () => {
        const id = await calls.request(alice, { countryCodeDirectionalResponseCounts: {} }, '?offset=1&limit=1')
        const res = await calls.result(alice, id)
        assert.deepEqual((res.json() as ReportRow[]).map(r => r.zoneName), ['example.com.'])
        assert.equal(res.headers.link, `</v1${CC}?offset=2&limit=1>; rel="next", </v1${CC}?offset=0&limit=1>; rel="previous"`)
        const csv = await calls.result(alice, await calls.request(alice, { countryCodeDirectionalResponseCounts: { zoneName: 'example.org.' } }), { accept: 'text/csv' })
        assert.match(String(csv.headers['content-type']), /^text\/csv/)
        assert.equal(csv.body.split('\r\n')[0], ['accountName', 'reportStartDate', 'reportEndDate', 'zoneName', 'responseCountTotal', 'responseCountOther', ...REPORT_COUNTRY_CODES].join(','))
        const [record] = csvRecords(csv.body)
        assert.deepEqual(record, {
          accountName: 'acme',
          reportStartDate: '2026-11-24',
          reportEndDate: '2026-11-24',
          zoneName: 'example.org.',
          responseCountTotal: '263',
          responseCountOther: '12',
          ...Object.fromEntries(Object.entries(byCode({ US: 200, GB: 50, CW: 1 })).map(([k, v]) => [k, String(v)]))
        })
      })

      it('refuses bad requests with the real API\'s messages', async () => {
        assert.deepEqual(await error({ accountName: 'other' }), [400, 410003, 'You do not have access to the accountName.'])
        assert.deepEqual(await error({ reportStartDate: '2026-11-20', reportEndDate: '2026-11-19' }), [400, 53005, 'reportEndDate is before reportStartDate.'])
        assert.deepEqual(await error({ reportStartDate: '2026-11-3' }), [400, 55003, 'Date provided is not in a valid format.'])
        assert.deepEqual(await error({ reportStartDate: '2026-11-26', reportEndDate: '2026-11-26' }), [400, 53005, 'start or end date is a future date'])
        assert.deepEqual(await error({ reportStartDate: '2026-08-26', reportEndDate: '2026-08-27' }), [400, 53005, 'start date is older than 90 days'])
        assert.deepEqual(await error({ reportStartDate: '2026-08-27', reportEndDate: '2026-11-25' }), [400, 53005, 'The span between reportStartDate and reportEndDate is at most 90 days.'])
        assert.deepEqual(await error({}, '?offset=-1'), [400, 53005, 'Offset value is a negative value.'])
        assert.deepEqual(await error({}, '?limit=100001'), [400, 53005, 'Invalid input: limit \'100001\' must be between 1 and 100000.'])
        assert.deepEqual(await error({ zoneName: 'bob.example' }), [404, 1801, 'Zone does not exist in the system.'])
        assert.deepEqual(await error({ accountName: 'beta', zoneName: 'example.org' }), [404, 1801, 'Zone does not exist in the system.'])
        assert.deepEqual(await error({ zoneName: '*.example.org' }), [400, 53005, 'Invalid input: zoneName \'*.example.org\': wildcards are not supported.'])
        assert.deepEqual(await calls.error(alice, { countryCodeDirectionalResponseCounts: 'acme' }), [400, 53005, 'Invalid input: countryCodeDirectionalResponseCounts must be an object'])
      })

      it('shows another caller only the accounts they read', async () => {
        const found = await calls.rows(bob, { countryCodeDirectionalResponseCounts: {} })
        assert.deepEqual(found.map(r => [r.accountName, r.zoneName, r.responseCountTotal]), [['other', 'bob.example.', 60]])
      })
    })

    describe(`POST ${NET} (extension)`, () => {
      const calls = reportCalls(NET, /^CNDRC-[0-9a-f]{16}$/)
      const rows = async (body: Record<string, unknown>, query = ''): Promise<ReportRow[]> =>
        await calls.rows(alice, { classCNetworkDirectionalResponseCounts: body }, query)
      const error = async (body: Record<string, unknown>, query = ''): Promise<[number, number, string]> =>
        await calls.error(alice, { classCNetworkDirectionalResponseCounts: body }, query)
      const brief = (found: ReportRow[]): unknown[][] => found.map(r => [r.accountName, r.classCNetwork, r.reportStartDate, r.reportEndDate, r.responseCount])

      it('yesterday, every account the caller reads: networks with the most responses first, then by network', async () => {
        const found = await rows({})
        assert.deepEqual(found[0], { accountName: 'acme', reportStartDate: '2026-11-24', reportEndDate: '2026-11-24', classCNetwork: '10.33.162.0', responseCount: 350 })
        assert.deepEqual(brief(found), [
          ['acme', '10.33.162.0', '2026-11-24', '2026-11-24', 350],
          ['beta', '192.0.2.0', '2026-11-24', '2026-11-24', 40],
          ['acme', '10.33.163.0', '2026-11-24', '2026-11-24', 7],
          ['acme', '10.33.164.0', '2026-11-24', '2026-11-24', 3]
        ])
      })

      it('filters by account, zone and country (name or code); a range gives each network\'s first and last day', async () => {
        assert.deepEqual(brief(await rows({ accountName: 'acme', reportStartDate: '2026-11-01', reportEndDate: '2026-11-24', country: 'US' })), [
          ['acme', '10.33.162.0', '2026-11-14', '2026-11-24', 309]
        ])
        assert.deepEqual(brief(await rows({ zoneName: 'example.org.', country: 'United Kingdom' })), [['acme', '10.33.162.0', '2026-11-24', '2026-11-24', 50]])
        assert.deepEqual(brief(await rows({ accountName: 'beta' })), [['beta', '192.0.2.0', '2026-11-24', '2026-11-24', 40]])
        assert.deepEqual(await rows({ country: 'france' }), [])
      })

      it('pages with offset and limit; CSV with the fields as header', async () => {
        const res = await calls.result(alice, await calls.request(alice, { classCNetworkDirectionalResponseCounts: {} }, '?offset=1&limit=2'))
        assert.deepEqual((res.json() as ReportRow[]).map(r => r.classCNetwork), ['192.0.2.0', '10.33.163.0'])
        assert.equal(res.headers.link, `</v1${NET}?offset=3&limit=2>; rel="next", </v1${NET}?offset=0&limit=2>; rel="previous"`)
        const csv = await calls.result(alice, await calls.request(alice, { classCNetworkDirectionalResponseCounts: { accountName: 'beta' } }), { accept: 'text/csv' })
        assert.equal(csv.body.split('\r\n')[0], 'accountName,reportStartDate,reportEndDate,classCNetwork,responseCount')
        assert.deepEqual(csvRecords(csv.body), [{ accountName: 'beta', reportStartDate: '2026-11-24', reportEndDate: '2026-11-24', classCNetwork: '192.0.2.0', responseCount: '40' }])
      })

      it('refuses bad requests with the same messages as the other directional reports', async () => {
        assert.deepEqual(await error({ accountName: 'other' }), [400, 410003, 'You do not have access to the accountName.'])
        assert.deepEqual(await error({ reportStartDate: '2026-11-20', reportEndDate: '2026-11-19' }), [400, 53005, 'reportEndDate is before reportStartDate.'])
        assert.deepEqual(await error({ reportEndDate: '24/11/2026' }), [400, 55003, 'Date provided is not in a valid format.'])
        assert.deepEqual(await error({ reportStartDate: '2026-08-26', reportEndDate: '2026-08-27' }), [400, 53005, 'start date is older than 90 days'])
        assert.deepEqual(await error({}, '?limit=0'), [400, 53005, 'Invalid input: limit \'0\' must be between 1 and 100000.'])
        assert.deepEqual(await error({ zoneName: 'bob.example.' }), [404, 1801, 'Zone does not exist in the system.'])
        assert.deepEqual(await error({ country: 7 }), [400, 53005, 'Invalid input: country must be a string'])
      })
    })
  })
}
