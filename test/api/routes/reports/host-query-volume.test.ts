/**
 * The host query volume report and its advanced NXDOMAIN variant (same path, `advance=true&
 * reportType=ADVANCED_NXDOMAINS`) over stored per-host counts, on both engines: rows, defaults,
 * sorting, paging Link, CSV and every validation rule. test/cli/serve-host-reports.test.ts sends
 * real DNS queries.
 */
import assert from 'node:assert/strict'
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
const HQV = '/reports/dns_resolution/query_volume/host'
const NXD = '?advance=true&reportType=ADVANCED_NXDOMAINS'

type Row = ReportRow

for (const engine of await engineCases()) {
  describe(`${engine.name}: host query volume report`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Caller
    let bob: Caller

    before(async () => {
      t = await buildTestApp(engine.name, { clock: () => NOW, tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'host-report-test', pollMs: 20 })) })
      alice = client(t.app, await t.user('alice', 'acme', 'Owner'))
      bob = client(t.app, await t.user('bob', 'other', 'Owner'))
      for (const zone of ['example.org', 'aa.example']) assert.equal((await alice.newPrimary(zone, 'acme')).statusCode, 201)
      assert.equal((await bob.newPrimary('bob.example', 'other')).statusCode, 201)
      const row = (day: string, zone: string, host: string, node: string, counts: Record<string, number>): { day: string, zone: string, host: string, node: string, counts: Record<string, number> } => ({ day, zone, host, node, counts })
      await t.store.hostVolume.add([
        // The previous month's 1st to 7th (the default range).
        row('2026-10-02', 'example.org.', 'www.example.org.', 'ams', { rsp_total: 4, udp: 3, tcp: 1, ipv4: 4, ipv4_udp: 3, ipv4_tcp: 1, type_a: 3, type_aaaa: 1, noerror: 4 }),
        row('2026-10-06', 'example.org.', 'www.example.org.', 'lax', { rsp_total: 2, udp: 2, ipv6: 2, ipv6_udp: 2, type_https: 2, noerror: 2 }),
        row('2026-10-07', 'example.org.', 'mail.example.org.', 'ams', { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_mx: 1, noerror: 1 }),
        row('2026-10-08', 'example.org.', 'mail.example.org.', 'ams', { rsp_total: 50, udp: 50 }),
        // This week.
        row('2026-11-20', 'example.org.', 'nope.example.org.', 'ams', { rsp_total: 7, udp: 7, type_a: 7, nxdomain: 7 }),
        row('2026-11-24', 'example.org.', 'nope.example.org.', 'lax', { rsp_total: 3, udp: 3, type_txt: 3, nxdomain: 3 }),
        row('2026-11-24', 'example.org.', 'www.example.org.', 'ams', { rsp_total: 20, udp: 20, type_a: 20, noerror: 19, nxdomain: 1 }),
        row('2026-11-24', 'example.org.', '(other hosts)', 'ams', { rsp_total: 30, udp: 30, type_a: 30, nxdomain: 30 }),
        row('2026-11-22', 'aa.example.', 'x.aa.example.', 'ams', { rsp_total: 5, udp: 5, nxdomain: 5 }),
        row('2026-11-23', 'aa.example.', 'aa.example.', 'ams', { rsp_total: 9, udp: 9, noerror: 9 }),
        row('2026-11-24', 'bob.example.', 'y.bob.example.', 'ams', { rsp_total: 99, udp: 99, nxdomain: 99 }),
        // Outside the 30 days before today.
        row('2026-10-20', 'example.org.', 'old.example.org.', 'ams', { rsp_total: 8, udp: 8, nxdomain: 8 })
      ])
      runner.start()
    })
    after(async () => {
      await runner?.stop()
      await t.close()
    })

    const calls = reportCalls(HQV)
    const { request, result, rows } = calls
    const error = async (body: unknown, query = ''): Promise<[number, number, string]> => await calls.error(alice, body, query)

    it('one record per host over the range (the 1st to 7th of the previous month by default), every node summed, sorted by hostName then endDate', async () => {
      const id = await request(alice, { hostQueryVolume: { zoneName: 'example.org' } })
      assert.match(id, /^HQV-[0-9a-f]{16}$/)
      const found = (await result(alice, id)).json() as Row[]
      assert.deepEqual(found.map(r => [r.zoneName, r.hostName, r.accountName, r.startDate, r.endDate, r.rspTotal]), [
        ['example.org.', 'mail.example.org.', 'acme', '2026-10-07', '2026-10-07', 1],
        ['example.org.', 'www.example.org.', 'acme', '2026-10-02', '2026-10-06', 6]
      ])
      const www = found[1]!
      assert.deepEqual([www.udpTotal, www.updTotal, www.tcpTotal, www.ipv4Total, www.ipv6Total, www.ipv4udpTotal, www.ipv4tcpTotal, www.ipv6udpTotal, www.ipv6tcpTotal], [5, 5, 1, 4, 2, 3, 1, 2, 0])
      assert.deepEqual([www.recordA, www.recordAAAA, www.recordHttps, www.recordMx], [3, 1, 2, 0])
      assert.equal(Object.keys(www).length, 5 + 9 + 1 + 33)
    })

    it('hostName (FQDN or relative to the zone, any case), dates, sortFields; the overflow host is a row of its own', async () => {
      const week = { zoneName: 'example.org.', startDate: '2026-11-19', endDate: '2026-11-25' }
      assert.deepEqual((await rows(alice, { hostQueryVolume: week })).map(r => [r.hostName, r.startDate, r.endDate, r.rspTotal]), [
        ['(other hosts)', '2026-11-24', '2026-11-24', 30],
        ['nope.example.org.', '2026-11-20', '2026-11-24', 10],
        ['www.example.org.', '2026-11-24', '2026-11-24', 20]
      ])
      assert.deepEqual((await rows(alice, { hostQueryVolume: week, sortFields: { rspTotal: 'DESC' } })).map(r => r.hostName), ['(other hosts)', 'www.example.org.', 'nope.example.org.'])
      for (const hostName of ['NOPE.example.org', 'nope.example.org.', 'nope']) {
        assert.deepEqual((await rows(alice, { hostQueryVolume: { ...week, hostName } })).map(r => [r.hostName, r.rspTotal, r.recordA, r.recordTxt]), [['nope.example.org.', 10, 7, 3]], hostName)
      }
      assert.deepEqual(await rows(alice, { hostQueryVolume: { ...week, hostName: 'absent' } }), [])
    })

    it('pages with Limit, Results and Link; CSV with a header row', async () => {
      const body = { hostQueryVolume: { zoneName: 'example.org', startDate: '2026-11-19', endDate: '2026-11-25' } }
      const res = await result(alice, await request(alice, body, '?offset=1&limit=1'))
      assert.deepEqual((res.json() as Row[]).map(r => r.hostName), ['nope.example.org.'])
      assert.equal(res.headers.link, `</v1${HQV}?offset=2&limit=1>; rel="next", </v1${HQV}?offset=0&limit=1>; rel="previous"`)
      const csv = await result(alice, await request(alice, body), { accept: 'text/csv' })
      assert.match(String(csv.headers['content-type']), /^text\/csv/)
      assert.equal(csv.body.split('\r\n')[0]!.split(',').slice(0, 7).join(','), 'zoneName,hostName,accountName,startDate,endDate,rspTotal,tcpTotal')
      assert.deepEqual(csvRecords(csv.body).map(r => [r.hostName, r.rspTotal, r.recordA, r.recordTxt]), [['(other hosts)', '30', '30', '0'], ['nope.example.org.', '10', '7', '3'], ['www.example.org.', '20', '20', '0']])
    })

    it('ADVANCED_NXDOMAINS: HQV_NXD ids; hosts with NXDOMAIN answers in the zones asked, most first, with all their responses', async () => {
      const body = { hostQueryVolume: { startDate: '2026-10-26', endDate: '2026-11-24', zoneNames: ['example.org', 'aa.example.'] }, sortFields: { nxdomainCount: 'DESC' } }
      const id = await request(alice, body, `${NXD}&limit=3`)
      assert.match(id, /^HQV_NXD-[0-9a-f]{16}$/)
      const res = await result(alice, id)
      assert.deepEqual(res.json(), [
        { zoneName: 'example.org.', hostName: '(other hosts)', accountName: 'acme', startDate: '2026-11-24', endDate: '2026-11-24', nxdomainCount: 30, rspTotal: 30 },
        { zoneName: 'example.org.', hostName: 'nope.example.org.', accountName: 'acme', startDate: '2026-11-20', endDate: '2026-11-24', nxdomainCount: 10, rspTotal: 10 },
        { zoneName: 'aa.example.', hostName: 'x.aa.example.', accountName: 'acme', startDate: '2026-11-22', endDate: '2026-11-22', nxdomainCount: 5, rspTotal: 5 }
      ])
      assert.equal(res.headers.link, `</v1${HQV}?advance=true&reportType=ADVANCED_NXDOMAINS&offset=3&limit=3>; rel="next"`)
      const rest = await rows(alice, body, `${NXD}&offset=3&limit=3`)
      assert.deepEqual(rest.map(r => [r.hostName, r.nxdomainCount, r.rspTotal]), [['www.example.org.', 1, 20]])
      // Without zoneNames: every zone of the caller's accounts; one zone; the CSV has the variant's columns.
      assert.deepEqual((await rows(alice, { hostQueryVolume: { startDate: '2026-11-20', endDate: '2026-11-24' } }, NXD)).map(r => r.hostName), ['(other hosts)', 'nope.example.org.', 'x.aa.example.', 'www.example.org.'])
      const csv = await result(alice, await request(alice, { hostQueryVolume: { startDate: '2026-11-20', endDate: '2026-11-24', zoneNames: ['aa.example'] } }, NXD), { accept: 'text/csv' })
      assert.equal(csv.body, 'zoneName,hostName,accountName,startDate,endDate,nxdomainCount,rspTotal\r\naa.example.,x.aa.example.,acme,2026-11-22,2026-11-22,5,5\r\n')
      assert.deepEqual((await rows(alice, { hostQueryVolume: { startDate: '2026-11-20', endDate: '2026-11-24', zoneNames: ['example.org'] }, sortFields: { hostName: 'ASC' } }, NXD)).map(r => r.hostName), ['(other hosts)', 'nope.example.org.', 'www.example.org.'])
    })

    it('the Python client\'s request as it sends it: /v1, limit in the query', async () => {
      const res = await alice.post(`/v1${HQV}?advance=true&reportType=ADVANCED_NXDOMAINS&limit=100`, { hostQueryVolume: { startDate: '2026-11-24', endDate: '2026-11-24', zoneNames: ['example.org.'] }, sortFields: { nxdomainCount: 'DESC' } })
      assert.equal(res.statusCode, 201)
      const done = await result(alice, (res.json() as { requestId: string }).requestId)
      assert.deepEqual((done.json() as Row[]).map(r => [r.hostName, r.nxdomainCount]), [['(other hosts)', 30], ['nope.example.org.', 3], ['www.example.org.', 1]])
      assert.equal(done.headers.limit, '100')
    })

    it('another account\'s zone reads as missing; bob sees his own only', async () => {
      assert.deepEqual(await error({ hostQueryVolume: { zoneName: 'bob.example' } }), [404, 1801, 'Zone does not exist in the system.'])
      assert.deepEqual(await error({ hostQueryVolume: { startDate: '2026-11-20', endDate: '2026-11-24', zoneNames: ['bob.example'] } }, NXD), [404, 1801, 'Zone does not exist in the system.'])
      assert.deepEqual((await rows(bob, { hostQueryVolume: { startDate: '2026-11-20', endDate: '2026-11-24' } }, NXD)).map(r => [r.hostName, r.nxdomainCount]), [['y.bob.example.', 99]])
    })

    it('rejects bad requests with the page\'s rules', async () => {
      const week = { zoneName: 'example.org', startDate: '2026-11-19', endDate: '2026-11-25' }
      assert.deepEqual(await error({ hostQueryVolume: { startDate: '2026-11-19', endDate: '2026-11-25' } }), [400, 55001, 'Zone name not provided.'])
      assert.deepEqual(await error({ hostQueryVolume: { ...week, startDate: '2026-11-19x' } }), [400, 55003, 'Date provided is not in a valid format.'])
      assert.deepEqual(await error({ hostQueryVolume: { zoneName: 'example.org', startDate: '2026-11-19' } }), [400, 53005, 'Invalid input: give both startDate and endDate, or neither.'])
      assert.deepEqual(await error({ hostQueryVolume: { ...week, startDate: '2026-11-25', endDate: '2026-11-24' } }), [400, 53005, 'endDate is before startDate.'])
      assert.deepEqual(await error({ hostQueryVolume: { ...week, endDate: '2026-11-26' } }), [400, 53005, 'start or end date is a future date'])
      assert.deepEqual(await error({ hostQueryVolume: { ...week, startDate: '2026-11-18' } }), [400, 53005, 'The span between startDate and endDate is at most 7 days.'])
      assert.deepEqual(await error({ hostQueryVolume: { ...week, startDate: '2026-08-26', endDate: '2026-08-27' } }), [400, 53005, 'start date is older than 90 days'])
      assert.deepEqual(await error({ hostQueryVolume: week }, '?offset=-1'), [400, 53005, 'Offset value is a negative value.'])
      assert.deepEqual(await error({ hostQueryVolume: week, sortFields: { nxdomainCount: 'DESC' } }), [400, 70004, 'Invalid sort option: nxdomainCount; sortable columns: hostName, startDate, endDate, rspTotal'])
      assert.deepEqual(await error({ hostQueryVolume: { ...week, zoneName: '*.example.org' } }), [400, 53005, 'Invalid input: zoneName \'*.example.org\': wildcards are not supported.'])
      assert.deepEqual(await error({ hostQueryVolume: { ...week, accountName: 'other' } }), [400, 410003, 'You do not have access to the accountName.'])
      // The NXDOMAIN variant: 30 days, a known report type, a list of zones.
      assert.deepEqual(await error({ hostQueryVolume: { startDate: '2026-10-25', endDate: '2026-11-24' } }, NXD), [400, 53005, 'The span between startDate and endDate is at most 30 days.'])
      assert.deepEqual(await error({ hostQueryVolume: { startDate: '2026-11-20', endDate: '2026-11-24' } }, '?advance=true&reportType=NXDOMAINS'), [400, 53005, 'Invalid input: reportType \'NXDOMAINS\'; with advance=true the report type is ADVANCED_NXDOMAINS.'])
      assert.deepEqual(await error({ hostQueryVolume: { startDate: '2026-11-20', endDate: '2026-11-24', zoneNames: 'example.org' } }, NXD), [400, 53005, 'Invalid input: zoneNames must be a list of zone names'])
      assert.deepEqual(await error({ hostQueryVolume: { startDate: '2026-11-20', endDate: '2026-11-24' } }, `${NXD}&limit=100001`), [400, 53005, 'Invalid input: limit \'100001\' must be between 1 and 100000.'])
    })
  })
}
