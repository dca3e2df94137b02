/**
 * The raw query sample report over stored samples, on both engines: the account's zones only,
 * the time range (yesterday by default), the order (packet time, then packet id), every field
 * as the report spells it, paging, CSV, and every validation message. test/cli/serve-raw-queries.test.ts
 * requests it from the running service after real DNS queries.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { QueryFlag } from '../../../../src/dns/server/query-capture.ts'
import type { RawQueryRow, Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { csvRecords } from '../../../helpers/csv.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { reportCalls, type Caller, type ReportRow } from '../../../helpers/reports.ts'
import { client } from '../../../helpers/zones.ts'

const NOW = new Date('2026-11-25T12:00:00.000Z')
const RQS = '/reports/dns_resolution/sample/raw_query'

type Row = ReportRow

let nextId = 1
function sample (time: string, over: Partial<RawQueryRow> = {}): RawQueryRow {
  return {
    day: time.slice(0, 10),
    packetId: nextId++,
    time,
    node: 'ams',
    zone: 'example.org.',
    qname: 'www.example.org.',
    qtype: 1,
    opcode: 0,
    rcode: 0,
    flags: QueryFlag.AA,
    transport: 'udp',
    ipVersion: 4,
    address: '192.0.2.10',
    port: 40000,
    ecsAddress: '',
    ecsPrefix: 0,
    dnsId: 100,
    qdcount: 1,
    ancount: 1,
    nscount: 0,
    arcount: 0,
    requestSize: 33,
    responseSize: 49,
    responseMicros: 120,
    ...over
  }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: raw query sample report`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Caller
    let bob: Caller
    const stored: RawQueryRow[] = []

    before(async () => {
      t = await buildTestApp(engine.name, { clock: () => NOW, tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'raw-report-test', pollMs: 20 })) })
      alice = client(t.app, await t.user('alice', 'acme', 'Owner'))
      bob = client(t.app, await t.user('bob', 'other', 'Owner'))
      for (const zone of ['example.org', 'org2.example', 'tld']) assert.equal((await alice.newPrimary(zone, 'acme')).statusCode, 201)
      assert.equal((await bob.newPrimary('bob.example', 'other')).statusCode, 201)
      stored.push(
        // Yesterday: in the default range. Two at one millisecond: ordered by packet id.
        sample('2026-11-24T08:00:00.000Z', { packetId: 9_000_000_000_000_001, dnsId: 1, flags: QueryFlag.RD | QueryFlag.CD | QueryFlag.EDNS | QueryFlag.AA | QueryFlag.AD, ecsAddress: '81.2.69.0', ecsPrefix: 24 }),
        sample('2026-11-24T08:00:00.000Z', { packetId: 9_000_000_000_000_000, dnsId: 2, transport: 'tcp', ipVersion: 6, address: '2001:db8::53', port: 53001, qtype: 28, rcode: 3, flags: QueryFlag.TC | QueryFlag.RA, ancount: 0, nscount: 1, arcount: 1 }),
        sample('2026-11-24T23:59:59.999Z', { dnsId: 3, zone: 'tld.', qname: 'tld.', qtype: 6 }),
        sample('2026-11-24T10:00:00.000Z', { dnsId: 4, zone: 'org2.example.', qname: 'a.org2.example.', qtype: 65 }),
        sample('2026-11-24T10:00:00.000Z', { dnsId: 5, zone: 'bob.example.', qname: 'bob.example.' }),
        sample('2026-11-24T11:00:00.000Z', { dnsId: 6, zone: '', qname: 'example.com.', rcode: 5 }),
        // Today and the day before yesterday: outside the default range.
        sample('2026-11-25T01:00:00.000Z', { dnsId: 7 }),
        sample('2026-11-23T23:59:59.999Z', { dnsId: 8 })
      )
      assert.equal(await t.store.rawQueries.add(stored), stored.length)
      runner.start()
    })
    after(async () => {
      await runner?.stop()
      await t.close()
    })

    const { request, result, rows, error } = reportCalls(RQS, /^RQS-[0-9a-f]{16}$/)

    it('yesterday by default: the account\'s zones only, by packet time then packet id, every field', async () => {
      const found = await rows(alice, { rawQuerySample: { accountName: 'acme' } })
      assert.deepEqual(found.map(r => r.dnsId), [2, 1, 4, 3])
      assert.deepEqual(found[0], {
        accountName: 'acme',
        udpTcpIndicator: 'TCP',
        tldSldIndicator: 'SLD',
        queryResponseIndicator: 'Response',
        responseMicroSet: 120,
        ucapPacketErr: 0,
        resolverPort: 53001,
        resolverIP: '2001:db8::53',
        truncatedIndicator: 1,
        recursionDesired: 0,
        recursionAvailable: 1,
        rcode: 3,
        qdcount: 1,
        packetId: 9_000_000_000_000_000,
        packetDatetime: '2026-11-24T08:00:00.000Z',
        opcode: 0,
        dnsMsgLength: 49,
        dnsId: 2,
        clientPort: 53001,
        clientIp: '2001:db8::53',
        checkingDisabled: 0,
        authenticDataIndicator: 0,
        authenticAnswerIndicator: 0,
        arcount: 1,
        ancount: 0,
        nscount: 1,
        qname: 'www.example.org.',
        qtype: 'AAAA',
        zoneName: 'example.org.',
        ipVersion: 6
      })
      const ecs = found[1]!
      assert.deepEqual([ecs.udpTcpIndicator, ecs.resolverIP, ecs.clientIp, ecs.clientPort, ecs.recursionDesired, ecs.checkingDisabled, ecs.authenticDataIndicator, ecs.authenticAnswerIndicator, ecs.truncatedIndicator, ecs.recursionAvailable, ecs.ipVersion, ecs.packetId],
        ['UDP', '192.0.2.10', '81.2.69.0', 40000, 1, 1, 1, 1, 0, 0, 4, 9_000_000_000_000_001])
      assert.deepEqual([found[2]!.qtype, found[2]!.zoneName], ['HTTPS', 'org2.example.'])
      assert.deepEqual([found[3]!.tldSldIndicator, found[3]!.qtype, found[3]!.packetDatetime], ['TLD', 'SOA', '2026-11-24T23:59:59.999Z'])
      assert.deepEqual((await rows(bob, { rawQuerySample: { accountName: 'other' } })).map(r => [r.dnsId, r.accountName]), [[5, 'other']])
    })

    it('a zone, and a range given to the millisecond (both ends included)', async () => {
      const found = await rows(alice, { rawQuerySample: { accountName: 'acme', zoneName: 'example.org', packetStartDateTime: '2026-11-23T23:59:59.999Z', packetEndDateTime: '2026-11-25T01:00:00.000Z' } })
      assert.deepEqual(found.map(r => r.dnsId), [8, 2, 1, 7])
      const inner = await rows(alice, { rawQuerySample: { accountName: 'acme', packetStartDateTime: '2026-11-24T08:00:00.001+00:00', packetEndDateTime: '2026-11-24T23:59:59.998Z' } })
      assert.deepEqual(inner.map(r => r.dnsId), [4])
    })

    it('a start alone runs to now; an end alone starts a day before it', async () => {
      const since = await rows(alice, { rawQuerySample: { accountName: 'acme', zoneName: 'example.org', packetStartDateTime: '2026-11-24T09:00:00.000Z' } })
      assert.deepEqual(since.map(r => r.dnsId), [7])
      const until = await rows(alice, { rawQuerySample: { accountName: 'acme', zoneName: 'example.org', packetEndDateTime: '2026-11-24T08:00:00.000Z' } })
      assert.deepEqual(until.map(r => r.dnsId), [8, 2, 1])
    })

    it('pages with offset and limit, and answers CSV with the fields as header', async () => {
      const id = await request(alice, { rawQuerySample: { accountName: 'acme' } }, '?offset=1&limit=2')
      const res = await result(alice, id)
      assert.deepEqual((res.json() as Row[]).map(r => r.dnsId), [1, 4])
      assert.equal(res.headers.limit, '2')
      assert.equal(res.headers.link, '</v1/reports/dns_resolution/sample/raw_query?offset=3&limit=2>; rel="next", </v1/reports/dns_resolution/sample/raw_query?offset=0&limit=2>; rel="previous"')
      const csv = await result(alice, await request(alice, { rawQuerySample: { accountName: 'acme' } }), { accept: 'text/csv' })
      assert.match(String(csv.headers['content-type']), /^text\/csv/)
      assert.equal(csv.body.split('\r\n')[0], 'accountName,udpTcpIndicator,tldSldIndicator,queryResponseIndicator,responseMicroSet,ucapPacketErr,resolverPort,resolverIP,truncatedIndicator,recursionDesired,recursionAvailable,rcode,qdcount,packetId,packetDatetime,opcode,dnsMsgLength,dnsId,clientPort,clientIp,checkingDisabled,authenticDataIndicator,authenticAnswerIndicator,arcount,ancount,nscount,qname,qtype,zoneName,ipVersion')
      const records = csvRecords(csv.body)
      assert.deepEqual(records.map(r => [r.dnsId, r.clientIp, r.packetId, r.qtype]), [['2', '2001:db8::53', '9000000000000000', 'AAAA'], ['1', '81.2.69.0', '9000000000000001', 'A'], ['4', '192.0.2.10', String(stored[3]!.packetId), 'HTTPS'], ['3', '192.0.2.10', String(stored[2]!.packetId), 'SOA']])
    })

    it('refuses bad requests with the spec\'s messages', async () => {
      const acme = (extra: Record<string, unknown>) => ({ rawQuerySample: { accountName: 'acme', ...extra } })
      assert.deepEqual(await error(alice, { rawQuerySample: {} }), [400, 55001, 'Account name not provided.'])
      assert.deepEqual(await error(alice, {}), [400, 55001, 'Account name not provided.'])
      assert.deepEqual(await error(alice, { rawQuerySample: { accountName: 'other' } }), [400, 410003, 'You do not have access to the accountName.'])
      assert.deepEqual(await error(alice, acme({ packetStartDateTime: '2026-11-24T10:00:00.000Z', packetEndDateTime: '2026-11-24T09:59:59.999Z' })), [400, 53005, 'packetEndDateTime is before packetStartDateTime.'])
      assert.deepEqual(await error(alice, acme({ packetStartDateTime: '2026-11-24' })), [400, 55003, 'Date provided is not in a valid format.'])
      assert.deepEqual(await error(alice, acme({ packetEndDateTime: '2026-11-24 10:00:00' })), [400, 55003, 'Date provided is not in a valid format.'])
      assert.deepEqual(await error(alice, acme({ packetStartDateTime: '2026-02-30T00:00:00.000Z' })), [400, 55003, 'Date provided is not in a valid format.'])
      assert.deepEqual(await error(alice, acme({ packetStartDateTime: '2026-11-25T11:00:00.000Z', packetEndDateTime: '2026-11-25T12:00:00.001Z' })), [400, 53005, 'start or end date is a future date'])
      assert.deepEqual(await error(alice, acme({ packetStartDateTime: '2026-08-26T23:59:59.999Z', packetEndDateTime: '2026-08-27T00:00:00.000Z' })), [400, 53005, 'start date is older than 90 days'])
      assert.deepEqual(await error(alice, acme({}), '?offset=-1'), [400, 53005, 'Offset value is a negative value.'])
      assert.deepEqual(await error(alice, acme({}), '?limit=10001'), [400, 53005, 'Invalid input: limit \'10001\' must be between 1 and 10000.'])
      assert.deepEqual(await error(alice, acme({ zoneName: 'bob.example' })), [404, 1801, 'Zone does not exist in the system.'])
      assert.deepEqual(await error(alice, acme({ zoneName: '*.example.org' })), [400, 53005, 'Invalid input: zoneName \'*.example.org\': wildcards are not supported.'])
      // The oldest start allowed: 90 days back (2026-08-27), and 10,000 rows a page.
      assert.deepEqual(await rows(alice, acme({ packetStartDateTime: '2026-08-27T00:00:00.000Z', packetEndDateTime: '2026-08-28T00:00:00.000Z' }), '?limit=10000'), [])
    })
  })
}
