/**
 * `GET /reports/dns_configuration/audit` and its filter list, on records of known content and
 * time: each filter key, its spellings and combinations, each error the spec lists, keyset
 * paging forward and back across 600 records while records are added, CSV parsed back, and
 * isolation between accounts. The reports' clock stands ten days after the real time, so the
 * login records the test users leave fall outside every window read here.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { formatGmt } from '../../../../src/reports/audit.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { parseCsv } from '../../../helpers/csv.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client, errorCode } from '../../../helpers/zones.ts'

const NOW = new Date(Date.now() + 10 * 86_400_000)
const ago = (minutes: number): string => new Date(NOW.getTime() - minutes * 60_000).toISOString()
const AUDIT = '/reports/dns_configuration/audit'

interface Seed { account: 'acme' | 'other', user: string, objectType: string, changeType: string, object: string, parent?: string, comment?: string, minutesAgo: number }

/** Newest first in acme: 1 (10 min), 2, 3, 4, 7 (50 min); 5 is 30 hours old; 6 is another account's. */
const SEEDS: Record<number, Seed> = {
  1: { account: 'acme', user: 'alice', objectType: 'ZONE', changeType: 'ADD', object: 'example.org.', comment: 'first zone', minutesAgo: 10 },
  2: { account: 'acme', user: 'alice', objectType: 'A', changeType: 'ADD', object: 'www.example.org.', parent: 'example.org.', comment: 'web, server', minutesAgo: 20 },
  3: { account: 'acme', user: 'bob', objectType: 'A', changeType: 'MODIFY', object: 'www.example.org.', parent: 'example.org.', minutesAgo: 30 },
  4: { account: 'acme', user: 'bob', objectType: 'TXT', changeType: 'DELETE', object: 'txt.example.org.', parent: 'example.org.', comment: 'cleanup', minutesAgo: 40 },
  5: { account: 'acme', user: 'carol', objectType: 'ZONE', changeType: 'SUSPEND', object: 'shop.test.', comment: 'Suspended for billing', minutesAgo: 30 * 60 },
  6: { account: 'other', user: 'mallory', objectType: 'ZONE', changeType: 'ADD', object: 'other.test.', comment: 'their zone', minutesAgo: 15 },
  7: { account: 'acme', user: 'alice', objectType: 'RD_POOL', changeType: 'ADD', object: 'pool.example.org.', parent: 'example.org.', minutesAgo: 50 }
}

type Client = ReturnType<typeof client>
interface AuditJson { auditRecords: Record<string, unknown>[] }

/** The seed numbers of a response (seed n has the address 192.0.2.n). */
function seedsOf (res: LightMyRequestResponse): number[] {
  assert.equal(res.statusCode, 200, res.body)
  return (res.json() as AuditJson).auditRecords.map(r => Number(String(r.ipAddress).split('.')[3]))
}

/**
 * The `Link` header's URLs by rel, each resolved against the request's URL as a client resolves
 * a relative reference (RFC 3986 §5), so a link that only worked from one path would fail here.
 */
function links (res: LightMyRequestResponse, from = `http://zonal.test/v3${AUDIT}`): Record<string, string> {
  const out: Record<string, string> = {}
  const header = res.headers.link
  if (typeof header !== 'string') return out
  for (const m of header.matchAll(/<([^>]*)>;\s*rel="(\w+)"/g)) {
    assert.match(m[1]!, /^\/v1\/reports\/dns_configuration\/audit\?/, 'relative, with the /v1 prefix')
    const url = new URL(m[1]!, from)
    out[m[2]!] = url.pathname + url.search
  }
  return out
}

const q = (filter: string, extra = ''): string => `${AUDIT}?filter=${encodeURIComponent(filter)}${extra}`

