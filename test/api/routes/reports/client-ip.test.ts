/**
 * The client IP directional response counts report over stored client counts, on both engines:
 * one network of the account's zones, summed over zones and days, first and last day per row,
 * filters, order, paging, CSV, and every validation message. test/cli/serve-client-counts.test.ts
 * sends real DNS queries.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { ClientResponseRow, Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { csvRecords } from '../../../helpers/csv.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client } from '../../../helpers/zones.ts'

const NOW = new Date('2026-11-25T12:00:00.000Z')
const CIP = '/reports/dns_resolution/directional_response_counts/client_ip'

type Caller = ReturnType<typeof client>
type Row = Record<string, unknown>

function row (day: string, zone: string, clientIp: string, node: string, place: [string, string, string], responses: number): ClientResponseRow {
  const classC = clientIp.includes(':') ? '2001:db8:1::' : clientIp.replace(/\.\d+$/, '.0')
  return { day, zone, clientIp, node, country: place[0], region: place[1], city: place[2], classC, responses }
}
const ASHBURN: [string, string, string] = ['united states', 'virginia', 'ashburn']
const FREDERICK: [string, string, string] = ['united states', 'maryland', 'frederick']
const LONDON: [string, string, string] = ['united kingdom', 'england', 'london']

for (const engine of await engineCases()) {
  describe(`${engine.name}: client IP directional response counts report`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Caller
    let bob: Caller

    before(async () => {
      t = await buildTestApp(engine.name, { clock: () => NOW, tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'report-test', pollMs: 20 })) })
      alice = client(t.app, await t.user('alice', 'acme', 'Owner'))
      bob = client(t.app, await t.user('bob', 'other', 'Owner'))
      for (const zone of ['example.org', 'example.com']) assert.equal((await alice.newPrimary(zone, 'acme')).statusCode, 201)
      assert.equal((await bob.newPrimary('bob.example', 'other')).statusCode, 201)
      await t.store.clientResponses.add([
        row('2026-11-24', 'example.org.', '10.33.162.158', 'IAD', ASHBURN, 200),
        row('2026-11-24', 'example.com.', '10.33.162.158', 'IAD', ASHBURN, 100),
        row('2026-11-14', 'example.org.', '10.33.162.158', 'IAD', ASHBURN, 7),
        row('2026-11-24', 'example.org.', '10.33.162.159', 'IAD', FREDERICK, 100),
        row('2026-11-24', 'example.org.', '10.33.162.16', 'IAD', LONDON, 5),
        row('2026-11-24', 'example.org.', '10.33.162.16', 'LHR', LONDON, 6),
        row('2026-11-24', 'example.org.', '10.33.163.1', 'IAD', ASHBURN, 50), // another network
        row('2026-11-24', 'bob.example.', '10.33.162.158', 'IAD', ASHBURN, 60), // another account's zone
        row('2026-11-24', '', '10.33.162.158', 'IAD', ASHBURN, 70), // no zone answered
        row('2026-11-25', 'example.org.', '10.33.162.158', 'IAD', ASHBURN, 1), // today: not in the default range
        row('2026-11-24', 'example.org.', '2001:db8:1:2::5', 'IAD', LONDON, 3)
      ])
      runner.start()
    })
    after(async () => {
      await runner?.stop()
      await t.close()
    })

    const request = async (who: Caller, body: unknown, query = ''): Promise<string> => {
      const res = await who.post(`${CIP}${query}`, body)
      assert.equal(res.statusCode, 201, res.body)
      const { requestId } = res.json() as { requestId: string }
      assert.match(requestId, /^CIP-[0-9a-f]{16}$/)
      return requestId
    }
    const result = async (who: Caller, id: string, headers: Record<string, string> = {}) => {
      for (;;) {
        const res = await who.send('GET', `/requests/${id}`, undefined, headers)
        if (res.statusCode !== 202) return res
        await new Promise(resolve => setTimeout(resolve, 20))
      }
    }
    const rows = async (body: Record<string, unknown>, query = ''): Promise<Row[]> => {
      const res = await result(alice, await request(alice, { clientIPDirectionalResponseCounts: { accountName: 'acme', classCNetwork: '10.33.162.0', ...body } }, query))
      assert.equal(res.statusCode, 200, res.body)
      return res.json() as Row[]
    }
    const error = async (body: unknown, query = ''): Promise<[number, number, string]> => {
      const res = await alice.post(`${CIP}${query}`, body)
      const [e] = res.json() as Array<{ errorCode: number, errorMessage: string }>
      return [res.statusCode, e!.errorCode, e!.errorMessage]
    }
    const brief = (found: Row[]): unknown[][] => found.map(r => [r.clientIP, r.authNode, r.country, r.city, r.reportStartDate, r.reportEndDate, r.responseCount])

    it('yesterday by default: one row per client, place and node over the account\'s zones, in address order', async () => {
      const found = await rows({})
      assert.deepEqual(found[0], {
        accountName: 'acme',
        reportStartDate: '2026-11-24',
        reportEndDate: '2026-11-24',
        classCNetwork: '10.33.162.0',
        clientIP: '10.33.162.16',
        country: 'united kingdom',
        city: 'london',
        region: 'england',
        authNode: 'IAD',
        responseCount: 5
      })
      assert.deepEqual(brief(found), [
        ['10.33.162.16', 'IAD', 'united kingdom', 'london', '2026-11-24', '2026-11-24', 5],
        ['10.33.162.16', 'LHR', 'united kingdom', 'london', '2026-11-24', '2026-11-24', 6],
        ['10.33.162.158', 'IAD', 'united states', 'ashburn', '2026-11-24', '2026-11-24', 300],
        ['10.33.162.159', 'IAD', 'united states', 'frederick', '2026-11-24', '2026-11-24', 100]
      ])
    })

    it('a range: the first and last day with responses per row; filters by zone, client, country (name or code), region, city', async () => {
      const range = { reportStartDate: '2026-11-01', reportEndDate: '2026-11-25' }
      assert.deepEqual(brief(await rows({ ...range, clientIP: '10.33.162.158' })), [
        ['10.33.162.158', 'IAD', 'united states', 'ashburn', '2026-11-14', '2026-11-25', 308]
      ])
      assert.deepEqual(brief(await rows({ ...range, zoneName: 'example.com' })), [
        ['10.33.162.158', 'IAD', 'united states', 'ashburn', '2026-11-24', '2026-11-24', 100]
      ])
      assert.deepEqual(brief(await rows({ country: 'US', region: 'Maryland' })).map(r => r[0]), ['10.33.162.159'])
      assert.deepEqual(brief(await rows({ country: 'United Kingdom', city: 'LONDON' })).map(r => r[1]), ['IAD', 'LHR'])
      assert.deepEqual(brief(await rows({ classCNetwork: '10.33.162.77/24', city: 'ashburn' })).map(r => r[0]), ['10.33.162.158'])
      assert.deepEqual(brief(await rows({ classCNetwork: '2001:db8:1:ffff::/48' })), [['2001:db8:1:2::5', 'IAD', 'united kingdom', 'london', '2026-11-24', '2026-11-24', 3]])
      assert.deepEqual(await rows({ classCNetwork: '10.33.164.0' }), [])
    })

    it('pages with offset and limit; CSV with the fields as header', async () => {
      const id = await request(alice, { clientIPDirectionalResponseCounts: { accountName: 'acme', classCNetwork: '10.33.162.0' } }, '?offset=1&limit=2')
      const res = await result(alice, id)
      assert.deepEqual((res.json() as Row[]).map(r => [r.clientIP, r.authNode]), [['10.33.162.16', 'LHR'], ['10.33.162.158', 'IAD']])
      assert.equal(res.headers.limit, '2')
      assert.equal(res.headers.link, `</v1${CIP}?offset=3&limit=2>; rel="next", </v1${CIP}?offset=0&limit=2>; rel="previous"`)
      const csv = await result(alice, await request(alice, { clientIPDirectionalResponseCounts: { accountName: 'acme', classCNetwork: '10.33.162.0', city: 'frederick' } }), { accept: 'text/csv' })
      assert.match(String(csv.headers['content-type']), /^text\/csv/)
      assert.equal(csv.body.split('\r\n')[0], 'accountName,reportStartDate,reportEndDate,classCNetwork,clientIP,country,city,region,authNode,responseCount')
      assert.deepEqual(csvRecords(csv.body), [{ accountName: 'acme', reportStartDate: '2026-11-24', reportEndDate: '2026-11-24', classCNetwork: '10.33.162.0', clientIP: '10.33.162.159', country: 'united states', city: 'frederick', region: 'maryland', authNode: 'IAD', responseCount: '100' }])
    })

    it('refuses bad requests with the spec\'s messages', async () => {
      const acme = (extra: Record<string, unknown>) => ({ clientIPDirectionalResponseCounts: { accountName: 'acme', classCNetwork: '10.33.162.0', ...extra } })
      assert.deepEqual(await error({ clientIPDirectionalResponseCounts: { classCNetwork: '10.33.162.0' } }), [400, 55001, 'Account name not provided.'])
      assert.deepEqual(await error({ clientIPDirectionalResponseCounts: { accountName: 'acme' } }), [400, 55001, 'Client Class C is not provided.'])
      assert.deepEqual(await error({}), [400, 55001, 'Account name not provided.'])
      assert.deepEqual(await error({ clientIPDirectionalResponseCounts: { accountName: 'other', classCNetwork: '10.33.162.0' } }), [400, 410003, 'You do not have access to the accountName.'])
      assert.deepEqual(await error(acme({ reportStartDate: '2026-11-20', reportEndDate: '2026-11-19' })), [400, 53005, 'reportEndDate is before reportStartDate.'])
      assert.deepEqual(await error(acme({ reportEndDate: '25/11/2026' })), [400, 55003, 'Date provided is not in a valid format.'])
      assert.deepEqual(await error(acme({ reportStartDate: '2026-11-26', reportEndDate: '2026-11-26' })), [400, 53005, 'start or end date is a future date'])
      assert.deepEqual(await error(acme({ reportStartDate: '2026-08-26', reportEndDate: '2026-08-27' })), [400, 53005, 'start date is older than 90 days'])
      assert.deepEqual(await error(acme({ reportStartDate: '2026-08-27', reportEndDate: '2026-11-25' })), [400, 53005, 'The span between reportStartDate and reportEndDate is at most 90 days.'])
      assert.deepEqual(await error(acme({}), '?offset=-1'), [400, 53005, 'Offset value is a negative value.'])
      assert.deepEqual(await error(acme({}), '?limit=10001'), [400, 53005, 'Invalid input: limit \'10001\' must be between 1 and 10000.'])
      assert.deepEqual(await error(acme({ classCNetwork: '10.33.162.0/16' })), [400, 53005, 'Invalid input: classCNetwork \'10.33.162.0/16\' is not an IPv4 /24 (a.b.c.0) or IPv6 /48 network'])
      assert.deepEqual(await error(acme({ classCNetwork: 'example.org' })), [400, 53005, 'Invalid input: classCNetwork \'example.org\' is not an IPv4 /24 (a.b.c.0) or IPv6 /48 network'])
      assert.deepEqual(await error(acme({ clientIP: '10.33.162' })), [400, 53005, 'Invalid input: clientIP \'10.33.162\' is not an IP address'])
      assert.deepEqual(await error(acme({ zoneName: 'bob.example' })), [404, 1801, 'Zone does not exist in the system.'])
      assert.deepEqual(await error(acme({ zoneName: '*.example.org' })), [400, 53005, 'Invalid input: zoneName \'*.example.org\': wildcards are not supported.'])
    })
  })
}
