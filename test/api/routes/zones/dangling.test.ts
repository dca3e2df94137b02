/**
 * The dangling DNS report, on both engines, against a loopback world (test/helpers/resolver-world.ts:
 * a recursive BIND forwarding to an authoritative one holding `ext-test.` and a public copy of
 * the zone under test): `POST /v1/zones/{zone}/healthchecks/dangling` starts a scan, `GET` reads
 * it. Checked: CNAMEs to an NXDOMAIN name, to a chain ending in NXDOMAIN (the ultimate target is
 * the name that gave it), to a SERVFAIL (with its reason), to a loop, inside the zone itself;
 * targets that resolve (an address, a chain, a name with other data) not flagged; paging, order,
 * host and type filters and their 400s; CSV parsed back; "No data found."; a 20,000-record zone
 * scanned and a 20,001-record one refused; secondary and alias zones refused; other accounts'
 * zones not found; 401; no resolvers configured and resolvers that do not answer (FAILED with the
 * reason); a scan whose worker stopped (requeued and finished by another runner, or FAILED when
 * out of attempts); one scan at a time per zone.
 */
import assert from 'node:assert/strict'
import { createSocket, type Socket } from 'node:dgram'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import type { Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { csvRecords } from '../../../helpers/csv.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { bindSkip } from '../../../helpers/named.ts'
import { startResolverWorld, type ResolverWorld } from '../../../helpers/resolver-world.ts'
import { storeZone } from '../../../helpers/stored-zones.ts'
import { client } from '../../../helpers/zones.ts'

type Client = ReturnType<typeof client>
type Json = any

const SOA = '@ IN SOA ns1.zonal.test. hostmaster.example.org. 2026112601 7200 3600 1209600 300\n@ IN NS ns1.zonal.test.\n'

/** The zone scanned: its CNAMEs cover every outcome; the authoritative serves a copy (its in-zone names). */
const ZONE = `$ORIGIN example.org.
$TTL 300
${SOA}www          IN A     192.0.2.80
direct       IN CNAME gone.ext-test.
chain        IN CNAME hop1.ext-test.
good         IN CNAME good1.ext-test.
exists       IN CNAME exists.ext-test.
txt          IN CNAME onlytxt.ext-test.
broken       IN CNAME x.nowhere-test.
loop         IN CNAME loop1.ext-test.
inside       IN CNAME www.example.org.
inside-gone  IN CNAME nothere.example.org.
shared1      IN CNAME gone.ext-test.
shared2      IN CNAME GONE.ext-test.
shared3      IN CNAME gone.ext-test.
`
const FLAGGED = ['broken', 'chain', 'direct', 'inside-gone', 'loop', 'shared1', 'shared2', 'shared3'].map(h => `${h}.example.org`)

const CLEAN = `$ORIGIN clean.example.
$TTL 300
${SOA.replace('example.org.', 'clean.example.')}a IN CNAME exists.ext-test.
b IN CNAME good1.ext-test.
`

/** A zone of exactly `records` records (SOA and NS counted): CNAMEs, half to names that do not exist, and A records. */
function bigZone (name: string, records: number): string {
  const lines = [`$ORIGIN ${name}`, '$TTL 300', SOA.replace('example.org.', name).trimEnd()]
  for (let i = 0; i < records - 2; i++) {
    lines.push(i < 5000 ? `c${i} CNAME ${i % 2 === 0 ? 'exists.ext-test.' : `t${i % 100}.ext-test.`}` : `h${i} A 10.0.0.1`)
  }
  return lines.join('\n') + '\n'
}

/** Poll the report until it is no longer IN_PROGRESS (the scan is a task); returns the DTO. */
async function finished (c: Client, zone: string, query = ''): Promise<Json> {
  const end = Date.now() + 120_000
  for (;;) {
    const res = await c.get(`/v1/zones/${zone}/healthchecks/dangling${query}`)
    assert.equal(res.statusCode, 200, res.body)
    const dto = res.json()
    if (dto.status !== 'IN_PROGRESS') return dto
    assert.ok(Date.now() < end, `the scan of ${zone} did not finish: ${res.body}`)
    await sleep(25)
  }
}

async function scan (c: Client, zone: string): Promise<Json> {
  const res = await c.send('POST', `/v1/zones/${zone}/healthchecks/dangling`, '{}', { 'content-type': 'application/json' })
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}

const ENGINES = await engineCases()
const VERSION = /^\d{4}-\d{2}-\d{2}-\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe('dangling DNS report', { skip: bindSkip('named') }, () => {
  let world: ResolverWorld
  before(async () => { world = await startResolverWorld({ zones: { 'example.org.': ZONE } }) })
  after(async () => { await world?.stop() })

  for (const engine of ENGINES) {
    describe(`${engine.name}: POST and GET /v1/zones/{zone}/healthchecks/dangling`, { skip: engine.skip }, () => {
      let t: TestApp
      let runner: TaskRunner
      let alice: Client
      let rita: Client
      let mallory: Client

      before(async () => {
        t = await buildTestApp(engine.name, {
          limits: { uploadSyncMaxRecords: 30_000 },
          bodyLimit: 4 * 1024 * 1024,
          tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(undefined, { resolvers: [world.resolvers] }), { workerId: 'dangling-test', pollMs: 20 }))
        })
        runner.start()
        alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
        rita = client(t.app, await t.user('rita', 'acme', 'ReadOnly'))
        mallory = client(t.app, await t.user('mallory', 'other', 'Owner'))
        await storeZone(t.store, 'acme', 'example.org.', ZONE)
        await storeZone(t.store, 'acme', 'clean.example.', CLEAN)
      })
      after(async () => {
        await runner?.stop()
        await t?.close()
      })

      it('answers 404 before any scan, and starts one: 200 with the report IN_PROGRESS and its version', async () => {
        const before = await alice.get('/v1/zones/example.org./healthchecks/dangling')
        assert.equal(before.statusCode, 404, before.body)
        assert.deepEqual(before.json(), [{ errorCode: 70002, errorMessage: 'Data not found: no dangling DNS report was requested for zone example.org..' }])
        const started = await scan(alice, 'example.org')
        assert.match(started.version, VERSION)
        assert.deepEqual({ ...started, version: 'v', message: 'm' }, {
          version: 'v',
          zone: 'example.org.',
          status: 'IN_PROGRESS',
          message: 'm',
          resultInfo: { totalCount: 0, offset: 0, returnedCount: 0, order: 'ASC' },
          danglingRecordList: [],
          danglingRecordsList: []
        })
      })

      it('flags NXDOMAIN targets, chains ending in NXDOMAIN, SERVFAIL, loops and in-zone targets; not those that resolve', async () => {
        const dto = await finished(alice, 'example.org.', '?limit=1000')
        assert.equal(dto.status, 'COMPLETED', JSON.stringify(dto))
        assert.equal(dto.message, undefined)
        assert.deepEqual(dto.resultInfo, { totalCount: 8, offset: 0, returnedCount: 8, order: 'ASC' })
        assert.deepEqual(dto.danglingRecordList, dto.danglingRecordsList)
        const byHost = new Map<string, Json>(dto.danglingRecordList.map((r: Json) => [r.host, r]))
        assert.deepEqual([...byHost.keys()], FLAGGED, 'sorted by host')
        assert.deepEqual(byHost.get('direct.example.org'), {
          host: 'direct.example.org', type: 'CNAME', recordData: 'gone.ext-test', ultimateTarget: 'gone.ext-test', description: 'CNAME target does not resolve: the name does not exist (NXDOMAIN).'
        })
        assert.deepEqual(byHost.get('chain.example.org'), {
          host: 'chain.example.org',
          type: 'CNAME',
          recordData: 'hop1.ext-test',
          ultimateTarget: 'gone.ext-test',
          description: 'CNAME chain ends in a name that does not exist (NXDOMAIN): hop1.ext-test → hop2.ext-test → gone.ext-test'
        })
        assert.equal(byHost.get('broken.example.org').ultimateTarget, 'x.nowhere-test')
        assert.match(byHost.get('broken.example.org').description, new RegExp(`^CNAME target does not resolve or is unreachable: the resolvers answered SERVFAIL from 127\\.0\\.0\\.1:${world.recursivePort}.* for x\\.nowhere-test\\.$`))
        assert.equal(byHost.get('loop.example.org').ultimateTarget, 'loop1.ext-test')
        assert.match(byHost.get('loop.example.org').description, /^CNAME chain loops and never resolves: loop1\.ext-test → loop2\.ext-test → loop1\.ext-test$/)
        assert.equal(byHost.get('inside-gone.example.org').ultimateTarget, 'nothere.example.org')
        assert.equal(byHost.get('shared2.example.org').recordData, 'GONE.ext-test', 'the record\'s data as written')
        for (const host of ['good', 'exists', 'txt', 'inside', 'www']) assert.equal(byHost.has(`${host}.example.org`), false, host)
      })

      it('pages, orders and filters by host and type', async () => {
        const page = async (query: string): Promise<Json> => {
          const res = await rita.get(`/zones/example.org/healthchecks/dangling${query}`)
          assert.equal(res.statusCode, 200, res.body)
          return res.json()
        }
        const first = await page('?limit=3')
        assert.deepEqual(first.resultInfo, { totalCount: 8, offset: 0, returnedCount: 3, order: 'ASC' })
        assert.deepEqual(first.danglingRecordList.map((r: Json) => r.host), FLAGGED.slice(0, 3))
        const last = await page('?limit=3&offset=6&sort=host')
        assert.deepEqual(last.resultInfo, { totalCount: 8, offset: 6, returnedCount: 2, order: 'ASC' })
        assert.deepEqual(last.danglingRecordList.map((r: Json) => r.host), FLAGGED.slice(6))
        const desc = await page('?order=DESC&limit=2')
        assert.deepEqual(desc.danglingRecordList.map((r: Json) => r.host), [...FLAGGED].reverse().slice(0, 2))
        assert.equal(desc.resultInfo.order, 'DESC')
        assert.equal((await page('')).danglingRecordList.length, 8, 'default limit 100')
        for (const host of ['chain.example.org', 'CHAIN.Example.org.']) {
          const one = await page(`?host=${host}`)
          assert.deepEqual(one.danglingRecordList.map((r: Json) => r.host), ['chain.example.org'], host)
        }
        assert.equal((await page('?type=CNAME')).resultInfo.totalCount, 8)
        const past = await page('?offset=8')
        assert.deepEqual([past.message, past.danglingRecordList, past.resultInfo], [undefined, [], { totalCount: 8, offset: 8, returnedCount: 0, order: 'ASC' }], 'past the end: records exist, none on this page')
        for (const query of ['?type=A', '?type=AAAA', '?host=www.example.org']) {
          const none = await page(query)
          assert.equal(none.status, 'COMPLETED')
          assert.equal(none.message, 'No data found.', query)
          assert.deepEqual([none.danglingRecordList, none.resultInfo.returnedCount], [[], 0], query)
        }
      })

      it('refuses invalid query values with clear 400s', async () => {
        for (const [query, code, message] of [
          ['?type=cname', 53005, 'Invalid input: type \'cname\' must be one of CNAME, A, AAAA (case-sensitive).'],
          ['?type=MX', 53005, 'Invalid input: type \'MX\' must be one of CNAME, A, AAAA (case-sensitive).'],
          ['?sort=type', 70004, 'Invalid sort option: type (the dangling DNS report sorts by host)'],
          ['?order=asc', 53005, 'Invalid input: order \'asc\' must be ASC or DESC (case-sensitive).'],
          ['?limit=0', 53005, 'Invalid input: limit \'0\' must be between 1 and 1000.'],
          ['?limit=1001', 53005, 'Invalid input: limit \'1001\' must be between 1 and 1000.'],
          ['?limit=ten', 53005, 'Invalid input: limit \'ten\' must be between 1 and 1000.'],
          ['?offset=-1', 53005, 'Offset value is a negative value.'],
          ['?offset=1.5', 53005, 'Invalid input: offset \'1.5\' must be a whole number.'],
          ['?host=*.example.org', 53005, 'Invalid input: host \'*.example.org\': wildcard searches are not supported; give the exact host name.']
        ] as const) {
          const res = await alice.get(`/v1/zones/example.org./healthchecks/dangling${query}`)
          assert.equal(res.statusCode, 400, `${query}: ${res.body}`)
          assert.deepEqual(res.json(), [{ errorCode: code, errorMessage: message }], query)
        }
      })

      it('gives the page as CSV with Accept: text/csv', async () => {
        const res = await alice.send('GET', '/v1/zones/example.org./healthchecks/dangling?limit=2&offset=1', undefined, { accept: 'text/csv' })
        assert.equal(res.statusCode, 200, res.body)
        assert.match(String(res.headers['content-type']), /^text\/csv/)
        const rows = csvRecords(res.body)
        assert.deepEqual(rows.map(r => r.host), FLAGGED.slice(1, 3))
        assert.deepEqual(Object.keys(rows[0]!), ['host', 'type', 'recordData', 'ultimateTarget', 'description'])
        assert.deepEqual(rows[0], {
          host: 'chain.example.org',
          type: 'CNAME',
          recordData: 'hop1.ext-test',
          ultimateTarget: 'gone.ext-test',
          description: 'CNAME chain ends in a name that does not exist (NXDOMAIN): hop1.ext-test → hop2.ext-test → gone.ext-test'
        })
      })

      it('neutralises formula cells in the CSV', async () => {
        await storeZone(t.store, 'acme', 'csv.example.', `$TTL 300\n${SOA.replace('example.org.', 'csv.example.')}=sum IN CNAME gone.ext-test.\n+one IN CNAME gone.ext-test.\n`)
        await scan(alice, 'csv.example.')
        assert.equal((await finished(alice, 'csv.example.')).resultInfo.totalCount, 2)
        const res = await alice.send('GET', '/v1/zones/csv.example./healthchecks/dangling', undefined, { accept: 'text/csv' })
        assert.deepEqual(csvRecords(res.body).map(r => r.host), ['\'+one.csv.example', '\'=sum.csv.example'])
      })

      it('answers "No data found." for a zone with nothing dangling', async () => {
        await scan(rita, 'clean.example.')
        const dto = await finished(rita, 'clean.example.')
        assert.match(dto.version, VERSION)
        assert.deepEqual({ ...dto, version: 'v' }, {
          version: 'v',
          zone: 'clean.example.',
          status: 'COMPLETED',
          message: 'No data found.',
          resultInfo: { totalCount: 0, offset: 0, returnedCount: 0, order: 'ASC' },
          danglingRecordList: [],
          danglingRecordsList: []
        })
      })

      it('a new scan replaces the report with a later version', async () => {
        const earlier = (await finished(alice, 'example.org.')).version
        const started = await scan(alice, 'example.org.')
        assert.notEqual(started.version, earlier)
        assert.equal(started.status, 'IN_PROGRESS')
        const dto = await finished(alice, 'example.org.')
        assert.equal(dto.version, started.version)
        assert.equal(dto.resultInfo.totalCount, 8)
      })

      it('scans a zone of 20,000 records and refuses one of 20,001', async () => {
        for (const [name, records] of [['big.example.', 20_000], ['bigger.example.', 20_001]] as const) {
          const res = await alice.upload({ properties: { name, accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, bigZone(name, records))
          assert.equal(res.statusCode, 201, res.body)
          assert.equal((await alice.get(`/zones/${name}`)).json().properties.resourceRecordCount, records)
        }
        await scan(alice, 'big.example.')
        const dto = await finished(alice, 'big.example.', '?limit=1000&offset=2000')
        assert.equal(dto.status, 'COMPLETED', JSON.stringify(dto).slice(0, 500))
        assert.deepEqual(dto.resultInfo, { totalCount: 2500, offset: 2000, returnedCount: 500, order: 'ASC' })
        assert.ok(dto.danglingRecordList.every((r: Json) => /^t\d+\.ext-test$/.test(r.ultimateTarget)))
        for (const method of ['POST', 'GET'] as const) {
          const res = await alice.send(method, '/v1/zones/bigger.example./healthchecks/dangling')
          assert.equal(res.statusCode, 400, res.body)
          assert.deepEqual(res.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: zone bigger.example. has 20001 records; the dangling DNS report supports zones of at most 20,000 records.' }])
        }
      })

      it('refuses secondary and alias zones', async () => {
        const primary = await t.store.zones.findByName('clean.example.', { accountIds: [(await t.store.accounts.findByName('acme'))!.id] })
        await storeZone(t.store, 'acme', 'secondary.example.', '', { type: 'SECONDARY' })
        await storeZone(t.store, 'acme', 'alias.example.', '', { type: 'ALIAS', originalZoneId: primary!.id })
        for (const [zone, kind] of [['secondary.example.', 'a secondary'], ['alias.example.', 'an alias']] as const) {
          for (const method of ['POST', 'GET'] as const) {
            const res = await alice.send(method, `/v1/zones/${zone}/healthchecks/dangling`)
            assert.equal(res.statusCode, 400, res.body)
            assert.deepEqual(res.json(), [{ errorCode: 53001, errorMessage: `Invalid zone type: ${zone} is ${kind} zone; the dangling DNS report scans primary zones only.` }])
          }
        }
      })

      it('answers "Zone does not exist" for unknown zones and other accounts\' zones, and 401 without a token', async () => {
        for (const [c, zone] of [[alice, 'nope.example.'], [mallory, 'example.org.']] as const) {
          for (const method of ['POST', 'GET'] as const) {
            const res = await c.send(method, `/v1/zones/${zone}/healthchecks/dangling`)
            assert.equal(res.statusCode, 404, res.body)
            assert.deepEqual(res.json(), [{ errorCode: 1801, errorMessage: 'Zone does not exist in the system.' }])
          }
        }
        for (const method of ['POST', 'GET'] as const) {
          const res = await t.app.inject({ method, url: '/v1/zones/example.org./healthchecks/dangling' })
          assert.equal(res.statusCode, 401)
          assert.deepEqual(res.json(), { errorCode: 60001, errorMessage: 'Unauthorized. Token not found, expired or invalid.' })
        }
      })
    })

    describe(`${engine.name}: scans that cannot finish`, { skip: engine.skip }, () => {
      let t: TestApp
      let alice: Client
      let silent: Socket
      const runners: TaskRunner[] = []
      const runWith = (resolvers: string[]): TaskRunner => {
        const r = new TaskRunner(t.store, taskHandlers(undefined, { resolvers, timeoutMs: 100, attempts: 2 }), { workerId: `dangling-${runners.length}`, pollMs: 20 })
        runners.push(r)
        r.start()
        return r
      }

      before(async () => {
        t = await buildTestApp(engine.name, { tasks: () => ({ wake () {} }) })
        alice = client(t.app, await t.user('alice', 'acme'))
        await storeZone(t.store, 'acme', 'example.org.', ZONE)
        silent = createSocket('udp4')
        await new Promise<void>(resolve => silent.bind(0, '127.0.0.1', resolve))
      })
      after(async () => {
        for (const r of runners) await r.stop()
        silent?.close()
        await t?.close()
      })

      it('starts one scan per zone at a time: a POST while one runs answers that one', async () => {
        const first = await scan(alice, 'example.org.')
        const again = await scan(alice, 'example.org.')
        assert.equal(again.version, first.version)
        assert.equal((await t.store.tasks.list({ accountIds: [(await t.store.accounts.findByName('acme'))!.id] }, { offset: 0, limit: 100, sort: 'DATE', reverse: false })).total, 1)
      })

      it('goes on after its worker stopped (the task requeued), and ends FAILED once out of attempts', async () => {
        const version = (await finishedOrNot(alice)).version
        // A worker takes the task and stops: its lease runs out; the task goes back to PENDING.
        assert.ok(await t.store.tasks.claim('crashed', -1) !== undefined)
        assert.deepEqual(await t.store.tasks.recoverExpired(3), { requeued: 1, failed: 0 })
        const requeued = await finishedOrNot(alice)
        assert.deepEqual([requeued.version, requeued.status], [version, 'IN_PROGRESS'])
        // Again, until it is out of attempts: the report is FAILED with the task's reason.
        assert.ok(await t.store.tasks.claim('crashed', -1) !== undefined)
        assert.deepEqual(await t.store.tasks.recoverExpired(2), { requeued: 0, failed: 1 })
        const failed = await finishedOrNot(alice)
        assert.deepEqual([failed.version, failed.status, failed.message], [version, 'FAILED', 'Task failed: the worker running it stopped (2 attempts)'])
      })

      it('ends FAILED when no resolver is configured, or none answers', async () => {
        const noResolvers = runWith([])
        const started = await scan(alice, 'example.org.')
        assert.equal(started.status, 'IN_PROGRESS')
        const failed = await finished(alice, 'example.org.')
        assert.deepEqual([failed.version, failed.status, failed.message], [started.version, 'FAILED', 'No recursive resolvers are configured (ZONAL_RESOLVERS); the dangling DNS scan cannot run.'])
        assert.deepEqual(failed.danglingRecordList, [])
        await noResolvers.stop()

        runWith([`127.0.0.1:${silent.address().port}`])
        const next = await scan(alice, 'example.org.')
        assert.notEqual(next.version, started.version)
        const unanswered = await finished(alice, 'example.org.')
        assert.equal(unanswered.status, 'FAILED')
        assert.match(unanswered.message, new RegExp(`^The dangling DNS scan failed: the resolvers gave no usable answer: 127\\.0\\.0\\.1:${silent.address().port} did not answer within 100 ms\\.$`))
        const tasks = await t.store.tasks.list({ accountIds: [(await t.store.accounts.findByName('acme'))!.id] }, { offset: 0, limit: 100, sort: 'DATE', reverse: true, code: 'ERROR' })
        assert.equal(tasks.rows[0]?.message, unanswered.message, 'the task ends ERROR with the same reason')
      })
    })
  }
})

/** The report as it is now, whatever its state. */
async function finishedOrNot (c: Client): Promise<Json> {
  const res = await c.get('/v1/zones/example.org./healthchecks/dangling')
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}
