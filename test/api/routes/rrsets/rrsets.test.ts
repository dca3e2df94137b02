import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import type { Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { dateSerial } from '../../../../src/zone/serial.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client, errorCode } from '../../../helpers/zones.ts'

type Client = ReturnType<typeof client>

const RD = 'http://schemas.ultradns.com/RDPool.jsonschema'

/** A zone file with an old serial, so the first change jumps to today's date serial. */
const zoneFile = (extra = ''): string => [
  '$TTL 3600',
  '@ IN SOA ns1 hostmaster 2024010101 7200 3600 1209600 300',
  '@ IN NS ns1',
  '@ IN NS ns2.example.net.',
  '@ IN MX 10 mail',
  'ns1 IN A 192.0.2.53',
  'mail 300 IN A 192.0.2.25',
  'www IN A 192.0.2.80',
  'www IN A 192.0.2.81',
  'www IN AAAA 2001:db8::80',
  'ftp IN CNAME www',
  'txt IN TXT "v=spf1 include:_spf.example.net -all"',
  'a.deep IN A 192.0.2.99',
  extra,
  ''
].join('\n')

const messages = (body: string): string[] => (JSON.parse(body) as { errorMessage: string }[]).map(e => e.errorMessage)

for (const engine of await engineCases()) {
  describe(`${engine.name}: rrsets`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Client
    let reader: Client
    let mallory: Client

    const upload = async (name: string, extra = ''): Promise<void> => {
      const res = await alice.upload({ properties: { name, accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, zoneFile(extra))
      assert.equal(res.statusCode, 201, res.body)
    }
    const one = async (zone: string, type: string, owner: string): Promise<Record<string, any>> => {
      const res = await alice.get(`/zones/${zone}/rrsets/${type}/${owner}`)
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json()
      assert.equal(body.rrSets.length, 1)
      return body.rrSets[0]
    }
    const serialOf = async (zone: string): Promise<number> => Number((await one(zone, 'SOA', '@')).rdata[0].split(' ')[2])
    const audits = async (changeType: string) => (await t.store.audit.recent(1000, changeType)).map(r => ({ ...r, detail: JSON.parse(r.detail) }))

    before(async () => {
      t = await buildTestApp(engine.name, { tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'rrsets-test', pollMs: 20 })) })
      runner.start()
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
      reader = client(t.app, await t.user('rita', 'acme', 'ReadOnly'))
      mallory = client(t.app, await t.user('mallory', 'other', 'Owner'))
      await upload('example.org')
    })
    after(async () => {
      await runner?.stop()
      await t?.close()
    })

    describe('GET /zones/{zoneName}/rrsets', () => {
      it('lists every rrset in canonical order: absolute owners, "A (1)" types, the rrSets key, queryInfo and resultInfo', async () => {
        const res = await reader.get('/zones/example.org/rrsets')
        assert.equal(res.statusCode, 200, res.body)
        const body = res.json()
        assert.equal(body.zoneName, 'example.org.')
        assert.deepEqual(body.queryInfo, { sort: 'OWNER', reverse: false, limit: 100 })
        assert.deepEqual(body.resultInfo, { totalCount: 10, offset: 0, returnedCount: 10 })
        assert.deepEqual(body.rrSets.slice(0, 3).map((r: any) => r.rrtype), ['NS (2)', 'SOA (6)', 'MX (15)'])
        assert.deepEqual(body.rrSets[0], { ownerName: 'example.org.', rrtype: 'NS (2)', ttl: 3600, rdata: ['ns1.example.org.', 'ns2.example.net.'] })
        assert.deepEqual(body.rrSets.map((r: any) => r.ownerName).slice(3), [
          'a.deep.example.org.', 'ftp.example.org.', 'mail.example.org.', 'ns1.example.org.', 'txt.example.org.', 'www.example.org.', 'www.example.org.', 'www.example.org.'
        ].slice(0, body.rrSets.length - 3))
      })

      it('pages by offset and limit with the total, sorts by TTL, TYPE and VALUE, reversed in any case', async () => {
        const page = (await alice.get('/zones/example.org/rrsets?offset=2&limit=3')).json()
        assert.deepEqual(page.resultInfo, { totalCount: 10, offset: 2, returnedCount: 3 })
        assert.equal(page.queryInfo.limit, 3)
        const past = (await alice.get('/zones/example.org/rrsets?offset=50')).json()
        assert.deepEqual(past.resultInfo, { totalCount: 10, offset: 50, returnedCount: 0 })
        const ttl = (await alice.get('/zones/example.org/rrsets?sort=ttl')).json()
        assert.equal(ttl.queryInfo.sort, 'TTL')
        assert.equal(ttl.rrSets[0].ownerName, 'mail.example.org.')
        const type = (await alice.get('/zones/example.org/rrsets?sort=TYPE&reverse=True')).json()
        assert.equal(type.queryInfo.reverse, true)
        assert.equal(type.rrSets[0].rrtype, 'AAAA (28)')
        const value = (await alice.get('/zones/example.org/rrsets?sort=VALUE')).json()
        assert.deepEqual(value.rrSets[0].rdata, ['10 mail.example.org.'])
        assert.deepEqual(value.rrSets.slice(-2).map((r: any) => r.rdata[0]), ['v=spf1 include:_spf.example.net -all', 'www.example.org.'], 'TXT sorts by its text')
        assert.deepEqual(JSON.parse((await alice.get('/zones/example.org/rrsets?sort=NAME')).body), [{ errorCode: 70004, errorMessage: 'Invalid sort option: NAME' }])
        assert.equal(errorCode((await alice.get('/zones/example.org/rrsets?limit=1001')).body), 53005)
        assert.equal(errorCode((await alice.get('/zones/example.org/rrsets?offset=-1')).body), 53005)
        assert.equal(errorCode((await alice.get('/zones/example.org/rrsets?reverse=maybe')).body), 53005)
      })

      it('filters with q: ttl, owner, value (spaces and colons inside), kind', async () => {
        const names = async (q: string): Promise<string[]> => {
          const res = await alice.get(`/zones/example.org/rrsets?q=${encodeURIComponent(q)}`)
          assert.equal(res.statusCode, 200, res.body)
          assert.equal(res.json().queryInfo.q, q)
          return res.json().rrSets.map((r: any) => `${r.ownerName} ${r.rrtype}`)
        }
        assert.deepEqual(await names('ttl:300'), ['mail.example.org. A (1)'])
        assert.deepEqual(await names('owner:WWW'), ['www.example.org. A (1)', 'www.example.org. AAAA (28)'])
        assert.deepEqual(await names('value:include:_spf.example.net -all'), ['txt.example.org. TXT (16)'])
        assert.deepEqual(await names('value:192.0.2.8 owner:www'), ['www.example.org. A (1)'])
        assert.equal((await names('kind:RECORDS')).length, 10)
        assert.deepEqual(await names('kind:POOLS'), [])
        assert.equal((await names('kind:ALL')).length, 10)
        assert.equal((await names('kind:rd_pools,records')).length, 10)
      })

      it('answers an empty page (200) when q matches nothing in the zone', async () => {
        const res = await alice.get('/zones/example.org/rrsets?q=ttl:1')
        assert.equal(res.statusCode, 200)
        assert.deepEqual(res.json().rrSets, [])
        assert.deepEqual(res.json().resultInfo, { totalCount: 0, offset: 0, returnedCount: 0 })
      })

      it('refuses an unknown q key with 53005 "Invalid input: q.<key>", and bad q values', async () => {
        assert.deepEqual(JSON.parse((await alice.get('/zones/example.org/rrsets?q=test:1')).body), [{ errorCode: 53005, errorMessage: 'Invalid input: q.test' }])
        assert.equal(errorCode((await alice.get('/zones/example.org/rrsets?q=ttl:abc')).body), 53005)
        assert.equal(errorCode((await alice.get('/zones/example.org/rrsets?q=kind:SOME_POOLS')).body), 53005)
        assert.equal(errorCode((await alice.get('/zones/example.org/rrsets?q=ttl:1 ttl:2')).body), 53005)
      })

      it('answers 1801 for a missing zone and for another account\'s zone', async () => {
        assert.equal(errorCode((await alice.get('/zones/nothing.test/rrsets')).body), 1801)
        assert.equal((await mallory.get('/zones/example.org/rrsets')).statusCode, 404)
        assert.equal(errorCode((await mallory.get('/zones/example.org/rrsets')).body), 1801)
      })
    })

    describe('GET /zones/{zoneName}/rrsets/{rrType}[/{ownerName}]', () => {
      it('takes the type as a name in any case, a number, "A (1)", TYPEnnn; ANY is every type', async () => {
        for (const type of ['A', 'a', '1', 'A%20(1)', 'TYPE1']) {
          const res = await alice.get(`/zones/example.org/rrsets/${type}`)
          assert.equal(res.statusCode, 200, `${type}: ${res.body}`)
          assert.deepEqual(res.json().rrSets.map((r: any) => r.ownerName), ['a.deep.example.org.', 'mail.example.org.', 'ns1.example.org.', 'www.example.org.'], type)
        }
        assert.equal((await alice.get('/zones/example.org/rrsets/ANY')).json().resultInfo.totalCount, 10)
        assert.equal(errorCode((await alice.get('/zones/example.org/rrsets/BOGUS')).body), 53005)
        assert.equal(errorCode((await alice.get('/zones/example.org/rrsets/A%20(28)')).body), 53005)
      })

      it('takes the owner relative, absolute, absolute without the dot, or @; and answers exactly one rrSet (Go SDK, terraform)', async () => {
        for (const owner of ['www', 'www.example.org.', 'www.example.org', 'WWW']) {
          const res = await alice.get(`/zones/example.org./rrsets/A/${owner}`)
          assert.equal(res.statusCode, 200, owner)
          const body = res.json()
          assert.equal(body.rrSets.length, 1, owner)
          assert.deepEqual(body.rrSets[0], { ownerName: 'www.example.org.', rrtype: 'A (1)', ttl: 3600, rdata: ['192.0.2.80', '192.0.2.81'] })
          assert.deepEqual(body.resultInfo, { totalCount: 1, offset: 0, returnedCount: 1 })
        }
        assert.equal((await one('example.org', 'SOA', '@')).ownerName, 'example.org.')
        assert.deepEqual((await alice.get('/zones/example.org/rrsets/ANY/www')).json().rrSets.map((r: any) => r.rrtype), ['A (1)', 'AAAA (28)'])
        assert.equal(errorCode((await alice.get('/zones/example.org/rrsets/A/www.example.net.')).body), 53005)
      })

      it('answers 404 70002 "Data not found." for a missing rrset and a type with none', async () => {
        for (const path of ['/zones/example.org/rrsets/A/nothing', '/zones/example.org/rrsets/CAA', '/zones/example.org/rrsets/MX/www', '/zones/example.org/rrsets/A/www?q=ttl:1']) {
          const res = await alice.get(path)
          assert.equal(res.statusCode, 404, path)
          assert.deepEqual(res.json(), [{ errorCode: 70002, errorMessage: 'Data not found.' }], path)
        }
      })
    })

    describe('POST /zones/{zoneName}/rrsets/{rrType}/{ownerName}', () => {
      it('creates an rrset: 201 {"message":"Successful"} with its Location; ttl defaults to 86400', async () => {
        const res = await alice.post('/zones/example.org/rrsets/A/new', { rdata: ['192.0.2.10'] })
        assert.equal(res.statusCode, 201, res.body)
        assert.deepEqual(res.json(), { message: 'Successful' })
        assert.match(String(res.headers.location), /\/zones\/example\.org\.\/rrsets\/A\/new\.example\.org\.$/)
        assert.deepEqual(await one('example.org', 'A', 'new'), { ownerName: 'new.example.org.', rrtype: 'A (1)', ttl: 86400, rdata: ['192.0.2.10'] })
        const apex = await alice.post('/zones/example.org/rrsets/TXT/@', { ttl: 0, rdata: ['hello world', 'plain'], changeComment: 'apex txt' })
        assert.equal(apex.statusCode, 201, apex.body)
        assert.match(String(apex.headers.location), /\/rrsets\/TXT\/example\.org\.$/)
        assert.deepEqual((await one('example.org', '16', 'example.org.')).rdata, ['hello world', 'plain'])
      })

      it('answers 2111 when the rrset exists', async () => {
        const res = await alice.post('/zones/example.org/rrsets/A/www', { ttl: 300, rdata: ['192.0.2.1'] })
        assert.equal(res.statusCode, 400)
        assert.deepEqual(res.json(), [{ errorCode: 2111, errorMessage: 'Resource Record of type 1 with these attributes already exists in the system.' }])
      })

      it('answers 70005 for {} before looking up the zone (a missing zone too), and 55001 without rdata', async () => {
        for (const [path, body] of [['/zones/example.org/rrsets/A/x1', {}], ['/zones/nothing.test/rrsets/A/x1', {}], ['/zones/nothing.test/rrsets/A/x1', undefined], ['/zones/example.org/rrsets/A/x1', { ttl: 300 }]] as const) {
          const res = await alice.post(path, body)
          assert.equal(res.statusCode, 400)
          assert.deepEqual(res.json(), [{ errorCode: 70005, errorMessage: 'At least one field must be specified: rdata or profile' }])
        }
        assert.equal(errorCode((await alice.post('/zones/nothing.test/rrsets/A/x1', { rdata: ['192.0.2.1'] })).body), 1801)
        assert.deepEqual(JSON.parse((await alice.post('/zones/example.org/rrsets/A/x1', { profile: { '@context': RD } })).body), [{ errorCode: 55001, errorMessage: 'rdata is required field.' }])
      })

      it('validates every rdata value by its type, naming the index of each bad one', async () => {
        const res = await alice.post('/zones/example.org/rrsets/A/bad', { rdata: ['192.0.2.1', '1.2.3', '192.0.2.300'] })
        assert.equal(res.statusCode, 400)
        assert.deepEqual(res.json(), [
          { errorCode: 53005, errorMessage: 'Invalid input: rdata[1]: address must be an IPv4 address, got "1.2.3"' },
          { errorCode: 53005, errorMessage: 'Invalid input: rdata[2]: address must be an IPv4 address, got "192.0.2.300"' }
        ])
        assert.match(messages((await alice.post('/zones/example.org/rrsets/MX/bad', { rdata: ['10'] })).body)[0]!, /^Invalid input: rdata\[0\]: missing /)
        assert.match(messages((await alice.post('/zones/example.org/rrsets/MX/bad', { rdata: [10] })).body)[0]!, /^Invalid input: rdata\[0\] must be a string/)
        assert.match(messages((await alice.post('/zones/example.org/rrsets/A/bad', { rdata: [] })).body)[0]!, /rdata must hold at least one value/)
        assert.match(messages((await alice.post('/zones/example.org/rrsets/A/bad', { rdata: [''] })).body)[0]!, /rdata\[0\]: empty value/)
        const dup = await alice.post('/zones/example.org/rrsets/A/bad', { rdata: ['192.0.2.1', '192.0.2.1'] })
        assert.deepEqual(dup.json(), [{ errorCode: 450001, errorMessage: 'Resource Record with these attributes already exists in the system.' }])
      })

      it('checks the TTL (0 to 2147483647, RFC 2181 §8), the type and the owner', async () => {
        assert.equal(errorCode((await alice.post('/zones/example.org/rrsets/A/bad', { ttl: 2147483648, rdata: ['192.0.2.1'] })).body), 53005)
        assert.equal(errorCode((await alice.post('/zones/example.org/rrsets/A/bad', { ttl: -1, rdata: ['192.0.2.1'] })).body), 53005)
        assert.equal(errorCode((await alice.post('/zones/example.org/rrsets/A/bad', { ttl: 1.5, rdata: ['192.0.2.1'] })).body), 53005)
        assert.equal(errorCode((await alice.post('/zones/example.org/rrsets/ANY/bad', { rdata: ['192.0.2.1'] })).body), 53005)
        assert.equal(errorCode((await alice.post('/zones/example.org/rrsets/AXFR/bad', { rdata: ['192.0.2.1'] })).body), 53005)
        assert.equal(errorCode((await alice.post('/zones/example.org/rrsets/A/bad.example.net.', { rdata: ['192.0.2.1'] })).body), 53005)
        assert.equal(errorCode((await alice.post('/zones/example.org/rrsets/A/a..b', { rdata: ['192.0.2.1'] })).body), 53005)
        assert.equal((await alice.post('/zones/example.org/rrsets/A/ttl-max', { ttl: 2147483647, rdata: ['192.0.2.1'] })).statusCode, 201)
      })

      it('refuses a CNAME beside other data, other data beside a CNAME, a CNAME at the apex, two CNAME records, a DS at the apex', async () => {
        const cases: [string, unknown, RegExp][] = [
          ['/zones/example.org/rrsets/CNAME/www', { rdata: ['target.example.net.'] }, /ZONE_CNAME_WITH_OTHER_DATA: www\.example\.org\.: .*also has A, AAAA/],
          ['/zones/example.org/rrsets/A/ftp', { rdata: ['192.0.2.7'] }, /ZONE_CNAME_WITH_OTHER_DATA: ftp\.example\.org\.: .*has a CNAME/],
          ['/zones/example.org/rrsets/TXT/ftp', { rdata: ['"x"'] }, /ZONE_CNAME_WITH_OTHER_DATA/],
          ['/zones/example.org/rrsets/CNAME/@', { rdata: ['target.example.net.'] }, /ZONE_CNAME_AT_APEX/],
          ['/zones/example.org/rrsets/CNAME/two', { rdata: ['a.example.net.', 'b.example.net.'] }, /ZONE_CNAME_MULTIPLE/],
          ['/zones/example.org/rrsets/DS/@', { rdata: ['12345 13 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE3A4C5E4B5E4C9B8F0E5D4C3B'] }, /ZONE_DS_AT_APEX: example\.org\.: DS record at the zone apex/]
        ]
        for (const [path, body, message] of cases) {
          const res = await alice.post(path, body)
          assert.equal(res.statusCode, 400, path)
          assert.equal(errorCode(res.body), 53005, path)
          assert.match(messages(res.body)[0]!, message, path)
        }
        assert.equal((await alice.post('/zones/example.org/rrsets/CNAME/alone', { rdata: ['www'] })).statusCode, 201)
        assert.deepEqual((await one('example.org', 'CNAME', 'alone')).rdata, ['www.example.org.'])
      })

      it('refuses names below a DNAME and a DNAME above names (RFC 6672)', async () => {
        assert.equal((await alice.post('/zones/example.org/rrsets/DNAME/moved', { rdata: ['example.net.'] })).statusCode, 201)
        assert.match(messages((await alice.post('/zones/example.org/rrsets/A/x.moved', { rdata: ['192.0.2.1'] })).body)[0]!, /ZONE_DNAME_WITH_CHILDREN: moved\.example\.org\./)
        assert.match(messages((await alice.post('/zones/example.org/rrsets/DNAME/deep', { rdata: ['example.net.'] })).body)[0]!, /ZONE_DNAME_WITH_CHILDREN: deep\.example\.org\./)
      })

      it('refuses a second SOA (2111) and an SOA below the apex', async () => {
        const soa = 'ns1.example.org. hostmaster.example.org. 1 7200 3600 1209600 300'
        assert.equal(errorCode((await alice.post('/zones/example.org/rrsets/SOA/@', { rdata: [soa] })).body), 2111)
        assert.match(messages((await alice.post('/zones/example.org/rrsets/SOA/below', { rdata: [soa] })).body)[0]!, /ZONE_SOA_NOT_AT_APEX/)
      })

      it('stores a pool profile normalised with its @context; kind filters find it; profiles on other types are refused (70004)', async () => {
        const res = await alice.post('/zones/example.org/rrsets/A/pool', { ttl: 60, rdata: ['192.0.2.1', '192.0.2.2'], profile: { '@context': RD, order: 'FIXED' } })
        assert.equal(res.statusCode, 201, res.body)
        assert.deepEqual((await one('example.org', 'A', 'pool')).profile, { '@context': RD, order: 'FIXED', description: 'pool.example.org.' })
        const pools = (await alice.get('/zones/example.org/rrsets?q=kind:RD_POOLS')).json()
        assert.deepEqual(pools.rrSets.map((r: any) => r.ownerName), ['pool.example.org.'])
        assert.deepEqual((await alice.get('/zones/example.org/rrsets?q=kind:SB_POOLS,TC_POOLS')).json().rrSets, [])
        assert.equal((await alice.get('/zones/example.org/rrsets?q=kind:RECORDS')).json().rrSets.some((r: any) => r.ownerName === 'pool.example.org.'), false)
        assert.equal((await alice.get('/zones/example.org/rrsets/A?q=kind:POOLS')).json().resultInfo.totalCount, 1)
        assert.equal(errorCode((await alice.post('/zones/example.org/rrsets/TXT/pooltxt', { rdata: ['"x"'], profile: { '@context': RD } })).body), 70004)
        assert.equal(errorCode((await alice.post('/zones/example.org/rrsets/A/pool2', { rdata: ['192.0.2.1'], profile: { '@context': RD, order: 'SIDEWAYS' } })).body), 70007)
      })
    })

    describe('PUT and PATCH /zones/{zoneName}/rrsets/{rrType}/{ownerName}', () => {
      before(async () => { await upload('edit.test') })

      it('PUT replaces rdata and TTL (200 {"message":"Successful"}); a missing rrset is 70002; {} is 70005 before 1801', async () => {
        const res = await alice.put('/zones/edit.test/rrsets/A/www', { ttl: 120, rdata: ['192.0.2.90'] })
        assert.equal(res.statusCode, 200, res.body)
        assert.deepEqual(res.json(), { message: 'Successful' })
        assert.deepEqual(await one('edit.test', 'A', 'www'), { ownerName: 'www.edit.test.', rrtype: 'A (1)', ttl: 120, rdata: ['192.0.2.90'] })
        assert.equal(errorCode((await alice.put('/zones/edit.test/rrsets/A/nothing', { rdata: ['192.0.2.1'] })).body), 70002)
        assert.equal((await alice.put('/zones/edit.test/rrsets/A/nothing', { rdata: ['192.0.2.1'] })).statusCode, 404)
        assert.equal(errorCode((await alice.put('/zones/nothing.test/rrsets/A/www', {})).body), 70005)
        assert.equal(errorCode((await alice.put('/zones/nothing.test/rrsets/A/www', { rdata: ['192.0.2.1'] })).body), 1801)
      })

      it('PUT without a profile removes it; PUT with only a profile keeps rdata and TTL', async () => {
        await alice.put('/zones/edit.test/rrsets/A/www', { profile: { '@context': RD, order: 'RANDOM' } })
        const pooled = await one('edit.test', 'A', 'www')
        assert.equal(pooled.ttl, 120)
        assert.equal(pooled.profile.order, 'RANDOM')
        await alice.put('/zones/edit.test/rrsets/A/www', { rdata: ['192.0.2.90', '192.0.2.91'] })
        const plain = await one('edit.test', 'A', 'www')
        assert.equal(plain.profile, undefined)
        assert.equal(plain.ttl, 120)
      })

      it('PATCH merges: ttl alone, rdata alone, profile null removes it; {} is 70005', async () => {
        assert.equal((await alice.patch('/zones/edit.test/rrsets/A/www', { ttl: 60 })).statusCode, 200)
        assert.deepEqual((await one('edit.test', 'A', 'www')).rdata, ['192.0.2.90', '192.0.2.91'])
        await alice.patch('/zones/edit.test/rrsets/A/www', { profile: { '@context': RD, order: 'FIXED' } })
        await alice.patch('/zones/edit.test/rrsets/A/www', { rdata: ['192.0.2.92', '192.0.2.93'] })
        const merged = await one('edit.test', 'A', 'www')
        assert.deepEqual([merged.ttl, merged.rdata, merged.profile.order], [60, ['192.0.2.92', '192.0.2.93'], 'FIXED'])
        await alice.patch('/zones/edit.test/rrsets/A/www', { profile: null })
        assert.equal((await one('edit.test', 'A', 'www')).profile, undefined)
        assert.equal(errorCode((await alice.patch('/zones/edit.test/rrsets/A/www', {})).body), 70005)
        assert.equal(errorCode((await alice.patch('/zones/edit.test/rrsets/A/www', { changeComment: 'nothing' })).body), 70005)
        assert.equal(errorCode((await alice.patch('/zones/edit.test/rrsets/A/nothing', { ttl: 5 })).body), 70002)
        assert.equal(errorCode((await alice.patch('/zones/edit.test/rrsets/A/www', [1, 2])).body), 53005)
      })

      it('keeps the zone rules on replace: no CNAME beside other data, apex NS may be replaced', async () => {
        assert.match(messages((await alice.put('/zones/edit.test/rrsets/CNAME/ftp', { rdata: ['a.example.net.', 'b.example.net.'] })).body)[0]!, /ZONE_CNAME_MULTIPLE/)
        assert.equal((await alice.put('/zones/edit.test/rrsets/NS/@', { rdata: ['ns3.example.net.'] })).statusCode, 200)
        assert.deepEqual((await one('edit.test', 'NS', '@')).rdata, ['ns3.example.net.'])
      })

      it('PUT of the SOA changes its fields but not the serial, which the service moves on', async () => {
        const before = await serialOf('edit.test')
        const res = await alice.put('/zones/edit.test/rrsets/SOA/@', { rdata: ['ns3.example.net. admin.edit.test. 1 3600 600 86400 60'] })
        assert.equal(res.statusCode, 200, res.body)
        const soa = await one('edit.test', 'SOA', '@')
        assert.deepEqual(soa.rdata, [`ns3.example.net. admin.edit.test. ${before + 1} 3600 600 86400 60`])
        assert.match(messages((await alice.put('/zones/edit.test/rrsets/SOA/@', { rdata: ['a. b. 1 1 1 1 1', 'c. d. 1 1 1 1 1'] })).body)[0]!, /ZONE_SOA_MULTIPLE/)
      })

      it('a PUT that changes nothing writes nothing (no serial bump)', async () => {
        const before = await serialOf('edit.test')
        const current = await one('edit.test', 'MX', '@')
        assert.equal((await alice.put('/zones/edit.test/rrsets/MX/@', { ttl: current.ttl, rdata: current.rdata })).statusCode, 200)
        assert.equal(await serialOf('edit.test'), before)
      })
    })

    describe('PATCH with application/json-patch+json', () => {
      before(async () => { await upload('patch.test') })
      const jp = async (type: string, owner: string, ops: unknown) => await alice.jsonPatch(`/zones/patch.test/rrsets/${type}/${owner}`, ops)

      it('replaces the TTL, adds, replaces and removes rdata entries', async () => {
        assert.equal((await jp('A', 'www', [{ op: 'replace', path: '/ttl', value: 600 }])).statusCode, 200)
        assert.equal((await jp('A', 'www', [{ op: 'add', path: '/rdata/-', value: '192.0.2.82' }])).statusCode, 200)
        assert.deepEqual((await one('patch.test', 'A', 'www')).rdata, ['192.0.2.80', '192.0.2.81', '192.0.2.82'])
        await jp('A', 'www', [{ op: 'remove', path: '/rdata/0' }, { op: 'replace', path: '/rdata/0', value: '192.0.2.71' }])
        const www = await one('patch.test', 'A', 'www')
        assert.deepEqual([www.ttl, www.rdata], [600, ['192.0.2.71', '192.0.2.82']])
      })

      it('addresses the fields of an rdata string: /rdata/0/1 of MX "10 mail…" is the exchange', async () => {
        const res = await jp('MX', '@', [{ op: 'replace', path: '/rdata/0/1', value: 'mx.example.net.' }, { op: 'replace', path: '/rdata/0/0', value: 20 }])
        assert.equal(res.statusCode, 200, res.body)
        assert.deepEqual((await one('patch.test', 'MX', '@')).rdata, ['20 mx.example.net.'])
        await jp('MX', '@', [{ op: 'test', path: '/rdata/0/0', value: '20' }, { op: 'add', path: '/rdata/-', value: '30 backup' }])
        assert.deepEqual((await one('patch.test', 'MX', '@')).rdata, ['20 mx.example.net.', '30 backup.patch.test.'])
        // TXT: the fields are the parts of the text between spaces.
        await jp('TXT', 'txt', [{ op: 'replace', path: '/rdata/0/2', value: '~all' }, { op: 'add', path: '/rdata/0/-', value: 'second' }])
        assert.deepEqual((await one('patch.test', 'TXT', 'txt')).rdata, ['v=spf1 include:_spf.example.net ~all second'])
      })

      it('patches a profile field: /profile/order', async () => {
        await alice.put('/zones/patch.test/rrsets/A/www', { rdata: ['192.0.2.71', '192.0.2.82'], profile: { '@context': RD, order: 'FIXED' } })
        assert.equal((await jp('A', 'www', [{ op: 'replace', path: '/profile/order', value: 'ROUND_ROBIN' }])).statusCode, 200)
        assert.equal((await one('patch.test', 'A', 'www')).profile.order, 'ROUND_ROBIN')
        assert.equal(errorCode((await jp('A', 'www', [{ op: 'replace', path: '/profile/order', value: 'NONE' }])).body), 70007)
        await jp('A', 'www', [{ op: 'remove', path: '/profile' }])
        assert.equal((await one('patch.test', 'A', 'www')).profile, undefined)
      })

      it('refuses bodies that are no patch (170003), unknown ops (170004), paths outside the rrset and failed operations (170001)', async () => {
        assert.equal(errorCode((await jp('A', 'www', { op: 'replace' })).body), 170003)
        assert.equal(errorCode((await jp('A', 'www', [])).body), 170003)
        assert.equal(errorCode((await jp('A', 'www', [{ path: '/ttl' }])).body), 170003)
        assert.equal(errorCode((await jp('A', 'www', [{ op: 'frob', path: '/ttl' }])).body), 170004)
        assert.equal(errorCode((await jp('A', 'www', [{ op: 'replace', path: '/owner', value: 'x' }])).body), 170001)
        assert.equal(errorCode((await jp('A', 'www', [{ op: 'replace', path: '/rdata/9', value: '192.0.2.1' }])).body), 170001)
        assert.equal(errorCode((await jp('A', 'www', [{ op: 'test', path: '/ttl', value: 1 }])).body), 170001)
        assert.equal(errorCode((await jp('A', 'www', [{ op: 'replace', path: '/rdata/0', value: '"unterminated' }])).body), 170001)
        assert.equal(errorCode((await jp('A', 'nothing', [{ op: 'replace', path: '/ttl', value: 1 }])).body), 70002)
        assert.equal(errorCode((await alice.jsonPatch('/zones/nothing.test/rrsets/A/www', [{ op: 'replace', path: '/ttl', value: 1 }])).body), 1801)
      })

      it('validates the patched rrset like a PUT', async () => {
        assert.match(messages((await jp('A', 'www', [{ op: 'replace', path: '/rdata/1', value: '1.2.3' }])).body)[0]!, /^Invalid input: rdata\[1\]: address must be an IPv4 address/)
        assert.equal(errorCode((await jp('A', 'www', [{ op: 'replace', path: '/ttl', value: 'soon' }])).body), 53005)
        assert.equal(errorCode((await jp('A', 'www', [{ op: 'remove', path: '/rdata/1' }, { op: 'remove', path: '/rdata/0' }])).body), 53005)
        assert.equal(errorCode((await jp('A', 'www', [{ op: 'remove', path: '/ttl' }])).body), 55001)
      })
    })

    describe('DELETE /zones/{zoneName}/rrsets/{rrType}/{ownerName}', () => {
      before(async () => { await upload('delete.test') })

      it('deletes an rrset (204); it is then 70002', async () => {
        const res = await alice.delete('/zones/delete.test/rrsets/A/www', { changeComment: 'retired' })
        assert.equal(res.statusCode, 204)
        assert.equal(res.body, '')
        assert.equal((await alice.get('/zones/delete.test/rrsets/A/www')).statusCode, 404)
        assert.equal(errorCode((await alice.delete('/zones/delete.test/rrsets/A/www')).body), 70002)
        assert.equal((await alice.get('/zones/delete.test/rrsets/AAAA/www')).statusCode, 200)
      })

      it('never deletes the SOA or the apex NS rrset; NS below the apex may go', async () => {
        assert.match(messages((await alice.delete('/zones/delete.test/rrsets/SOA/@')).body)[0]!, /SOA rrset .* cannot be deleted/)
        assert.match(messages((await alice.delete('/zones/delete.test/rrsets/NS/delete.test.')).body)[0]!, /apex NS rrset .* cannot be deleted/)
        await alice.post('/zones/delete.test/rrsets/NS/child', { rdata: ['ns.example.net.'] })
        assert.equal((await alice.delete('/zones/delete.test/rrsets/NS/child')).statusCode, 204)
      })
    })

    describe('serial, record count, modification time and audit records', () => {
      before(async () => { await upload('serial.test') })

      it('bumps the SOA serial on every change: today\'s YYYYMMDD00 first, then +1 (RFC 1982)', async () => {
        assert.equal(await serialOf('serial.test'), 2024010101)
        const today = dateSerial(new Date())
        await alice.post('/zones/serial.test/rrsets/A/s1', { rdata: ['192.0.2.1'] })
        assert.equal(await serialOf('serial.test'), today)
        await alice.patch('/zones/serial.test/rrsets/A/s1', { ttl: 30 })
        assert.equal(await serialOf('serial.test'), today + 1)
        await alice.delete('/zones/serial.test/rrsets/A/s1')
        assert.equal(await serialOf('serial.test'), today + 2)
        const zone = await t.store.zones.findByName('serial.test.', { accountIds: (await t.store.accounts.list()).map(a => a.id) })
        assert.equal(Number(zone?.serial), today + 2)
        // A failed change moves nothing.
        await alice.post('/zones/serial.test/rrsets/A/www', { rdata: ['192.0.2.1'] })
        assert.equal(await serialOf('serial.test'), today + 2)
      })

      it('gives concurrent changes of one zone a serial each, and counts every record', async () => {
        // One change first, so the serial is today's and moves by one per change.
        assert.equal((await alice.patch('/zones/serial.test/rrsets/NS/@', { ttl: 3000 })).statusCode, 200)
        const serial = await serialOf('serial.test')
        const count = (await alice.get('/zones/serial.test')).json().properties.recordCount
        const results = await Promise.all(Array.from({ length: 8 }, async (_, i) => await alice.post(`/zones/serial.test/rrsets/A/par${i}`, { rdata: ['192.0.2.1', '192.0.2.2'] })))
        assert.deepEqual(results.map(r => r.statusCode), Array(8).fill(201))
        assert.equal(await serialOf('serial.test'), serial + 8)
        assert.equal((await alice.get('/zones/serial.test')).json().properties.recordCount, count + 16)
      })

      it('keeps recordCount and lastModifiedDateTime up to date without recounting', async () => {
        const count = async (): Promise<number> => (await alice.get('/zones/serial.test')).json().properties.recordCount
        const start = await count()
        const zoneBefore = (await t.store.zones.findByName('serial.test.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!
        await sleep(5)
        await alice.post('/zones/serial.test/rrsets/A/c1', { rdata: ['192.0.2.1', '192.0.2.2', '192.0.2.3'] })
        assert.equal(await count(), start + 3)
        await alice.put('/zones/serial.test/rrsets/A/c1', { rdata: ['192.0.2.1'] })
        assert.equal(await count(), start + 1)
        await alice.jsonPatch('/zones/serial.test/rrsets/A/c1', [{ op: 'add', path: '/rdata/-', value: '192.0.2.9' }])
        assert.equal(await count(), start + 2)
        await alice.delete('/zones/serial.test/rrsets/A/c1')
        assert.equal(await count(), start)
        const zoneAfter = (await t.store.zones.findByName('serial.test.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!
        assert.ok(zoneAfter.updated_at > zoneBefore.updated_at)
        assert.equal(Number(zoneAfter.version), Number(zoneBefore.version) + 4)
        assert.equal((await alice.get('/zones/serial.test')).json().properties.lastModifiedDateTime, zoneAfter.updated_at.slice(0, 16) + 'Z')
      })

      it('writes ADD, MODIFY and DELETE audit records: the type, owner, zone, from/to and the comment', async () => {
        await alice.post('/zones/serial.test/rrsets/MX/audit', { ttl: 300, rdata: ['10 mail'], changeComment: 'new mail route' })
        await alice.put('/zones/serial.test/rrsets/MX/audit', { ttl: 300, rdata: ['20 mail'], changeComment: 'lower priority' })
        await alice.jsonPatch('/zones/serial.test/rrsets/MX/audit', [{ op: 'replace', path: '/ttl', value: 60 }])
        await alice.delete('/zones/serial.test/rrsets/MX/audit', { changeComment: 'gone' })
        const mine = async (type: string) => (await audits(type)).filter(r => r.object === 'audit.serial.test.').reverse()
        const [add] = await mine('ADD')
        assert.equal(add?.object_type, 'MX')
        assert.equal(add?.parent, 'serial.test.')
        assert.equal(add?.user_name, 'alice')
        assert.equal(add?.account_name, 'acme')
        assert.equal(add?.change_comment, 'new mail route')
        assert.deepEqual(add?.detail.changes, [{ name: 'rdata', to: ['10 mail.serial.test.'] }, { name: 'ttl', to: 300 }])
        const [put, patch] = await mine('MODIFY')
        assert.equal(put?.change_comment, 'lower priority')
        assert.deepEqual(put?.detail.changes, [{ name: 'rdata', from: ['10 mail.serial.test.'], to: ['20 mail.serial.test.'] }])
        assert.equal(patch?.change_comment, null)
        assert.deepEqual(patch?.detail.changes, [{ name: 'ttl', from: 300, to: 60 }])
        const [del] = await mine('DELETE')
        assert.equal(del?.change_comment, 'gone')
        assert.deepEqual(del?.detail.changes, [{ name: 'rdata', from: ['20 mail.serial.test.'] }, { name: 'ttl', from: 60 }])
      })

      it('audits profile changes', async () => {
        await alice.post('/zones/serial.test/rrsets/A/apool', { ttl: 60, rdata: ['192.0.2.1', '192.0.2.2'], profile: { '@context': RD, order: 'FIXED' } })
        await alice.jsonPatch('/zones/serial.test/rrsets/A/apool', [{ op: 'replace', path: '/profile/order', value: 'RANDOM' }])
        const [modify] = (await audits('MODIFY')).filter(r => r.object === 'apool.serial.test.')
        assert.deepEqual(modify?.detail.changes, [{
          name: 'profile',
          from: { '@context': RD, order: 'FIXED', description: 'apool.serial.test.' },
          to: { '@context': RD, order: 'RANDOM', description: 'apool.serial.test.' }
        }])
      })
    })

    describe('zones that cannot be changed here, permissions and isolation', () => {
      before(async () => {
        await upload('frozen.test')
        assert.equal((await alice.post('/zones', { properties: { name: 'sec.test', accountName: 'acme', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.53' } } } } })).statusCode, 201)
        assert.equal((await alice.post('/zones', { properties: { name: 'alias.test', accountName: 'acme', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'frozen.test' } })).statusCode, 201)
      })

      const writes = (client: Client, zone: string) => [
        async () => await client.post(`/zones/${zone}/rrsets/A/x`, { rdata: ['192.0.2.1'] }),
        async () => await client.put(`/zones/${zone}/rrsets/A/www`, { rdata: ['192.0.2.1'] }),
        async () => await client.patch(`/zones/${zone}/rrsets/A/www`, { ttl: 5 }),
        async () => await client.jsonPatch(`/zones/${zone}/rrsets/A/www`, [{ op: 'replace', path: '/ttl', value: 5 }]),
        async () => await client.delete(`/zones/${zone}/rrsets/A/www`)
      ]

      it('alias zones show their primary\'s rrsets under the alias name, and are read-only (230000)', async () => {
        const www = await one('alias.test', 'A', 'www')
        assert.equal(www.ownerName, 'www.alias.test.')
        assert.deepEqual(www.rdata, ['192.0.2.80', '192.0.2.81'])
        assert.deepEqual((await alice.get('/zones/alias.test/rrsets?q=owner:www.alias.test')).json().rrSets.map((r: any) => r.rrtype), ['A (1)', 'AAAA (28)'])
        for (const write of writes(alice, 'alias.test')) assert.equal(errorCode((await write()).body), 230000)
      })

      it('secondary zones are read-only (53001)', async () => {
        assert.deepEqual((await alice.get('/zones/sec.test/rrsets')).json().rrSets, [])
        for (const write of writes(alice, 'sec.test')) {
          const res = await write()
          assert.equal(errorCode(res.body), 53001)
          assert.match(messages(res.body)[0]!, /sec\.test\. is a secondary zone/)
        }
      })

      it('suspended zones can be read but not changed (1813)', async () => {
        await upload('suspended.test')
        assert.equal((await alice.post('/zones/suspended.test/suspend')).statusCode, 200)
        assert.equal((await alice.get('/zones/suspended.test/rrsets/A/www')).statusCode, 200)
        for (const write of writes(alice, 'suspended.test')) assert.equal(errorCode((await write()).body), 1813)
      })

      it('lets read-only users read but not write (403)', async () => {
        assert.equal((await reader.get('/zones/frozen.test/rrsets/A/www')).statusCode, 200)
        for (const write of writes(reader, 'frozen.test')) assert.equal((await write()).statusCode, 403)
      })

      it('answers 1801 for every operation on another account\'s zone, and changes nothing', async () => {
        const before = await serialOf('frozen.test')
        const reads = [
          await mallory.get('/zones/frozen.test/rrsets'),
          await mallory.get('/zones/frozen.test/rrsets/A'),
          await mallory.get('/zones/frozen.test/rrsets/A/www')
        ]
        const results = [...reads]
        for (const write of writes(mallory, 'frozen.test')) results.push(await write())
        assert.deepEqual(results.map(r => [r.statusCode, errorCode(r.body)]), Array(8).fill([404, 1801]))
        assert.equal(await serialOf('frozen.test'), before)
        assert.deepEqual((await one('frozen.test', 'A', 'www')).rdata, ['192.0.2.80', '192.0.2.81'])
      })
    })

    describe('export', () => {
      it('shows an rrset change in the next export, pools with their comment', async () => {
        await upload('export.test')
        await alice.post('/zones/export.test/rrsets/A/fresh', { ttl: 300, rdata: ['192.0.2.44'] })
        await alice.put('/zones/export.test/rrsets/A/www', { rdata: ['192.0.2.80', '192.0.2.81'], profile: { '@context': RD, order: 'ROUND_ROBIN', description: 'web pool' } })
        await alice.delete('/zones/export.test/rrsets/TXT/txt')
        const res = await alice.post('/zones/export', { zoneNames: ['export.test'] })
        assert.equal(res.statusCode, 202, res.body)
        const id = String(res.headers['x-task-id'])
        for (let i = 0; ; i++) {
          const task = (await alice.get(`/tasks/${id}`)).json()
          if (task.code === 'COMPLETE') break
          assert.notEqual(task.code, 'ERROR', JSON.stringify(task))
          assert.ok(i < 3000, 'export did not finish')
          await sleep(20)
        }
        const text = (await alice.get(`/tasks/${id}/result`)).body
        assert.match(text, /^fresh\s+300\s+IN\s+A\s+192\.0\.2\.44$/m)
        // The pool comment line (its wording is the pools module's) stands right above the pool's records.
        assert.match(text, /^; .*web pool\nwww\t3600\tIN\tA\t192\.0\.2\.80$/m)
        assert.doesNotMatch(text, /v=spf1/)
        const serial = await serialOf('export.test')
        assert.match(text, new RegExp(`IN\\s+SOA\\s+\\S+\\s+\\S+\\s+\\(?\\s*${serial}\\b`))
      })
    })
  })
}
