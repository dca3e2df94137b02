import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { zoneProperties } from '../../../../src/api/routes/zones/dto.ts'
import { splitZoneQ, zoneFilterOf } from '../../../../src/api/routes/zones/list-query.ts'
import type { ZoneRow } from '../../../../src/store/schema.ts'
import type { Zone, ZoneChanges, ZoneSort } from '../../../../src/store/store.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'

/** What the tests know about each zone they created, to compute the expected lists. */
interface Model {
  name: string
  accountKey: string
  type: ZoneRow['zone_type']
  status: ZoneRow['status']
  count: number
  network2: boolean
  signed: boolean
}

const SORTS: ZoneSort[] = ['NAME', 'ACCOUNT_NAME', 'RECORD_COUNT', 'ZONE_TYPE']
const TYPES: ZoneRow['zone_type'][] = ['PRIMARY', 'PRIMARY', 'SECONDARY', 'ALIAS']
const TLDS = ['org', 'net', 'test']

function sortValue (z: Model, sort: ZoneSort): string | number {
  switch (sort) {
    case 'NAME': return z.name
    case 'ACCOUNT_NAME': return z.accountKey
    case 'RECORD_COUNT': return z.count
    case 'ZONE_TYPE': return z.type
  }
}

/** The list order of the store: the sort value, then the name; `reverse` flips both. */
function ordered (zones: Model[], sort: ZoneSort, reverse: boolean): string[] {
  const cmp = (a: Model, b: Model): number => {
    const va = sortValue(a, sort)
    const vb = sortValue(b, sort)
    const c = va < vb ? -1 : va > vb ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0
    return reverse ? -c : c
  }
  return [...zones].sort(cmp).map(z => z.name)
}

interface Page {
  queryInfo: { q: string, sort: string, reverse: boolean, limit: number, cursor?: string }
  cursorInfo: { next?: string, previous?: string, first?: string, last?: string }
  resultInfo?: { totalCount: number, offset: number, returnedCount: number }
  zones: { properties: Record<string, unknown> & { name: string } }[]
}

