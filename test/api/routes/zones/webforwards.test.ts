import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client, errorCode } from '../../../helpers/zones.ts'

type Client = ReturnType<typeof client>

/** A zone with records at some hosts (a CNAME, an A, a delegation, a DNAME) and none at others. */
const zoneFile = [
  '$TTL 3600',
  '@ IN SOA ns1 hostmaster 2024010101 7200 3600 1209600 300',
  '@ IN NS ns1',
  'ns1 IN A 192.0.2.53',
  'www IN A 192.0.2.80',
  'alias IN CNAME www',
  'mail IN MX 10 mx.example.net.',
  'child IN NS ns.example.net.',
  'old IN DNAME example.net.',
  ''
].join('\n')

const errors = (body: string): Array<{ errorCode: number, errorMessage: string }> => JSON.parse(body)

for (const engine of await engineCases()) {
  describe(`${engine.name}: web forwards`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: Client
    let reader: Client
    let mallory: Client

    const rrset = async (type: string, owner: string): Promise<{ status: number, rdata?: string[], ttl?: number }> => {
      const res = await alice.get(`/zones/example.org/rrsets/${type}/${owner}`)
      if (res.statusCode !== 200) return { status: res.statusCode }
      const r = res.json().rrSets[0]
      return { status: 200, rdata: r.rdata, ttl: r.ttl }
    }
    const serial = async (): Promise<number> => Number((await rrset('SOA', '@')).rdata![0]!.split(' ')[2])
    const create = async (body: unknown, zone = 'example.org', who: Client = alice) => await who.post(`/v1/zones/${zone}/webforwards`, body)
    const created = async (body: unknown): Promise<string> => {
      const res = await create(body)
      assert.equal(res.statusCode, 201, res.body)
      return res.json().guid
    }
    const audits = async (changeType: string) => (await t.store.audit.recent(1000, changeType)).filter(r => r.object_type === 'WEB_FORWARD').map(r => ({ ...r, detail: JSON.parse(r.detail) }))

    before(async () => {
      t = await buildTestApp(engine.name)
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
      reader = client(t.app, await t.user('rita', 'acme', 'ReadOnly'))
      mallory = client(t.app, await t.user('mallory', 'other', 'Owner'))
      const up = await alice.upload({ properties: { name: 'example.org', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, zoneFile)
      assert.equal(up.statusCode, 201, up.body)
    })
    after(async () => { await t?.close() })

    describe('POST /zones/{zoneName}/webforwards', () => {
      it('creates a forward (the Python client\'s body), answers its guid, and points the host at the forwarding server (A, TTL 300)', async () => {
        const before = await serial()
        assert.deepEqual(await rrset('A', 'shop'), { status: 404 })
        const res = await create({ requestTo: 'shop.example.org', defaultRedirectTo: 'https://shop.example.net', defaultForwardType: 'HTTP_301_REDIRECT' })
        assert.equal(res.statusCode, 201, res.body)
        assert.match(res.json().guid, /^[0-9A-F]{16}$/)
        assert.deepEqual(Object.keys(res.json()), ['guid'])
        assert.deepEqual(await rrset('A', 'shop'), { status: 200, rdata: ['127.0.0.1'], ttl: 300 })
        assert.deepEqual(await rrset('AAAA', 'shop'), { status: 404 }, 'no IPv6 address configured: no AAAA')
        assert.ok(await serial() > before, 'the zone serial moved on')
        const got = await alice.get(`/zones/example.org/webforwards/${res.json().guid}`)
        assert.equal(got.statusCode, 200, got.body)
        assert.deepEqual(got.json(), { guid: res.json().guid, requestTo: 'shop.example.org', defaultRedirectTo: 'https://shop.example.net', defaultForwardType: 'HTTP_301_REDIRECT' })
      })

      it('keeps an advanced forward whole: anchor, relative type, records by priority with their rules (Accept always allowed)', async () => {
        const guid = await created({
          requestTo: 'http://promo.example.org/index.html#spring',
          defaultRedirectTo: 'b.example.net',
          defaultForwardType: 'Framed',
          relativeForwardType: 'PARAMETER_AND_PATH',
          records: [
            { redirectTo: 'https://c.example.net:8443/x', forwardType: 'HTTP_307_REDIRECT', priority: 5, rules: [{ header: 'User-Agent', matchCriteria: 'MATCHES', value: 'Mobi(le)?', caseInsensitive: true }] },
            { redirectTo: 'c.example.net', forwardType: 'HTTP_302_REDIRECT', priority: 1, rules: [{ header: 'Accept', matchCriteria: 'CONTAINS', value: 'kb' }] }
          ]
        })
        const got = (await reader.get(`/zones/example.org/webforwards/${guid}`)).json()
        assert.deepEqual(got, {
          guid,
          requestTo: 'http://promo.example.org/index.html#spring',
          defaultRedirectTo: 'http://b.example.net',
          defaultForwardType: 'Framed',
          relativeForwardType: 'PARAMETER_AND_PATH',
          records: [
            { redirectTo: 'http://c.example.net', forwardType: 'HTTP_302_REDIRECT', priority: 1, rules: [{ header: 'Accept', matchCriteria: 'CONTAINS', value: 'kb', caseInsensitive: false }] },
            { redirectTo: 'https://c.example.net:8443/x', forwardType: 'HTTP_307_REDIRECT', priority: 5, rules: [{ header: 'User-Agent', matchCriteria: 'MATCHES', value: 'Mobi(le)?', caseInsensitive: true }] }
          ]
        })
      })

      it('lets the anchor make a forward unique, and refuses the same requestTo twice', async () => {
        await created({ requestTo: 'a.example.org/index.html', defaultRedirectTo: 'https://b.example.net', defaultForwardType: 'HTTP_301_REDIRECT' })
        await created({ requestTo: 'a.example.org/index.html#anchor', defaultRedirectTo: 'https://b.example.net', defaultForwardType: 'HTTP_301_REDIRECT' })
        const again = await create({ requestTo: 'http://A.example.org/index.html', defaultRedirectTo: 'https://other.example.net', defaultForwardType: 'HTTP_302_REDIRECT' })
        assert.equal(again.statusCode, 400)
        assert.deepEqual(errors(again.body), [{ errorCode: 53005, errorMessage: 'Invalid input: a web forward for a.example.org/index.html already exists in the zone example.org.' }])
        assert.deepEqual(await rrset('A', 'a'), { status: 200, rdata: ['127.0.0.1'], ttl: 300 }, 'two forwards share the host\'s records')
      })

      it('refuses missing fields (55001), bad types (59005), bad URLs and schemes (59008), bad relative types', async () => {
        const base = { requestTo: 'x.example.org', defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_302_REDIRECT' }
        const cases: Array<[unknown, number, string?]> = [
          [{ ...base, requestTo: undefined }, 55001, 'requestTo is required field.'],
          [{ ...base, defaultRedirectTo: undefined }, 55001, 'defaultRedirectTo is required field.'],
          [{ ...base, defaultForwardType: undefined }, 55001, 'defaultForwardType is required field.'],
          [undefined, 55001, 'requestTo is required field.'],
          [{ ...base, defaultForwardType: 'HTTP_308_REDIRECT' }, 59005, 'Invalid redirect type: HTTP_308_REDIRECT (defaultForwardType is one of Framed, HTTP_301_REDIRECT, HTTP_302_REDIRECT, HTTP_303_REDIRECT, HTTP_307_REDIRECT)'],
          [{ ...base, requestTo: 'https://x.example.org' }, 59008, 'The target URL is either incorrect or doesn\'t contains supported protocol. (requestTo \'https://x.example.org\': only http:// is acceptable)'],
          [{ ...base, requestTo: 'ftp://x.example.org' }, 59008],
          [{ ...base, requestTo: 'x.example.org:8080/a' }, 59008],
          [{ ...base, requestTo: 'x.example.org/a?b=c' }, 59008],
          [{ ...base, requestTo: 'http://192.0.2.1/' }, 59008],
          [{ ...base, requestTo: '*.example.org' }, 59008],
          [{ ...base, requestTo: 'x.example.org/a b' }, 59008],
          [{ ...base, defaultRedirectTo: 'ftp://example.net' }, 59008],
          [{ ...base, defaultRedirectTo: 'javascript:alert(1)' }, 59008],
          [{ ...base, defaultRedirectTo: 'http://' }, 59008],
          [{ ...base, requestTo: 42 }, 53005],
          [{ ...base, relativeForwardType: 'QUERY' }, 53005],
          [[base], 53005]
        ]
        for (const [body, code, message] of cases) {
          const res = await create(body)
          assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`)
          assert.equal(errorCode(res.body), code, `${JSON.stringify(body)}: ${res.body}`)
          if (message !== undefined) assert.equal(errors(res.body)[0]!.errorMessage, message)
        }
        assert.deepEqual(await rrset('A', 'x'), { status: 404 }, 'nothing was written')
      })

      it('refuses hosts outside the zone, at or below a delegation, below a DNAME', async () => {
        const base = { defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_302_REDIRECT' }
        const outside = await create({ ...base, requestTo: 'www.example.net' })
        assert.deepEqual(errors(outside.body), [{ errorCode: 53005, errorMessage: 'Invalid input: requestTo host www.example.net is not in the zone example.org.' }])
        assert.equal(errorCode((await create({ ...base, requestTo: 'badexample.org' })).body), 53005)
        const cut = await create({ ...base, requestTo: 'www.child.example.org' })
        assert.deepEqual(errors(cut.body), [{ errorCode: 53005, errorMessage: 'Invalid input: requestTo host www.child.example.org is at or below the delegation child.example.org. (NS records), whose names other name servers answer for.' }])
        assert.equal(errorCode((await create({ ...base, requestTo: 'child.example.org' })).body), 53005)
        const dname = await create({ ...base, requestTo: 'x.old.example.org' })
        assert.match(errors(dname.body)[0]!.errorMessage, /below the DNAME record of old\.example\.org\./)
      })

      it('refuses a host with a CNAME or with A records no forward wrote, naming the conflict', async () => {
        const base = { defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_302_REDIRECT' }
        const cname = await create({ ...base, requestTo: 'alias.example.org' })
        assert.deepEqual(errors(cname.body), [{ errorCode: 53005, errorMessage: 'Invalid input: the host alias.example.org already has CNAME records that no web forward wrote; a web forward points the host\'s A and AAAA records at the forwarding server, so delete its CNAME records first.' }])
        const a = await create({ ...base, requestTo: 'www.example.org/page' })
        assert.match(errors(a.body)[0]!.errorMessage, /already has A records that no web forward wrote/)
        assert.deepEqual(await rrset('A', 'www'), { status: 200, rdata: ['192.0.2.80'], ttl: 3600 })
        const mail = await create({ ...base, requestTo: 'mail.example.org' })
        assert.equal(mail.statusCode, 201, 'other types at the host stay beside the forward')
        assert.deepEqual((await rrset('MX', 'mail')).rdata, ['10 mx.example.net.'])
      })

      it('checks records: priorities, unique targets (59007), non-empty rules (53006), match criteria, header names, regular expressions', async () => {
        const rec = (over: Record<string, unknown> = {}) => ({ redirectTo: 'https://m.example.net', forwardType: 'HTTP_302_REDIRECT', priority: 1, rules: [{ header: 'Accept', matchCriteria: 'CONTAINS', value: 'kb' }], ...over })
        const base = { requestTo: 'adv.example.org', defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_302_REDIRECT' }
        const cases: Array<[unknown[], number, RegExp?]> = [
          [[rec({ priority: 0 })], 53005, /priority must be a positive integer/],
          [[rec({ priority: 1.5 })], 53005],
          [[rec({ priority: undefined })], 55001, /records\[0\]\.priority is required field/],
          [[rec(), rec({ redirectTo: 'https://n.example.net' })], 53005, /priority 1 is given twice/],
          [[rec(), rec({ priority: 2 })], 59007, /^All the advanced web forwards should have unique destination of the redirect\.$/],
          [[rec({ rules: [] })], 53006, /^records\[0\]\.rules must not be empty\.$/],
          [[rec({ rules: undefined })], 55001],
          [[rec({ forwardType: 'MOVED' })], 59005],
          [[rec({ redirectTo: 'gopher://m.example.net' })], 59008, /records\[0\]\.redirectTo/],
          [[rec({ rules: [{ header: 'Accept', matchCriteria: 'EQUALS', value: 'x' }] })], 53005, /matchCriteria 'EQUALS'/],
          [[rec({ rules: [{ header: 'X-Tier', matchCriteria: 'CONTAINS', value: 'x' }] })], 53005, /header 'X-Tier' is not a custom header of the account acme/],
          [[rec({ rules: [{ header: 'Accept', matchCriteria: 'MATCHES', value: '(' }] })], 53005, /not a regular expression/],
          [[rec({ rules: [{ header: 'Accept', matchCriteria: 'CONTAINS', value: 'x', caseInsensitive: 'yes' }] })], 53005]
        ]
        for (const [records, code, message] of cases) {
          const res = await create({ ...base, records })
          assert.equal(errorCode(res.body), code, `${JSON.stringify(records)}: ${res.body}`)
          if (message !== undefined) assert.match(errors(res.body)[0]!.errorMessage, message)
        }
      })

      it('accepts a custom header once the account has it (any case), and refuses it again after its deletion', async () => {
        assert.equal((await alice.post('/accounts/acme/customheaders', { names: ['X-Tier', 'X-Region'] })).statusCode, 201)
        assert.deepEqual((await reader.get('/v1/accounts/acme/customheaders')).json(), { names: ['X-Region', 'X-Tier'] })
        const body = { requestTo: 'tier.example.org', defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_302_REDIRECT', records: [{ redirectTo: 'https://gold.example.net', forwardType: 'HTTP_302_REDIRECT', priority: 1, rules: [{ header: 'x-tier', matchCriteria: 'ENDS_WITH', value: 'gold' }] }] }
        await created(body)
        assert.equal((await alice.delete('/accounts/acme/customheaders/x-region')).statusCode, 204)
        assert.deepEqual((await alice.get('/accounts/acme/customheaders')).json(), { names: ['X-Tier'] })
        assert.equal((await alice.delete('/accounts/acme/customheaders/X-Tier')).statusCode, 204)
        assert.equal(errorCode((await create({ ...body, requestTo: 'tier2.example.org' })).body), 53005)
      })

      it('accepts the OpenAPI document\'s examples', async () => {
        const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
        const examples = doc.paths['/zones/{zoneName}/webforwards'].post.requestBody.content['application/json'].examples
        assert.deepEqual(Object.keys(examples).sort(), ['advanced', 'simple'])
        for (const { value } of Object.values(examples) as Array<{ value: unknown }>) {
          const res = await create(value)
          assert.equal(res.statusCode, 201, res.body)
          assert.equal((await alice.delete(`/zones/example.org/webforwards/${res.json().guid}`)).statusCode, 204)
        }
      })

      it('enforces the limits of forwards per zone, records per forward and rules per record before writing', async () => {
        const rule = { header: 'Accept', matchCriteria: 'CONTAINS', value: 'x' }
        const rec = (i: number, rules = 1) => ({ redirectTo: `https://r${i}.example.net`, forwardType: 'HTTP_302_REDIRECT', priority: i + 1, rules: Array.from({ length: rules }, () => rule) })
        const base = { requestTo: 'limits.example.org', defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_302_REDIRECT' }
        assert.deepEqual(errors((await create({ ...base, records: Array.from({ length: 21 }, (_, i) => rec(i)) })).body), [{ errorCode: 53005, errorMessage: 'Invalid input: records holds 21 records; at most 20 are allowed.' }])
        assert.deepEqual(errors((await create({ ...base, records: [rec(0, 11)] })).body), [{ errorCode: 53005, errorMessage: 'Invalid input: records[0].rules holds 11 rules; at most 10 are allowed.' }])
        const long = await create({ ...base, records: [{ ...rec(0), rules: [{ ...rule, value: 'v'.repeat(1025) }] }] })
        assert.match(errors(long.body)[0]!.errorMessage, /value has 1025 characters; at most 1024/)
        assert.deepEqual(await rrset('A', 'limits'), { status: 404 })
        // A zone holding the most forwards refuses one more (the rows written straight into the store).
        assert.equal((await alice.newPrimary('full.test', 'acme')).statusCode, 201)
        const zone = (await t.store.zones.findByName('full.test.', { accountIds: [(await t.store.accounts.findByName('acme'))!.id] }))!
        await t.store.transaction(async (tx) => {
          for (let i = 0; i < 1000; i++) {
            await tx.webForwards.insert({ id: `F${String(i).padStart(15, '0')}`, zoneId: zone.id, zone: zone.name, requestTo: `full.test/${i}`, requestKey: `full.test/${i}`, host: 'full.test', ownerKey: 'x', path: `/${i}`, anchor: '', redirectTo: 'https://example.net', mode: 301, relative: 'none', alternatives: [] }, new Date().toISOString())
          }
        })
        const over = await create({ ...base, requestTo: 'more.full.test' }, 'full.test')
        assert.deepEqual(errors(over.body), [{ errorCode: 53005, errorMessage: 'Invalid input: the zone full.test. holds 1000 web forwards; at most 1000 are allowed.' }])
        assert.equal((await alice.delete('/zones/full.test')).statusCode, 204)
        const full = await create({ ...base, records: Array.from({ length: 20 }, (_, i) => rec(i, 10)) })
        assert.equal(full.statusCode, 201, full.body)
        assert.equal((await alice.delete(`/zones/example.org/webforwards/${full.json().guid}`)).statusCode, 204)
      })

      it('refuses alias and secondary zones (53001), other accounts\' zones (1801), read-only users (403)', async () => {
        const body = { requestTo: 'z.example.org', defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_302_REDIRECT' }
        assert.equal((await alice.send('POST', '/zones', { properties: { name: 'example.com', accountName: 'acme', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'example.org' } })).statusCode, 201)
        const alias = await create({ ...body, requestTo: 'z.example.com' }, 'example.com')
        assert.deepEqual(errors(alias.body), [{ errorCode: 53001, errorMessage: 'Invalid zone type: example.com. is an alias zone; web forwards belong to primary zones.' }])
        assert.equal((await alice.post('/zones', { properties: { name: 'sec.test', accountName: 'acme', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '127.0.0.1' } } } } })).statusCode, 201)
        const secondary = await create({ ...body, requestTo: 'z.sec.test' }, 'sec.test')
        assert.deepEqual(errors(secondary.body), [{ errorCode: 53001, errorMessage: 'Invalid zone type: sec.test. is a secondary zone; web forwards belong to primary zones.' }])
        assert.equal((await alice.delete('/zones/sec.test')).statusCode, 204)
        assert.equal(errorCode((await create(body, 'example.org', mallory)).body), 1801)
        const ro = await create(body, 'example.org', reader)
        assert.equal(ro.statusCode, 403)
        assert.equal(errorCode((await create(body, 'nothing.test')).body), 1801)
        assert.deepEqual((await alice.get('/zones/example.com/webforwards')).json().webForwards, [], 'an alias lists none')
      })
    })

    describe('GET /zones/{zoneName}/webforwards', () => {
      it('lists with queryInfo and resultInfo, sorted by REQUEST_TO by default', async () => {
        const res = await reader.get('/v1/zones/example.org/webforwards')
        assert.equal(res.statusCode, 200, res.body)
        const body = res.json()
        assert.deepEqual(body.queryInfo, { sort: 'REQUEST_TO', reverse: false, limit: 100 })
        assert.equal(body.resultInfo.totalCount, body.webForwards.length)
        assert.deepEqual(body.resultInfo, { totalCount: 6, offset: 0, returnedCount: 6 })
        assert.deepEqual(body.webForwards.map((f: any) => f.requestTo), [
          'a.example.org/index.html', 'a.example.org/index.html#anchor', 'mail.example.org', 'http://promo.example.org/index.html#spring', 'shop.example.org', 'tier.example.org'
        ])
      })

      it('filters with q (type, advanced, name), sorts (REDIRECT_TO, TYPE, DOMAIN, ADVANCED), reverses and pages', async () => {
        const list = async (qs: string): Promise<any> => {
          const res = await alice.get(`/zones/example.org/webforwards?${qs}`)
          assert.equal(res.statusCode, 200, res.body)
          return res.json()
        }
        const hosts = (b: any): string[] => b.webForwards.map((f: any) => f.requestTo)
        assert.deepEqual(hosts(await list('q=type:Framed')), ['http://promo.example.org/index.html#spring'])
        assert.deepEqual(hosts(await list('q=advanced:true')), ['http://promo.example.org/index.html#spring', 'tier.example.org'])
        assert.equal((await list('q=advanced:false')).resultInfo.totalCount, 4)
        assert.deepEqual(hosts(await list(`q=${encodeURIComponent('name:SHOP')}`)), ['shop.example.org'])
        assert.deepEqual(hosts(await list(`q=${encodeURIComponent('name:gold.example type:HTTP_302_REDIRECT')}`)), ['tier.example.org'])
        assert.equal((await list('q=name:shop')).queryInfo.q, 'name:shop')
        const byRedirect = await list('sort=redirect_to')
        assert.equal(byRedirect.queryInfo.sort, 'REDIRECT_TO')
        assert.deepEqual(byRedirect.webForwards.map((f: any) => f.defaultRedirectTo), [...byRedirect.webForwards.map((f: any) => f.defaultRedirectTo)].sort())
        assert.equal((await list('sort=TYPE')).webForwards[0].defaultForwardType, 'Framed')
        assert.equal((await list('sort=ADVANCED&reverse=true')).webForwards[0].records !== undefined, true)
        assert.deepEqual(hosts(await list('sort=DOMAIN')).slice(0, 2), ['a.example.org/index.html', 'a.example.org/index.html#anchor'])
        const page = await list('offset=1&limit=2&reverse=true')
        assert.deepEqual(page.resultInfo, { totalCount: 6, offset: 1, returnedCount: 2 })
        assert.deepEqual(hosts(page), ['shop.example.org', 'http://promo.example.org/index.html#spring'])
        assert.deepEqual(errors((await alice.get('/zones/example.org/webforwards?sort=NAME')).body), [{ errorCode: 70004, errorMessage: 'Invalid sort option: NAME' }])
        assert.deepEqual(errors((await alice.get('/zones/example.org/webforwards?q=host:x')).body), [{ errorCode: 53005, errorMessage: 'Invalid input: q.host' }])
        assert.equal(errorCode((await alice.get('/zones/example.org/webforwards?q=type:MOVED')).body), 53005)
        assert.equal(errorCode((await alice.get('/zones/example.org/webforwards?q=advanced:maybe')).body), 53005)
        assert.equal(errorCode((await alice.get('/zones/example.org/webforwards?limit=0')).body), 53005)
        assert.equal(errorCode((await mallory.get('/zones/example.org/webforwards')).body), 1801)
      })

      it('answers 59002 for an unknown guid', async () => {
        const res = await alice.get('/zones/example.org/webforwards/0123456789ABCDEF')
        assert.equal(res.statusCode, 404)
        assert.deepEqual(errors(res.body), [{ errorCode: 59002, errorMessage: 'Web forward with given guid does not exist under the zone.' }])
      })
    })

    describe('PUT, PATCH and DELETE /zones/{zoneName}/webforwards/{guid}', () => {
      it('replaces a forward with PUT (200), moving the records to its new host and away from the old one', async () => {
        const guid = await created({ requestTo: 'move1.example.org', defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_301_REDIRECT' })
        assert.equal((await rrset('A', 'move1')).status, 200)
        const res = await alice.put(`/zones/example.org/webforwards/${guid}`, { guid, requestTo: 'move2.example.org/x', defaultRedirectTo: 'https://example.net/y', defaultForwardType: 'HTTP_303_REDIRECT', relativeForwardType: 'PATH' })
        assert.equal(res.statusCode, 200, res.body)
        assert.deepEqual(res.json(), { message: 'Successful' })
        assert.deepEqual(await rrset('A', 'move1'), { status: 404 })
        assert.deepEqual((await rrset('A', 'move2')).rdata, ['127.0.0.1'])
        assert.deepEqual((await alice.get(`/zones/example.org/webforwards/${guid}`)).json(), { guid, requestTo: 'move2.example.org/x', defaultRedirectTo: 'https://example.net/y', defaultForwardType: 'HTTP_303_REDIRECT', relativeForwardType: 'PATH' })
        assert.equal(errorCode((await alice.put(`/zones/example.org/webforwards/${guid}`, { requestTo: 'move2.example.org/x' })).body), 55001, 'PUT needs the whole DTO')
        assert.equal(errorCode((await alice.put(`/zones/example.org/webforwards/${guid}`, { guid: 'FFFFFFFFFFFFFFFF', requestTo: 'move2.example.org/x', defaultRedirectTo: 'https://example.net/y', defaultForwardType: 'HTTP_303_REDIRECT' })).body), 53005, 'a body guid names the path\'s forward')
        assert.equal(errorCode((await alice.put('/zones/example.org/webforwards/FFFFFFFFFFFFFFFF', { requestTo: 'q.example.org', defaultRedirectTo: 'https://example.net/y', defaultForwardType: 'HTTP_303_REDIRECT' })).body), 59002)
        assert.equal(errorCode((await alice.put(`/zones/example.org/webforwards/${guid}`, { requestTo: 'shop.example.org', defaultRedirectTo: 'https://example.net/y', defaultForwardType: 'HTTP_303_REDIRECT' })).body), 53005, 'another forward\'s requestTo')
        assert.equal((await reader.put(`/zones/example.org/webforwards/${guid}`, { requestTo: 'move2.example.org/x', defaultRedirectTo: 'https://example.net/z', defaultForwardType: 'HTTP_303_REDIRECT' })).statusCode, 403)
      })

      it('merges a PATCH into the stored forward (null removes), and applies JSON Patch', async () => {
        const guid = await created({ requestTo: 'patch.example.org', defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_301_REDIRECT', relativeForwardType: 'PATH' })
        const res = await alice.patch(`/zones/example.org/webforwards/${guid}`, { defaultForwardType: 'HTTP_302_REDIRECT', relativeForwardType: null })
        assert.equal(res.statusCode, 200, res.body)
        assert.deepEqual((await alice.get(`/zones/example.org/webforwards/${guid}`)).json(), { guid, requestTo: 'patch.example.org', defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_302_REDIRECT' })
        const jp = await alice.jsonPatch(`/zones/example.org/webforwards/${guid}`, [
          { op: 'replace', path: '/defaultRedirectTo', value: 'https://example.net/new' },
          { op: 'add', path: '/records', value: [{ redirectTo: 'https://m.example.net', forwardType: 'HTTP_302_REDIRECT', priority: 1, rules: [{ header: 'User-Agent', matchCriteria: 'CONTAINS', value: 'Mobile' }] }] },
          { op: 'replace', path: '/records/0/rules/0/value', value: 'Android' }
        ])
        assert.equal(jp.statusCode, 200, jp.body)
        const got = (await alice.get(`/zones/example.org/webforwards/${guid}`)).json()
        assert.equal(got.defaultRedirectTo, 'https://example.net/new')
        assert.equal(got.records[0].rules[0].value, 'Android')
        assert.equal(errorCode((await alice.jsonPatch(`/zones/example.org/webforwards/${guid}`, [{ op: 'replace', path: '/guid', value: 'X' }])).body), 170001)
        assert.equal(errorCode((await alice.jsonPatch(`/zones/example.org/webforwards/${guid}`, [{ op: 'remove', path: '/requestTo' }])).body), 55001)
        assert.equal(errorCode((await alice.jsonPatch(`/zones/example.org/webforwards/${guid}`, [{ op: 'frobnicate', path: '/requestTo' }])).body), 170004)
        assert.equal(errorCode((await alice.jsonPatch(`/zones/example.org/webforwards/${guid}`, {})).body), 170003)
      })

      it('writes nothing for a change that changes nothing', async () => {
        const guid = await created({ requestTo: 'same.example.org', defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_301_REDIRECT' })
        const before = await serial()
        assert.equal((await alice.patch(`/zones/example.org/webforwards/${guid}`, { defaultForwardType: 'HTTP_301_REDIRECT' })).statusCode, 200)
        assert.equal(await serial(), before)
      })

      it('deletes (204): the host\'s records go with its last forward only, and the guid is gone (59002)', async () => {
        const list = (await alice.get('/zones/example.org/webforwards?q=name:a.example.org/index')).json().webForwards
        assert.equal(list.length, 2)
        assert.equal((await reader.delete(`/zones/example.org/webforwards/${list[0].guid}`)).statusCode, 403)
        assert.equal((await alice.delete(`/v1/zones/example.org/webforwards/${list[0].guid}`)).statusCode, 204)
        assert.equal((await rrset('A', 'a')).status, 200, 'another forward still names the host')
        assert.equal((await alice.delete(`/zones/example.org/webforwards/${list[1].guid.toLowerCase()}`)).statusCode, 204)
        assert.deepEqual(await rrset('A', 'a'), { status: 404 })
        assert.equal(errorCode((await alice.delete(`/zones/example.org/webforwards/${list[1].guid}`)).body), 59002)
        const mail = (await alice.get('/zones/example.org/webforwards?q=name:mail')).json().webForwards[0]
        assert.equal((await alice.delete(`/zones/example.org/webforwards/${mail.guid}`)).statusCode, 204)
        assert.deepEqual(await rrset('A', 'mail'), { status: 404 })
        assert.deepEqual((await rrset('MX', 'mail')).rdata, ['10 mx.example.net.'], 'the host\'s other records stay')
      })
    })

    describe('the rrsets API at a forwarded host', () => {
      it('refuses A, AAAA and CNAME writes while the host is forwarded, and allows them again after', async () => {
        const guid = await created({ requestTo: 'guard.example.org', defaultRedirectTo: 'https://example.net', defaultForwardType: 'HTTP_301_REDIRECT' })
        for (const [method, type, body] of [['PUT', 'A', { ttl: 60, rdata: ['192.0.2.1'] }], ['DELETE', 'A', undefined], ['POST', 'AAAA', { rdata: ['2001:db8::1'] }], ['POST', 'CNAME', { rdata: ['www.example.org.'] }]] as const) {
          const res = await alice.send(method, `/zones/example.org/rrsets/${type}/guard`, body)
          assert.equal(res.statusCode, 400, `${method} ${type}: ${res.body}`)
          assert.deepEqual(errors(res.body), [{ errorCode: 53005, errorMessage: `Invalid input: guard.example.org. is forwarded by 1 web forward(s); its A and AAAA records point at the forwarding server and are written by the service, so its ${type} records cannot be changed through the rrsets API (delete its web forwards first).` }])
        }
        assert.equal((await alice.post('/zones/example.org/rrsets/TXT/guard', { rdata: ['hello'] })).statusCode, 201, 'other types are the user\'s')
        assert.equal((await alice.delete(`/zones/example.org/webforwards/${guid}`)).statusCode, 204)
        assert.equal((await alice.post('/zones/example.org/rrsets/A/guard', { rdata: ['192.0.2.1'] })).statusCode, 201)
      })
    })

    describe('audit and usage', () => {
      it('audits each create, update and delete as a WEB_FORWARD of the zone, with the host records written', async () => {
        const adds = await audits('ADD')
        const shop = adds.find(r => r.object === 'shop.example.org')!
        assert.equal(shop.parent, 'example.org.')
        assert.equal(shop.user_name, 'alice')
        assert.deepEqual(shop.detail.changes.find((c: any) => c.name === 'redirectTo'), { name: 'redirectTo', to: 'https://shop.example.net' })
        assert.deepEqual(shop.detail.changes.find((c: any) => c.name === 'A shop.example.org.'), { name: 'A shop.example.org.', to: ['127.0.0.1'] })
        const mods = await audits('MODIFY')
        assert.ok(mods.some(r => r.object === 'move2.example.org/x' && r.detail.changes.some((c: any) => c.name === 'requestTo' && c.from === 'move1.example.org')))
        const dels = await audits('DELETE')
        assert.ok(dels.some(r => r.object === 'mail.example.org' && r.detail.changes.some((c: any) => c.name === 'A mail.example.org.' && c.to === undefined)))
        assert.ok((await t.store.audit.recent(100, 'ADD')).some(r => r.object_type === 'CUSTOM_HEADER' && r.object === 'X-Tier'))
        const report = await alice.get(`/reports/dns_configuration/audit?filter=${encodeURIComponent('object_type:WEB_FORWARD')}&limit=200`)
        assert.equal(report.statusCode, 200, report.body)
        const shown = report.json().auditRecords as Array<{ objectType: string, changeType: string, object: string }>
        assert.ok(shown.length > 0 && shown.every(r => r.objectType === 'WEB_FORWARD'))
        assert.deepEqual([...new Set(shown.map(r => r.changeType))].sort(), ['ADD', 'DELETE', 'MODIFY'])
      })

      it('counts the web forwards in the usage summary (urlForwardCount, the month\'s peak); emailForwardCount stays 0', async () => {
        const owner = client(t.app, await t.user('uma', 'usage', 'Owner'))
        assert.equal((await owner.newPrimary('example.net', 'usage')).statusCode, 201)
        const body = (host: string) => ({ requestTo: `${host}.example.net`, defaultRedirectTo: 'https://example.org', defaultForwardType: 'HTTP_301_REDIRECT' })
        assert.equal((await owner.post('/zones/example.net/webforwards', body('a'))).statusCode, 201)
        const second = await owner.post('/zones/example.net/webforwards', body('b'))
        const summary = async (): Promise<number> => (await owner.get('/reports/dns/usage_summary?accountName=usage')).json().usageSummary[0].urlForwardCount
        assert.equal(await summary(), 2)
        assert.equal((await owner.delete(`/zones/example.net/webforwards/${second.json().guid}`)).statusCode, 204)
        assert.equal(await summary(), 2, 'the peak of the month')
        const daily = await owner.send('GET', '/reports/dns/usage_summary/daily', JSON.stringify({ month: new Date().toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }), accountNames: ['usage'] }), { 'content-type': 'application/json' })
        assert.equal(daily.statusCode, 200, daily.body)
        const today = daily.json().usageSummary.at(-1)
        assert.equal(today.urlForwardCount, 2)
        assert.equal(today.emailForwardCount, 0)
      })

      it('deletes the forwards with their zone', async () => {
        assert.equal((await alice.delete('/zones/example.com')).statusCode, 204)
        assert.equal((await alice.delete('/zones/example.org')).statusCode, 204)
        assert.deepEqual((await t.store.webForwards.page(100)).filter(f => f.zone === 'example.org.'), [])
      })
    })
  })
}