for (const engine of await engineCases()) {
  describe(`${engine.name}: GET /reports/dns_configuration/audit`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: Client
    let both: Client
    let mallory: Client

    before(async () => {
      t = await buildTestApp(engine.name, { clock: () => NOW })
      alice = client(t.app, await t.user('alice', 'acme', 'ReadOnly'))
      await t.user('bob', 'acme', 'DNSAdministrators')
      mallory = client(t.app, await t.user('mallory', 'other', 'Owner'))
      await t.user('boss', 'acme', 'Owner')
      both = client(t.app, await t.user('boss', 'other', 'Owner'))
      await t.admin.addUser('loner', 'a long enough password')
      for (const [n, s] of Object.entries(SEEDS)) {
        const account = (await t.store.accounts.findByName(s.account))!
        await t.store.audit.append({
          accountId: account.id,
          accountName: account.name,
          user: s.user,
          ipAddress: `192.0.2.${n}`,
          objectType: s.objectType,
          changeType: s.changeType,
          object: s.object,
          parent: s.parent ?? null,
          detail: { changes: [{ name: 'seed', to: Number(n) }] },
          changeComment: s.comment ?? null,
          changeTime: ago(s.minutesAgo)
        })
      }
    })
    after(async () => { await t.close() })

    it('without a filter: the last 24 hours of the caller\'s accounts, newest first, with every field', async () => {
      const res = await alice.get(AUDIT)
      assert.deepEqual(seedsOf(res), [1, 2, 3, 4, 7])
      assert.equal(res.headers.limit, '50')
      assert.equal(res.headers.results, '5')
      assert.equal(res.headers.link, undefined)
      const www = (res.json() as AuditJson).auditRecords[1]!
      const t2 = new Date(ago(20))
      assert.deepEqual(www, {
        objectType: 'A',
        changeType: 'ADD',
        object: 'www.example.org.',
        user: 'alice',
        ipAddress: '192.0.2.2',
        changeTime: `${t2.toISOString().slice(0, 10)} ${t2.toISOString().slice(11, 19)}.${String(t2.getUTCMilliseconds()).padStart(3, '0').replace(/0+$/, '') || '0'}`,
        account: 'acme',
        parent: 'example.org.',
        detail: { changes: [{ name: 'seed', from: null, to: 2 }], others: [] },
        changeComment: 'web, server'
      })
      assert.match(String(www.changeTime), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{1,3}$/)
    })

    it('filters by each key, in each spelling', async () => {
      const cases: [string, number[]][] = [
        ['users:bob', [3, 4]],
        ['user:BOB', [3, 4]],
        ['users:alice,bob', [1, 2, 3, 4, 7]],
        ['object_name:www.example.org', [2, 3]],
        ['object_name:WWW.Example.org.', [2, 3]],
        ['object_name:*.example.org', [2, 3, 4, 7]],
        ['object_name:txt.example.org,POOL*', [4, 7]],
        ['object_name:example.org::object_name:www*', [1, 2, 3]],
        ['object_type:a', [2, 3]],
        ['object_type:ZONE', [1]],
        ['object_type:RD_POOL', [7]],
        ['change_type:ADD::change_type:delete', [1, 2, 4, 7]],
        ['parent_name:example.org', [2, 3, 4, 7]],
        ['account:acme', [1, 2, 3, 4, 7]],
        ['accounts:ACME', [1, 2, 3, 4, 7]],
        ['change_comment:server', [2]],
        ['change_comment:web, server', [2]],
        ['change_comment:BILLING::date_range:2d', [5]],
        [`date_range:${formatGmt(new Date(ago(35)))}-${formatGmt(new Date(ago(15)))}`, [2, 3]],
        ['date_range:45m', [1, 2, 3, 4]],
        ['date_range:2d', [1, 2, 3, 4, 7, 5]],
        ['date_range:1h', [1, 2, 3, 4, 7]],
        ['date_range:1w', [1, 2, 3, 4, 7, 5]]
      ]
      for (const [filter, expected] of cases) assert.deepEqual(seedsOf(await alice.get(q(filter))), expected, filter)
    })

    it('combines keys (all must match) and values of one key (any may match)', async () => {
      const cases: [string, number[]][] = [
        ['users:alice::object_type:A::change_type:ADD', [2]],
        ['users:bob::change_type:ADD', []],
        ['object_name:www.example.org::change_type:MODIFY,DELETE', [3]],
        ['parent_name:example.org::users:alice,bob::date_range:25m', [2]],
        ['object_type:ZONE,TXT::date_range:2d', [1, 4, 5]],
        ['account:acme::users:mallory', []]
      ]
      for (const [filter, expected] of cases) assert.deepEqual(seedsOf(await alice.get(q(filter))), expected, filter)
    })

    it('answers each error the spec lists', async () => {
      const fails = async (url: string, status: number, code: number, message: RegExp, as = alice): Promise<void> => {
        const res = await as.get(url)
        assert.equal(res.statusCode, status, `${url}: ${res.body}`)
        assert.equal(errorCode(res.body), code, url)
        assert.match((res.json() as { errorMessage: string }[])[0]!.errorMessage, message, url)
      }
      for (const limit of ['0', '251', '-1', 'ten', '2.5']) await fails(`${AUDIT}?limit=${limit}`, 400, 53005, /limit .* between 0 and 250/)
      await fails(q('users'), 400, 200004, /Invalid filter 'users'/)
      await fails(q('users:alice::'), 400, 200004, /Invalid filter/)
      await fails(q('users:alice:::object_type:A'), 400, 200004, /Invalid filter/)
      await fails(q('colour:red'), 400, 200004, /Invalid filter key 'colour'/)
      await fails(q('date_range:2026-01-01'), 400, 55003, /date format is not valid/)
      await fails(q('date_range:20261301000000-20261302000000'), 400, 55003, /date format is not valid/)
      await fails(q('date_range:20260102000000-20260101000000'), 400, 55003, /start is later than the end/)
      await fails(q('account:other'), 403, 403, /audit log of account 'other'/)
      await fails(q('accounts:acme,nowhere'), 403, 403, /audit log of account 'nowhere'/)
      await fails(`${AUDIT}?cursor=bm90IGEgY3Vyc29y`, 400, 53005, /cursor/)
      const page = await alice.get(`${AUDIT}?limit=2`)
      const cursor = new URL(`http://x${links(page).next!}`).searchParams.get('cursor')!
      await fails(`${q('users:bob')}&cursor=${cursor}`, 400, 53005, /another filter/)
      await fails(`${AUDIT}?limit=2&cursor=${cursor}&cursorOperation=SIDEWAYS`, 400, 53005, /cursorOperation/)
      assert.equal((await alice.get(`${AUDIT}?limit=250`)).statusCode, 200)
      assert.equal((await alice.get(`${AUDIT}?limit=1`)).headers.results, '1')
    })

    it('takes limit spelled Limit, as the spec\'s Link names it', async () => {
      const res = await alice.get(`${AUDIT}?Limit=2`)
      assert.deepEqual(seedsOf(res), [1, 2])
      assert.equal(res.headers.limit, '2')
    })

    it('keeps accounts apart: each caller reads its own accounts, one in both reads both', async () => {
      assert.deepEqual(seedsOf(await mallory.get(AUDIT)), [6])
      assert.deepEqual(seedsOf(await mallory.get(q('account:other::date_range:2d'))), [6])
      assert.equal((await mallory.get(q('account:acme'))).statusCode, 403)
      assert.deepEqual(seedsOf(await mallory.get(q('users:alice'))), [])
      assert.deepEqual(seedsOf(await both.get(AUDIT)), [1, 6, 2, 3, 4, 7])
      assert.deepEqual(seedsOf(await both.get(q('account:other'))), [6])
      assert.deepEqual(seedsOf(await both.get(q('accounts:acme,other::change_type:ADD'))), [1, 6, 2, 7])
    })

    it('answers CSV for Accept: text/csv: the same rows, a header row, RFC 4180 quoting, formulas neutralised', async () => {
      const account = (await t.store.accounts.findByName('acme'))!
      const nasty = ['=HYPERLINK("http://x","y")', '+1+1', '-2', '@SUM(A1)', 'line one\r\nline "two", three']
      for (const [i, comment] of nasty.entries()) {
        await t.store.audit.append({ accountId: account.id, accountName: 'acme', user: 'alice', ipAddress: `198.51.100.${i}`, objectType: 'TXT', changeType: 'MODIFY', object: `=cmd|${i}`, parent: 'example.org.', detail: { changes: [{ name: 'rdata', from: ['"a,b"'], to: ['-x'] }] }, changeComment: comment, changeTime: ago(5 - i / 10) })
      }
      const filter = 'date_range:6m'
      const json = (await alice.get(q(filter))).json() as AuditJson
      const res = await alice.send('GET', q(filter), undefined, { accept: 'text/csv' })
      assert.equal(res.statusCode, 200)
      assert.match(String(res.headers['content-type']), /^text\/csv/)
      assert.equal(res.headers.results, '5')
      const [header, ...rows] = parseCsv(res.body)
      assert.deepEqual(header, ['objectType', 'changeType', 'object', 'user', 'ipAddress', 'changeTime', 'account', 'parent', 'detail', 'changeComment'])
      assert.equal(rows.length, json.auditRecords.length)
      const unneutralise = (s: string): string => /^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s
      for (const [i, row] of rows.entries()) {
        const r = json.auditRecords[i]!
        assert.equal(row.length, 10)
        for (const cell of row) assert.doesNotMatch(cell, /^[=+\-@]/, 'no cell starts a formula')
        assert.deepEqual(
          [row[0], row[1], unneutralise(row[2]!), row[3], row[4], row[5], row[6], row[7], JSON.parse(row[8]!), unneutralise(row[9]!)],
          [r.objectType, r.changeType, r.object, r.user, r.ipAddress, r.changeTime, r.account, r.parent, r.detail, r.changeComment]
        )
      }
      assert.equal(unneutralise(rows[0]!.at(-1)!), 'line one\r\nline "two", three')
      assert.equal(rows[4]!.at(-1), '\'=HYPERLINK("http://x","y")')
    })

    it('lists the filters of a date range, each with a search path that finds its records', async () => {
      const res = await alice.get('/v1/reports/dns_configuration/audit/filters?dateRange=2d')
      assert.equal(res.statusCode, 200, res.body)
      const { filters } = res.json() as { filters: Record<string, { key: string, url: string }[]> }
      const keys = (list: { key: string }[]): string[] => list.map(e => e.key)
      assert.deepEqual(keys(filters.objectTypes!), ['A', 'RD_POOL', 'TXT', 'ZONE'])
      assert.deepEqual(keys(filters.changeTypes!), ['ADD', 'DELETE', 'MODIFY', 'SUSPEND'])
      assert.deepEqual(keys(filters.users!), ['alice', 'bob', 'carol'])
      assert.deepEqual(keys(filters.accounts!), ['acme'])
      const a = filters.objectTypes!.find(e => e.key === 'A')!
      assert.match(a.url, /^v1\/reports\/dns_configuration\/audit\?filter=/)
      assert.deepEqual(seedsOf(await alice.get(`/${a.url}`)), [2, 3])
      const carol = filters.users!.find(e => e.key === 'carol')!
      assert.deepEqual(seedsOf(await alice.get(`/${carol.url}`)), [5])
      const range = `${formatGmt(new Date(ago(35)))}-${formatGmt(new Date(ago(15)))}`
      const narrow = (await alice.get(`${AUDIT}/filters?dateRange=${range}`)).json() as { filters: Record<string, { key: string, url: string }[]> }
      assert.deepEqual(keys(narrow.filters.users!), ['alice', 'bob'])
      assert.ok(narrow.filters.users![0]!.url.includes(encodeURIComponent(`date_range:${range}`)))
      const bad = await alice.get(`${AUDIT}/filters?dateRange=yesterday`)
      assert.equal(errorCode(bad.body), 55003)
    })

    it('takes X-User: the accounts that user is linked with; an unknown or unlinked user is an error', async () => {
      const get = async (as: Client, user: string): Promise<LightMyRequestResponse> => await as.send('GET', `${AUDIT}/filters?dateRange=2d`, undefined, { 'x-user': user })
      const accounts = (res: LightMyRequestResponse): string[] => (res.json() as { filters: { accounts: { key: string }[] } }).filters.accounts.map(e => e.key)
      assert.deepEqual(accounts(await get(both, 'mallory')), ['other'])
      assert.deepEqual(accounts(await get(both, 'bob')), ['acme'])
      assert.deepEqual(accounts(await get(alice, 'bob')), ['acme'])
      for (const user of ['nobody', 'loner', 'mallory', '']) {
        const res = await get(alice, user)
        assert.equal(res.statusCode, 400, user)
        assert.equal(errorCode(res.body), 410001, user)
        assert.match((res.json() as { errorMessage: string }[])[0]!.errorMessage, /Invalid X-User/)
      }
    })

    it('has no way to change or delete a record', async () => {
      const before = await alice.get(AUDIT)
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const res = await both.send(method, AUDIT, {})
        assert.ok(res.statusCode === 404 || res.statusCode === 405, `${method}: ${res.statusCode}`)
      }
      assert.equal((await alice.get(AUDIT)).body, before.body)
    })
  })

  describe(`${engine.name}: audit log paging across 600 records while records are added`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: Client
    let accountId: string
    let added = 0

    before(async () => {
      t = await buildTestApp(engine.name, { clock: () => NOW })
      alice = client(t.app, await t.user('alice', 'acme', 'Owner'))
      accountId = (await t.store.accounts.findByName('acme'))!.id
      // Two records share each millisecond, so the id decides their order.
      for (let i = 0; i < 600; i++) {
        await t.store.audit.append({ accountId, accountName: 'acme', user: 'alice', ipAddress: null, objectType: 'A', changeType: 'ADD', object: `r${i}.example.org.`, changeTime: new Date(NOW.getTime() - 3_600_000 + Math.floor(i / 2)).toISOString() })
      }
    })
    after(async () => { await t.close() })

    const addMore = async (): Promise<void> => {
      for (let i = 0; i < 3; i++) {
        await t.store.audit.append({ accountId, accountName: 'acme', user: 'alice', ipAddress: null, objectType: 'A', changeType: 'ADD', object: `new${added++}.example.org.`, changeTime: new Date(NOW.getTime() + 1 + added).toISOString() })
      }
      // One older than every page, as a late commit of a slow transaction would be.
      await t.store.audit.append({ accountId, accountName: 'acme', user: 'alice', ipAddress: null, objectType: 'A', changeType: 'ADD', object: `late${added++}.example.org.`, changeTime: new Date(NOW.getTime() - 2 * 86_400_000).toISOString() })
    }
    const objects = (res: LightMyRequestResponse): string[] => (res.json() as AuditJson).auditRecords.map(r => String(r.object))

    it('pages forward to the end, then back to the start, each record once, in order, while records arrive', async () => {
      const forward: string[][] = []
      const responses: LightMyRequestResponse[] = []
      let res = await alice.get(`/v1${AUDIT}?limit=50`)
      assert.deepEqual(links(res).previous, undefined, 'the first page has no previous')
      for (;;) {
        assert.equal(res.statusCode, 200, res.body)
        assert.equal(res.headers.limit, '50')
        forward.push(objects(res))
        responses.push(res)
        assert.equal(res.headers.results, String(forward.at(-1)!.length))
        await addMore()
        const next = links(res).next
        if (next === undefined) break
        assert.match(next, /^\/v1\/reports\/dns_configuration\/audit\?cursor=[\w-]+&Limit=50&cursorOperation=NEXT$/)
        res = await alice.get(next)
      }
      assert.equal(forward.length, 12)
      assert.deepEqual(forward.flat(), Array.from({ length: 600 }, (_, i) => `r${599 - i}.example.org.`))

      const backward: string[][] = [objects(res)]
      for (;;) {
        await addMore()
        const previous = links(res).previous
        if (previous === undefined) break
        assert.match(previous, /cursorOperation=PREVIOUS$/)
        res = await alice.get(previous)
        assert.equal(res.statusCode, 200, res.body)
        backward.unshift(objects(res))
        const back = links(res)
        assert.ok(back.next !== undefined, 'a page reached backwards links forward')
      }
      assert.deepEqual(backward, forward)

      // Starting over shows what arrived meanwhile (and the late record, in its own place).
      const later = `date_range:${formatGmt(new Date(NOW.getTime() - 3_600_000))}-${formatGmt(new Date(NOW.getTime() + 60_000))}`
      assert.deepEqual(objects(await alice.get(q(later, '&limit=3'))), [`new${added - 2}.example.org.`, `new${added - 3}.example.org.`, `new${added - 4}.example.org.`])
      assert.equal((await alice.get(q('object_name:late*::date_range:3d'))).headers.results, String(added / 4))
    })

    it('keeps the filter in the links and pages a filtered log', async () => {
      const filter = 'object_name:r1*.example.org::date_range:2h'
      const seen: string[] = []
      let url: string | undefined = q(filter, '&limit=7')
      while (url !== undefined) {
        const res = await alice.get(url)
        seen.push(...objects(res))
        url = links(res).next
        if (url === undefined) break
        // The real API's parameters, order and spelling: filter, cursor, Limit, cursorOperation.
        assert.match(String(res.headers.link), /^<\/v1\/reports\/dns_configuration\/audit\?filter=[^&>]+&cursor=[\w-]+&Limit=7&cursorOperation=NEXT>; rel="next"/)
        assert.equal(new URL(`http://x${url}`).searchParams.get('filter'), filter)
      }
      const expected = Array.from({ length: 600 }, (_, i) => 599 - i).filter(i => String(i).startsWith('1')).map(i => `r${i}.example.org.`)
      assert.deepEqual(seen, expected)
    })
  })
}