describe('zone list q parser', () => {
  it('splits key:value terms; values run until the next key and keep their spaces', () => {
    assert.deepEqual(splitZoneQ('  name:example   zone_type:PRIMARY '), [{ key: 'name', value: 'example' }, { key: 'zone_type', value: 'PRIMARY' }])
    assert.deepEqual(splitZoneQ('account_name:Beta Corp zone_type:PRIMARY'), [{ key: 'account_name', value: 'Beta Corp' }, { key: 'zone_type', value: 'PRIMARY' }])
    assert.deepEqual(splitZoneQ(''), [])
    assert.deepEqual(splitZoneQ('   '), [])
  })

  it('lets an account name hold colons, but reports an unknown key after other values', () => {
    assert.deepEqual(splitZoneQ('account_name:Gamma: West a:b name:x'), [{ key: 'account_name', value: 'Gamma: West a:b' }, { key: 'name', value: 'x' }])
    assert.deepEqual(splitZoneQ('name:x foo:bar'), [{ key: 'name', value: 'x' }, { key: 'foo', value: 'bar' }])
    assert.deepEqual(splitZoneQ('name:a:b'), [{ key: 'name', value: 'a:b' }])
  })

  it('decodes values a client percent-encoded twice, + as a space', () => {
    assert.deepEqual(splitZoneQ('account_name:Beta%20Corp'), [{ key: 'account_name', value: 'Beta Corp' }])
    assert.deepEqual(splitZoneQ('account_name:Beta+Corp%21'), [{ key: 'account_name', value: 'Beta Corp!' }])
    assert.deepEqual(splitZoneQ('name:0%2F24.2.0.192.in-addr.arpa'), [{ key: 'name', value: '0/24.2.0.192.in-addr.arpa' }])
    // A bare + stays a plus: it was a real one once the query string was decoded.
    assert.deepEqual(splitZoneQ('account_name:a+b'), [{ key: 'account_name', value: 'a+b' }])
    assert.deepEqual(splitZoneQ('account_name:100%'), [{ key: 'account_name', value: '100%' }])
  })

  it('refuses text that does not start with a key', () => {
    assert.throws(() => splitZoneQ('example'), /q must be space-separated key:value terms/)
    assert.throws(() => splitZoneQ('example name:x'), /q must be space-separated key:value terms/)
  })

  it('builds the store filter: any case, ACTIVE by default, ALL for every status, empty values ignored', () => {
    assert.deepEqual(zoneFilterOf('', 'cursor'), { status: 'ACTIVE' })
    assert.deepEqual(zoneFilterOf('NAME:Example.ORG Zone_Type:secondary zone_status:all network:ULTRA2 account_name:Beta Corp', 'cursor'),
      { name: 'example.org', type: 'SECONDARY', network2: true, accountNameKey: 'beta corp' })
    assert.deepEqual(zoneFilterOf('name: zone_type:', 'cursor'), { status: 'ACTIVE' })
    assert.deepEqual(zoneFilterOf('dnssec_status:signed network:ultra1', 'offset'), { status: 'ACTIVE', dnssecStatus: 'SIGNED', network2: false })
  })

  it('names the key of a bad, unknown or repeated term', () => {
    assert.throws(() => zoneFilterOf('foo:bar', 'cursor'), { message: 'Invalid input: q.foo' })
    assert.throws(() => zoneFilterOf('dnssec_status:SIGNED', 'cursor'), { message: 'Invalid input: q.dnssec_status' })
    assert.throws(() => zoneFilterOf('zone_type:MASTER', 'cursor'), { message: 'Invalid input: q.zone_type must be one of PRIMARY, SECONDARY, ALIAS' })
    assert.throws(() => zoneFilterOf('network:ultra3', 'cursor'), { message: 'Invalid input: q.network must be one of ultra1, ultra2' })
    assert.throws(() => zoneFilterOf('name:a name:b', 'cursor'), { message: 'Invalid input: q.name is given more than once' })
  })
})

for (const engine of await engineCases()) {
  describe(`${engine.name}: GET /zones`, { skip: engine.skip }, () => {
    let t: TestApp
    let token: string
    let otherToken: string
    let emptyToken: string
    const mine: Model[] = []
    const theirs: Model[] = []

    async function get (url: string, as = token): Promise<{ status: number, body: any }> {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${as}` } })
      return { status: res.statusCode, body: res.json() }
    }

    async function page (url: string, as = token): Promise<Page> {
      const res = await get(url, as)
      assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`)
      return res.body as Page
    }

    const names = (p: Page): string[] => p.zones.map(z => z.properties.name)
    const withCursor = (url: string, cursor: string): string => `${url}&cursor=${cursor}`

    /** Follow `cursorInfo[link]` from `url` (at `start` when given) until it is absent; returns every page. */
    async function follow (url: string, link: 'next' | 'previous', start?: string): Promise<Page[]> {
      const pages = [await page(start === undefined ? url : withCursor(url, start))]
      for (let cursor = pages[0]!.cursorInfo[link]; cursor !== undefined; cursor = pages.at(-1)!.cursorInfo[link]) {
        pages.push(await page(withCursor(url, cursor)))
        assert.ok(pages.length <= 100, 'paging does not end')
      }
      return pages
    }

    before(async () => {
      t = await buildTestApp(engine.name)
      await t.user('alice', 'acme')
      token = await t.user('alice', 'Beta Corp')
      otherToken = await t.user('mallory', 'other-acct')
      emptyToken = await t.user('eve', 'empty-acct')
      const acme = (await t.store.accounts.findByName('acme'))!
      const beta = (await t.store.accounts.findByName('Beta Corp'))!
      const other = (await t.store.accounts.findByName('other-acct'))!
      const add = async (account: typeof acme, i: number, into: Model[], prefix: string): Promise<void> => {
        // Names in an order unrelated to creation order; counts, types and accounts repeat, so
        // every sort has ties that the name breaks.
        const name = `${prefix}${String((i * 7919) % 1000).padStart(3, '0')}-${i}.example.${TLDS[i % 3]}.`
        const model: Model = {
          name,
          accountKey: account.name_key,
          type: TYPES[i % 4]!,
          status: i % 11 === 5 ? 'SUSPENDED' : 'ACTIVE',
          count: (i * 37) % 23,
          network2: i % 9 === 4,
          signed: i % 7 === 2
        }
        const row = await t.store.zones.create({ accountId: account.id, accountNameKey: account.name_key, name, type: model.type, status: model.status })
        // network2 and dnssec_status have no API to change them yet: set through the row update.
        await t.store.zones.update(row.id, { record_count: model.count, network2: model.network2 ? 1 : 0, dnssec_status: model.signed ? 'SIGNED' : 'UNSIGNED' } as ZoneChanges)
        into.push(model)
      }
      for (let i = 0; i < 250; i++) await add(i % 5 < 3 ? acme : beta, i, mine, 'z')
      for (let i = 0; i < 20; i++) await add(other, i, theirs, 'o')
    })
    after(async () => { await t?.close() })

    const active = (zones: Model[]): Model[] => zones.filter(z => z.status === 'ACTIVE')

    it('pages forward with next through every zone, in every sort and direction', async () => {
      for (const sort of SORTS) {
        for (const reverse of [false, true]) {
          const url = `/v3/zones?limit=7&sort=${sort}&reverse=${reverse}&q=zone_status:ALL`
          const pages = await follow(url, 'next')
          assert.deepEqual(pages.flatMap(names), ordered(mine, sort, reverse), url)
          assert.equal(pages.length, Math.ceil(250 / 7))
          assert.deepEqual(Object.keys(pages[0]!.cursorInfo).sort(), ['last', 'next'])
          assert.deepEqual(Object.keys(pages[1]!.cursorInfo).sort(), ['first', 'last', 'next', 'previous'])
          assert.deepEqual(Object.keys(pages.at(-1)!.cursorInfo).sort(), ['first', 'previous'])
          for (const p of pages) assert.deepEqual(p.queryInfo, { q: 'zone_status:ALL', sort, reverse, limit: 7, ...(p === pages[0] ? {} : { cursor: p.queryInfo.cursor }) })
        }
      }
    })

    it('pages backwards with previous from the last page, in every sort and direction', async () => {
      for (const sort of SORTS) {
        for (const reverse of [false, true]) {
          const url = `/v3/zones?limit=7&sort=${sort}&reverse=${reverse}&q=zone_status:ALL`
          const first = await page(url)
          const pages = await follow(url, 'previous', first.cursorInfo.last)
          const expected = ordered(mine, sort, reverse)
          assert.deepEqual(pages.reverse().flatMap(names), expected, url)
          // The last page is read from the end, so it is full; the short page is the first one.
          assert.deepEqual(names(pages.at(-1)!), expected.slice(-7))
          assert.deepEqual(Object.keys(pages.at(-1)!.cursorInfo).sort(), ['first', 'previous'])
          assert.deepEqual(Object.keys(pages[0]!.cursorInfo).sort(), ['last', 'next'])
        }
      }
    })

    it('goes back to exactly the page before with previous, and jumps to the ends with first and last', async () => {
      const url = '/v3/zones?limit=7&sort=RECORD_COUNT&q=zone_status:ALL'
      const expected = ordered(mine, 'RECORD_COUNT', false)
      const p1 = await page(url)
      const p2 = await page(withCursor(url, p1.cursorInfo.next!))
      const p3 = await page(withCursor(url, p2.cursorInfo.next!))
      assert.deepEqual(names(p3), expected.slice(14, 21))
      assert.deepEqual(names(await page(withCursor(url, p3.cursorInfo.previous!))), names(p2))
      assert.deepEqual(names(await page(withCursor(url, p2.cursorInfo.previous!))), names(p1))
      const first = await page(withCursor(url, p3.cursorInfo.first!))
      assert.deepEqual(names(first), expected.slice(0, 7))
      assert.equal(first.queryInfo.cursor, p3.cursorInfo.first)
      assert.deepEqual(Object.keys(first.cursorInfo).sort(), ['last', 'next'])
      const last = await page(withCursor(url, p3.cursorInfo.last!))
      assert.deepEqual(names(last), expected.slice(-7))
      const beforeLast = await page(withCursor(url, last.cursorInfo.previous!))
      assert.deepEqual(names(beforeLast), expected.slice(-14, -7))
      assert.deepEqual(names(await page(withCursor(url, beforeLast.cursorInfo.next!))), names(last))
    })

    it('answers the v3 DTO with the list properties of each zone', async () => {
      const p = await page('/v3/zones?limit=3&q=zone_type:PRIMARY')
      assert.deepEqual(Object.keys(p).sort(), ['cursorInfo', 'queryInfo', 'zones'])
      for (const z of p.zones) {
        const row = (await t.store.zones.findByName(z.properties.name, { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!
        assert.deepEqual(z.properties, zoneProperties(row, { list: true }))
        assert.equal(typeof z.properties.network2, 'boolean')
        assert.equal('recordCount' in z.properties, false)
      }
    })

    it('filters by each q key and by several at once', async () => {
      const list = async (q: string, version = 'v3'): Promise<string[]> => names(await page(`/${version}/zones?limit=1000&q=${encodeURIComponent(q)}`))
      const expect = (f: (z: Model) => boolean): string[] => ordered(mine.filter(f), 'NAME', false)
      assert.deepEqual(await list(''), expect(z => z.status === 'ACTIVE'))
      assert.deepEqual(await list('name:EXAMPLE.NET'), expect(z => z.status === 'ACTIVE' && z.name.includes('example.net')))
      assert.deepEqual(await list('name:7-1'), expect(z => z.status === 'ACTIVE' && z.name.includes('7-1')))
      assert.deepEqual(await list('zone_type:secondary'), expect(z => z.status === 'ACTIVE' && z.type === 'SECONDARY'))
      assert.deepEqual(await list('zone_type:ALIAS zone_status:ALL'), expect(z => z.type === 'ALIAS'))
      assert.deepEqual(await list('zone_status:SUSPENDED'), expect(z => z.status === 'SUSPENDED'))
      assert.deepEqual(await list('zone_status:ALL'), expect(() => true))
      assert.deepEqual(await list('account_name:Beta Corp'), expect(z => z.status === 'ACTIVE' && z.accountKey === 'beta corp'))
      assert.deepEqual(await list('account_name:ACME'), expect(z => z.status === 'ACTIVE' && z.accountKey === 'acme'))
      assert.deepEqual(await list('network:ultra2 zone_status:ALL'), expect(z => z.network2))
      assert.deepEqual(await list('network:ultra1'), expect(z => z.status === 'ACTIVE' && !z.network2))
      assert.deepEqual(await list('account_name:beta corp zone_type:PRIMARY name:.net'),
        expect(z => z.status === 'ACTIVE' && z.accountKey === 'beta corp' && z.type === 'PRIMARY' && z.name.includes('.net')))
      assert.deepEqual(await list('dnssec_status:SIGNED', 'v1'), expect(z => z.status === 'ACTIVE' && z.signed))
      assert.deepEqual(await list('dnssec_status:unsigned zone_type:PRIMARY', 'v2'), expect(z => z.status === 'ACTIVE' && !z.signed && z.type === 'PRIMARY'))
    })

    it('accepts Python-style form encoding and reverse=True', async () => {
      const p = await page('/v3/zones?q=zone_type%3APRIMARY+name%3Aexample&reverse=True&limit=1000')
      assert.deepEqual(names(p), ordered(mine.filter(z => z.status === 'ACTIVE' && z.type === 'PRIMARY'), 'NAME', true))
      assert.deepEqual(p.queryInfo, { q: 'zone_type:PRIMARY name:example', sort: 'NAME', reverse: true, limit: 1000 })
      const spaced = await page('/v3/zones?q=account_name%3ABeta+Corp+zone_type%3APRIMARY&limit=1000&reverse=FALSE')
      assert.deepEqual(names(spaced), ordered(mine.filter(z => z.status === 'ACTIVE' && z.type === 'PRIMARY' && z.accountKey === 'beta corp'), 'NAME', false))
    })

    it('accepts the Go SDK form: trailing slash, leading &, empty cursor and sort, offset=0', async () => {
      const p = await page('/v3/zones/?&q=&offset=0&cursor=&limit=100&sort=&reverse=false')
      assert.deepEqual(p.queryInfo, { q: '', sort: 'NAME', reverse: false, limit: 100 })
      assert.deepEqual(names(p), ordered(active(mine), 'NAME', false).slice(0, 100))
      assert.deepEqual(Object.keys(p.cursorInfo).sort(), ['last', 'next'])
      const next = await page(`/v3/zones/?&q=&offset=0&cursor=${p.cursorInfo.next!}&limit=100&sort=&reverse=false`)
      assert.deepEqual(names(next), ordered(active(mine), 'NAME', false).slice(100, 200))
    })

    it('echoes the canonical sort and the requested limit; empty values take the defaults', async () => {
      const p = await page('/zones?sort=record_count&limit=13&reverse=')
      assert.deepEqual(p.queryInfo, { q: '', sort: 'RECORD_COUNT', reverse: false, limit: 13 })
      assert.equal(p.zones.length, 13)
      assert.deepEqual((await page('/v3/zones?limit=')).queryInfo.limit, 100)
    })

    it('answers the unversioned list as octodns calls it, with cursorInfo', async () => {
      const p = await page('/zones?limit=1000&q=zone_type:PRIMARY')
      assert.deepEqual(p.cursorInfo, {})
      assert.equal(p.resultInfo, undefined)
      assert.deepEqual(names(p), ordered(mine.filter(z => z.status === 'ACTIVE' && z.type === 'PRIMARY'), 'NAME', false))
      const paged = await follow('/zones?limit=50&q=zone_type:PRIMARY', 'next')
      assert.deepEqual(paged.flatMap(names), names(p))
    })

    it('pages /v1 and /v2 by offset with resultInfo', async () => {
      for (const version of ['v1', 'v2']) {
        const expected = ordered(mine, 'ACCOUNT_NAME', true)
        const seen: string[] = []
        for (let offset = 0; offset < 260; offset += 40) {
          const p = await page(`/${version}/zones?q=zone_status:ALL&sort=ACCOUNT_NAME&reverse=true&limit=40&offset=${offset}`)
          assert.deepEqual(p.resultInfo, { totalCount: 250, offset, returnedCount: Math.max(0, Math.min(40, 250 - offset)) })
          assert.deepEqual(p.queryInfo, { q: 'zone_status:ALL', sort: 'ACCOUNT_NAME', reverse: true, limit: 40 })
          assert.equal('cursorInfo' in p, false)
          seen.push(...names(p))
        }
        assert.deepEqual(seen, expected)
      }
      const defaults = await page('/v1/zones')
      assert.deepEqual(defaults.resultInfo, { totalCount: active(mine).length, offset: 0, returnedCount: 100 })
    })

    it('gives an account without zones an empty list', async () => {
      assert.deepEqual(await page('/v3/zones', emptyToken), { queryInfo: { q: '', sort: 'NAME', reverse: false, limit: 100 }, cursorInfo: {}, zones: [] })
      assert.deepEqual((await page('/zones?q=zone_type:PRIMARY', emptyToken)).zones, [])
      assert.deepEqual((await page('/v1/zones', emptyToken)).resultInfo, { totalCount: 0, offset: 0, returnedCount: 0 })
    })

    it('never lists zones of another account, even when q names it', async () => {
      const all = names(await page('/v3/zones?limit=1000&q=zone_status:ALL'))
      assert.equal(all.length, 250)
      assert.ok(all.every(n => n.startsWith('z')))
      assert.deepEqual((await page('/v3/zones?q=account_name:other-acct+zone_status:ALL')).zones, [])
      assert.deepEqual((await page('/v1/zones?q=account_name:other-acct')).resultInfo?.totalCount, 0)
      assert.deepEqual(names(await page('/v3/zones?limit=1000&q=zone_status:ALL', otherToken)), ordered(theirs, 'NAME', false))
      assert.deepEqual((await page('/v3/zones?q=account_name:acme', otherToken)).zones, [])
    })

    it('answers 53005 "Invalid input: q.<key>" for an unknown key and names the key of a bad value', async () => {
      for (const q of ['foo:bar', 'name:x+foo:bar']) {
        const res = await get(`/v3/zones?q=${q}`)
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, [{ errorCode: 53005, errorMessage: 'Invalid input: q.foo' }])
      }
      assert.deepEqual((await get('/v3/zones?q=dnssec_status:SIGNED')).body, [{ errorCode: 53005, errorMessage: 'Invalid input: q.dnssec_status' }])
      assert.deepEqual((await get('/v3/zones?q=zone_type:MASTER')).body, [{ errorCode: 53005, errorMessage: 'Invalid input: q.zone_type must be one of PRIMARY, SECONDARY, ALIAS' }])
      assert.deepEqual((await get('/v3/zones?q=zone_status:DELETED')).body, [{ errorCode: 53005, errorMessage: 'Invalid input: q.zone_status must be one of ACTIVE, SUSPENDED, ALL' }])
      assert.deepEqual((await get('/v3/zones?q=example')).body, [{ errorCode: 53005, errorMessage: 'Invalid input: q must be space-separated key:value terms' }])
    })

    it('answers 70004 for an unknown sort', async () => {
      const res = await get('/v3/zones?sort=SIZE')
      assert.equal(res.status, 400)
      assert.deepEqual(res.body, [{ errorCode: 70004, errorMessage: 'Invalid sort option: SIZE' }])
      assert.equal((await get('/v1/zones?sort=OWNER')).status, 400)
    })

    it('answers 53005 naming limit, reverse or offset for a bad value', async () => {
      for (const limit of ['0', '-1', '1001', 'abc', '1.5', '1e2', '99999999999']) {
        const res = await get(`/v3/zones?limit=${limit}`)
        assert.equal(res.status, 400, limit)
        assert.deepEqual(res.body, [{ errorCode: 53005, errorMessage: 'Invalid input: limit must be an integer from 1 to 1000' }])
      }
      assert.deepEqual((await get('/v3/zones?reverse=yes')).body, [{ errorCode: 53005, errorMessage: 'Invalid input: reverse must be true or false' }])
      assert.deepEqual((await get('/v1/zones?offset=-1')).body, [{ errorCode: 53005, errorMessage: 'Invalid input: offset must be an integer of 0 or more' }])
      assert.equal((await get('/v3/zones?limit=1&limit=2')).status, 400)
      assert.equal((await page('/v3/zones?limit=1000')).queryInfo.limit, 1000)
    })

    it('refuses a cursor made for another sort, direction or q, and a malformed one', async () => {
      const p = await page('/v3/zones?limit=7&sort=NAME&q=zone_type:PRIMARY')
      const bad = [{ errorCode: 53005, errorMessage: 'Invalid input: cursor' }]
      for (const url of [
        `/v3/zones?limit=7&sort=RECORD_COUNT&q=zone_type:PRIMARY&cursor=${p.cursorInfo.next!}`,
        `/v3/zones?limit=7&reverse=true&q=zone_type:PRIMARY&cursor=${p.cursorInfo.next!}`,
        `/v3/zones?limit=7&q=zone_type:SECONDARY&cursor=${p.cursorInfo.next!}`,
        `/v3/zones?limit=7&sort=ZONE_TYPE&q=zone_type:PRIMARY&cursor=${p.cursorInfo.last!}`,
        '/v3/zones?cursor=garbage!',
        '/v3/zones?cursor=fjpMQVNU',
        `/v3/zones?cursor=${Buffer.from('{"d":"NEXT","s":"NAME","r":false}').toString('base64url')}`,
        `/v3/zones?cursor=${Buffer.from('[1,2]').toString('base64url')}`,
        `/v3/zones?cursor=${'A'.repeat(3000)}`
      ]) {
        const res = await get(url)
        assert.equal(res.status, 400, url)
        assert.deepEqual(res.body, bad, url)
      }
      // The same q in another spelling is the same list.
      const same = await page(`/v3/zones?limit=7&q=ZONE_TYPE:primary&sort=name&cursor=${p.cursorInfo.next!}`)
      assert.equal(same.zones.length, 7)
    })

    it('keeps paging stable when zones are added or deleted between pages', async () => {
      // Its own user and account, so the changes leave the other tests' zones alone.
      const carol = await t.user('carol', 'gamma')
      const gamma = (await t.store.accounts.findByName('gamma'))!
      const create = async (name: string): Promise<Zone> => await t.store.zones.create({ accountId: gamma.id, accountNameKey: gamma.name_key, name, type: 'PRIMARY' })
      const initial: string[] = []
      for (let i = 0; i < 30; i++) initial.push((await create(`g${String(i).padStart(2, '0')}.example.org.`)).name)
      const url = '/v3/zones?limit=7'
      const p1 = await page(url, carol)
      const p2 = await page(withCursor(url, p1.cursorInfo.next!), carol)
      assert.deepEqual([...names(p1), ...names(p2)], initial.slice(0, 14))
      // One zone before the cursor, one after it, and the first zone of the next page removed.
      await create('a-early.example.org.')
      await create('zz-late.example.org.')
      await t.store.zones.delete(initial[14]!, { accountIds: [gamma.id] })
      const rest: Page[] = []
      for (let c = p2.cursorInfo.next; c !== undefined; c = rest.at(-1)!.cursorInfo.next) rest.push(await page(withCursor(url, c), carol))
      assert.deepEqual(rest.flatMap(names), [...initial.slice(15), 'zz-late.example.org.'])
      // Going back from page 2 gives page 1 again, and now announces the zone added before it.
      const back = await page(withCursor(url, p2.cursorInfo.previous!), carol)
      assert.deepEqual(names(back), names(p1))
      assert.deepEqual(Object.keys(back.cursorInfo).sort(), ['first', 'last', 'next', 'previous'])
      assert.deepEqual(names(await page(withCursor(url, back.cursorInfo.previous!), carol)), ['a-early.example.org.'])
    })

    it('offers first and last when the cursor position holds no rows any more', async () => {
      const url = '/v3/zones?limit=5&q=zone_status:ALL&sort=NAME&reverse=true'
      const last = await page(withCursor(url, (await page(url)).cursorInfo.last!))
      // A NEXT cursor after the final row of the list.
      const previous = JSON.parse(Buffer.from(last.cursorInfo.previous!, 'base64url').toString('utf8'))
      const end = last.zones.at(-1)!.properties.name
      const pastEnd = Buffer.from(JSON.stringify({ ...previous, d: 'NEXT', v: end, n: end })).toString('base64url')
      const empty = await page(withCursor(url, pastEnd))
      assert.deepEqual(empty.zones, [])
      assert.deepEqual(Object.keys(empty.cursorInfo).sort(), ['first', 'last'])
    })
  })
}
