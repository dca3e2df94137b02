import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect, type LogEvent } from 'kysely'
import type { Database } from '../../src/store/schema.ts'
import { packRdata, SqlRrsetStore } from '../../src/store/sql/rrsets.ts'
import type { RrsetPageQuery, RrsetSort, Store, StoredRrset } from '../../src/store/store.ts'
import { canonicalSortKey, parseName } from '../../src/zone/name.ts'
import type { PoolProfile } from '../../src/zone/pools/profile.ts'
import { parseRdata, tokenize } from '../../src/zone/rdata/index.ts'
import { databaseAt, engineCases, freshStore } from '../helpers/engines.ts'
import { rrsetsOf } from '../helpers/stored-zones.ts'

const RD: PoolProfile = { kind: 'RD_POOLS', order: 'FIXED', description: 'web' }
const SB = { kind: 'SB_POOLS', description: 'backup' } as PoolProfile
/** The same profiles as version 0.x stored them (migration tests). */
const RD_OLD = JSON.stringify({ '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: 'FIXED', description: 'web' })

const ZONE = `$ORIGIN example.org.
$TTL 3600
@        IN SOA ns1 hostmaster 2026010101 3600 900 604800 300
@        IN NS  ns1
ns1      IN A   192.0.2.53
www      IN A   192.0.2.80
www      IN A   192.0.2.81
www      IN AAAA 2001:db8::80
mail 300 IN A   192.0.2.25
@        IN MX  10 mail
b.a      IN TXT "100%_done"
a        IN TXT "Hello World"
sub      IN DNAME other.example.net.
zz       IN CNAME www
`
const key = (name: string): string => canonicalSortKey(parseName(name))

for (const engine of await engineCases()) {
  describe(`${engine.name}: rrset store`, { skip: engine.skip }, () => {
    let store: Store
    let url: string
    let close: () => Promise<void>
    let zoneId: string
    let all: StoredRrset[]

    before(async () => {
      ({ store, url, close } = await freshStore(engine.name))
      const account = await store.accounts.create('acme')
      const zone = await store.zones.create({ accountId: account.id, accountNameKey: account.name_key, name: 'example.org.', type: 'PRIMARY' })
      zoneId = zone.id
      all = rrsetsOf('example.org.', ZONE, { 'www.example.org./1': RD, 'www.example.org./28': SB })
      await store.rrsets.insertMany(zoneId, all)
      // Another zone's rrsets never show up.
      const other = await store.zones.create({ accountId: account.id, accountNameKey: account.name_key, name: 'example.net.', type: 'PRIMARY' })
      await store.rrsets.insertMany(other.id, rrsetsOf('example.net.', ZONE.replace('$ORIGIN example.org.', '$ORIGIN example.net.')))
    })
    after(async () => { await close?.() })

    const page = async (q: Partial<RrsetPageQuery>): Promise<string[]> =>
      (await store.rrsets.listPage({ zoneId, sort: 'OWNER', reverse: false, offset: 0, limit: 100, ...q })).map(r => `${r.ownerName}/${r.type}`)

    it('gets one rrset by owner and type, with the pool kind derived from the profile', async () => {
      const www = await store.rrsets.get(zoneId, key('www.example.org.'), 1)
      assert.deepEqual(www?.rdataText, ['192.0.2.80', '192.0.2.81'])
      assert.deepEqual(www?.profile, RD)
      assert.equal((await store.rrsets.get(zoneId, key('www.example.org.'), 28))?.profile?.kind, 'SB_POOLS')
      assert.equal((await store.rrsets.get(zoneId, key('mail.example.org.'), 1))?.profile, null)
      assert.equal(await store.rrsets.get(zoneId, key('nothing.example.org.'), 1), undefined)
    })

    it('gets several rrsets by owner and type in one call, in the order asked, undefined where absent', async () => {
      const keys = [{ ownerKey: key('www.example.org.'), type: 1 }, { ownerKey: key('nothing.example.org.'), type: 1 }, { ownerKey: key('example.org.'), type: 6 }]
      const many = await store.rrsets.getMany(zoneId, keys)
      assert.deepEqual(many, [await store.rrsets.get(zoneId, keys[0]!.ownerKey, 1), undefined, await store.rrsets.get(zoneId, keys[2]!.ownerKey, 6)])
      assert.equal(many[2]?.type, 6)
      assert.deepEqual(await store.rrsets.getMany(zoneId, []), [])
    })

    it('lists in canonical order by default, forwards and reversed, by offset', async () => {
      const owner = await page({})
      assert.equal(owner.length, all.length)
      assert.deepEqual(owner.slice(0, 3), ['example.org./2', 'example.org./6', 'example.org./15'])
      // RFC 4034 §6.1: a before b.a before mail …
      assert.ok(owner.indexOf('a.example.org./16') < owner.indexOf('b.a.example.org./16'))
      assert.ok(owner.indexOf('b.a.example.org./16') < owner.indexOf('mail.example.org./1'))
      assert.deepEqual(await page({ reverse: true }), [...owner].reverse())
      assert.deepEqual(await page({ offset: 3, limit: 2 }), owner.slice(3, 5))
      assert.deepEqual(await page({ offset: 100 }), [])
    })

    it('sorts by TTL, TYPE and VALUE, ties by owner and type', async () => {
      const sorted = async (sort: RrsetSort) => await store.rrsets.listPage({ zoneId, sort, reverse: false, offset: 0, limit: 100 })
      const ttl = await sorted('TTL')
      assert.equal(ttl[0]?.ownerName, 'mail.example.org.')
      assert.deepEqual(ttl.map(r => r.ttl), [...ttl.map(r => r.ttl)].sort((a, b) => a - b))
      const types = (await sorted('TYPE')).map(r => r.type)
      assert.deepEqual(types, [...types].sort((a, b) => a - b))
      const values = (await sorted('VALUE')).map(r => r.rdataText[0]!)
      assert.deepEqual(values, [...values].sort())
      assert.equal(values[0], '"100%_done"')
    })

    it('filters by type, owner, TTL, owner and value substrings (any case, LIKE characters literal)', async () => {
      assert.deepEqual(await page({ type: 1 }), ['mail.example.org./1', 'ns1.example.org./1', 'www.example.org./1'])
      assert.deepEqual(await page({ ownerKey: key('www.example.org.') }), ['www.example.org./1', 'www.example.org./28'])
      assert.deepEqual(await page({ ttl: 300 }), ['mail.example.org./1'])
      assert.deepEqual(await page({ ownerSubstring: 'WW' }), ['www.example.org./1', 'www.example.org./28'])
      assert.deepEqual(await page({ valueSubstring: 'hello w' }), ['a.example.org./16'])
      assert.deepEqual(await page({ valueSubstring: '0%_' }), ['b.a.example.org./16'])
      assert.deepEqual(await page({ valueSubstring: '0%x' }), [])
      assert.equal(await store.rrsets.countPage({ zoneId, type: 1 }), 3)
      assert.equal(await store.rrsets.countPage({ zoneId, valueSubstring: '192.0.2.' }), 3)
    })

    it('filters by kind: records, any pool, pool kinds, and combinations', async () => {
      const n = all.length
      assert.equal(await store.rrsets.countPage({ zoneId, kinds: { records: true, pools: false } }), n - 2)
      assert.deepEqual(await page({ kinds: { records: false, pools: true } }), ['www.example.org./1', 'www.example.org./28'])
      assert.deepEqual(await page({ kinds: { records: false, pools: ['SB_POOLS'] } }), ['www.example.org./28'])
      assert.deepEqual(await page({ kinds: { records: false, pools: ['TC_POOLS'] } }), [])
      assert.equal(await store.rrsets.countPage({ zoneId, kinds: { records: true, pools: ['RD_POOLS'] } }), n - 1)
      assert.equal(await store.rrsets.countPage({ zoneId, kinds: { records: false, pools: [] } }), 0)
    })

    it('knows the types at an owner and whether names lie below it', async () => {
      assert.deepEqual(await store.rrsets.typesAt(zoneId, key('www.example.org.')), [1, 28])
      assert.deepEqual(await store.rrsets.typesAt(zoneId, key('nothing.example.org.')), [])
      assert.equal(await store.rrsets.hasBelow(zoneId, key('a.example.org.')), true)
      assert.equal(await store.rrsets.hasBelow(zoneId, key('b.a.example.org.')), false)
      assert.equal(await store.rrsets.hasBelow(zoneId, key('sub.example.org.')), false)
      // `a` is a prefix of `aa`'s key but not its parent.
      assert.equal(await store.rrsets.hasBelow(zoneId, key('ww.example.org.')), false)
    })

    it('reads the types at given owners and below an owner, by its key range, a page at a time', async () => {
      const rows = (r: Array<{ ownerName: string, type: number }>): string[] => r.map(x => `${x.ownerName}/${x.type}`)
      assert.deepEqual(rows(await store.rrsets.ownerTypesAt(zoneId, [key('www.example.org.'), key('a.example.org.'), key('nothing.example.org.')], [28])),
        ['a.example.org./16', 'www.example.org./1'])
      assert.deepEqual(rows(await store.rrsets.ownerTypesBelow(zoneId, key('a.example.org.'), [], 10)), ['b.a.example.org./16'])
      // Below the apex: every owner but the apex, in canonical order, page by page.
      const below = rows(await store.rrsets.ownerTypesBelow(zoneId, key('example.org.'), [], 100))
      assert.deepEqual(below, all.filter(r => r.ownerName !== 'example.org.').sort((a, b) => a.ownerKey < b.ownerKey ? -1 : a.ownerKey > b.ownerKey ? 1 : a.type - b.type).map(r => `${r.ownerName}/${r.type}`))
      const first = await store.rrsets.ownerTypesBelow(zoneId, key('example.org.'), [], 3)
      const rest = await store.rrsets.ownerTypesBelow(zoneId, key('example.org.'), [], 100, { ownerKey: first[2]!.ownerKey, type: first[2]!.type })
      assert.deepEqual([...rows(first), ...rows(rest)], below)
      // `ww` is a prefix of `www`'s key text but not its parent: nothing lies below it.
      assert.deepEqual(await store.rrsets.ownerTypesBelow(zoneId, key('ww.example.org.'), [], 10), [])
      assert.deepEqual((await store.rrsets.listWireSubtree(zoneId, key('a.example.org.'), 10)).map(r => `${r.ownerName}/${r.type}`), ['a.example.org./16', 'b.a.example.org./16'])
    })

    it('finds the owner of a type preceding given owner keys, and the last one', async () => {
      // A records at ns1, www and mail: in canonical order mail < ns1 < www.
      assert.deepEqual(await store.rrsets.precedingOwners(zoneId, 1, [key('www.example.org.'), key('mail.example.org.'), key('zz.example.org.'), key('nothing.example.org.')]),
        [key('ns1.example.org.'), undefined, key('www.example.org.'), key('mail.example.org.')])
      assert.equal(await store.rrsets.lastOwnerOf(zoneId, 1), key('www.example.org.'))
      assert.equal(await store.rrsets.lastOwnerOf(zoneId, 99), undefined)
    })

    it('reads the types at an owner and the DNAMEs above it in one call', async () => {
      assert.deepEqual(await store.rrsets.placement(zoneId, key('www.example.org.'), []), { types: [1, 28], dnames: new Set() })
      const dname = { ownerKey: key('moved.example.org.'), ownerName: 'moved.example.org.', type: 39, ttl: 300, rdata: [Uint8Array.of(0)], rdataText: ['.'], profile: null }
      await store.rrsets.replace(zoneId, dname)
      try {
        const above = [key('x.moved.example.org.'), key('moved.example.org.'), key('www.example.org.'), key('example.org.')]
        assert.deepEqual(await store.rrsets.placement(zoneId, key('y.x.moved.example.org.'), above), { types: [], dnames: new Set([key('moved.example.org.')]) })
        assert.deepEqual(await store.rrsets.placement(zoneId, key('www.example.org.'), [key('example.org.')]), { types: [1, 28], dnames: new Set() })
        // With the rrsets an rrset change reads (its own, the apex SOA): one statement too.
        const soa = { ownerKey: key('example.org.'), type: 6 }
        const read = await store.rrsets.readForChange(zoneId, [{ ownerKey: key('www.example.org.'), type: 28 }, soa], key('www.example.org.'), [key('example.org.')])
        assert.deepEqual(read.rrsets, await store.rrsets.getMany(zoneId, [{ ownerKey: key('www.example.org.'), type: 28 }, soa]))
        assert.equal(read.rrsets[0]?.type, 28)
        assert.deepEqual([read.types, read.dnames], [[1, 28], new Set()])
        const below = await store.rrsets.readForChange(zoneId, [{ ownerKey: key('y.x.moved.example.org.'), type: 1 }, soa], key('y.x.moved.example.org.'), above)
        assert.deepEqual([below.rrsets[0], below.rrsets[1]?.rdataText, below.types, below.dnames], [undefined, (await store.rrsets.get(zoneId, soa.ownerKey, 6))?.rdataText, [], new Set([key('moved.example.org.')])])
        // The DNAME itself at the owner is not above it.
        const at = await store.rrsets.readForChange(zoneId, [{ ownerKey: dname.ownerKey, type: 39 }], dname.ownerKey, [key('example.org.')])
        assert.deepEqual([at.rrsets[0]?.rdataText, at.types, at.dnames], [['.'], [39], new Set()])
      } finally {
        await store.rrsets.delete(zoneId, dname.ownerKey, 39)
      }
    })

    it('replaces in place, and deletes one rrset', async () => {
      const before = (await store.rrsets.get(zoneId, key('mail.example.org.'), 1))!
      await store.rrsets.replace(zoneId, { ...before, ttl: 60, rdataText: ['192.0.2.26'], rdata: [Uint8Array.of(192, 0, 2, 26)], profile: RD })
      const after = await store.rrsets.get(zoneId, key('mail.example.org.'), 1)
      assert.equal(after?.ttl, 60)
      assert.deepEqual(after?.rdataText, ['192.0.2.26'])
      assert.equal(after?.profile?.kind, 'RD_POOLS')
      assert.equal(await store.rrsets.delete(zoneId, key('mail.example.org.'), 1), true)
      assert.equal(await store.rrsets.delete(zoneId, key('mail.example.org.'), 1), false)
      assert.equal(await store.rrsets.get(zoneId, key('mail.example.org.'), 1), undefined)
      await store.rrsets.replace(zoneId, before)
      assert.equal((await store.rrsets.get(zoneId, key('mail.example.org.'), 1))?.profile, null)
    })

    it('reads a page and its count of a zone named in a scope in one statement, as listPage and countPage do', async () => {
      const acme = (await store.accounts.findByName('acme'))!.id
      const scope = { accountIds: [acme] }
      const queries: Array<Omit<RrsetPageQuery, 'zoneId'>> = [
        { sort: 'OWNER', reverse: false, offset: 0, limit: 100 },
        { sort: 'TYPE', reverse: true, offset: 2, limit: 3 },
        { sort: 'VALUE', reverse: false, offset: 1, limit: 2, type: 1 },
        { sort: 'OWNER', reverse: false, offset: 0, limit: 100, ownerKey: key('www.example.org.'), type: 28 },
        { sort: 'TTL', reverse: false, offset: 0, limit: 5, ownerSubstring: 'WW', kinds: { records: false, pools: true } }
      ]
      for (const q of queries) {
        const page = await store.rrsets.pageOfZone('example.org.', scope, q)
        const rows = await store.rrsets.listPage({ ...q, zoneId })
        assert.deepEqual(page?.rrsets, rows.map(({ rdata: _r, ...shown }) => shown), JSON.stringify(q))
        assert.equal(page?.total, await store.rrsets.countPage({ ...q, zoneId }), JSON.stringify(q))
      }
      const all = { sort: 'OWNER', reverse: false, offset: 0, limit: 100 } as const
      // No row: another account's scope, no scope, no such zone, past the end, nothing matching.
      const nobody = await store.accounts.create('nobody')
      assert.equal(await store.rrsets.pageOfZone('example.org.', { accountIds: [nobody.id] }, all), undefined)
      assert.equal(await store.rrsets.pageOfZone('example.org.', { accountIds: [] }, all), undefined)
      assert.equal(await store.rrsets.pageOfZone('example.com.', scope, all), undefined)
      assert.equal(await store.rrsets.pageOfZone('example.org.', scope, { ...all, offset: 1000 }), undefined)
      assert.equal(await store.rrsets.pageOfZone('example.org.', scope, { ...all, type: 99 }), undefined)
      // An alias has no rrsets of its own, even where rows carry its id.
      const alias = await store.zones.create({ accountId: acme, accountNameKey: 'acme', name: 'alias.example.', type: 'ALIAS', originalZoneId: zoneId })
      await store.rrsets.insertMany(alias.id, rrsetsOf('alias.example.', '$ORIGIN alias.example.\n@ 300 IN A 192.0.2.1\n'))
      assert.equal(await store.rrsets.pageOfZone('alias.example.', scope, all), undefined)
      assert.equal((await store.rrsets.listPage({ ...all, zoneId: alias.id })).length, 1)
      await store.zones.deleteById(alias.id)
    })

    it('locks a zone row for a change inside a transaction', async () => {
      const zone = await store.transaction(async (tx) => await tx.zones.lockById(zoneId))
      assert.equal(zone?.name, 'example.org.')
      assert.equal(zone?.account_name, 'acme')
      assert.equal(await store.zones.lockById('no-such-zone'), undefined)
    })

    it('migration 0004 fills in the pool kind and value key of existing rrsets', async () => {
      const { database, db, migrator, close } = await databaseAt(engine.name, '0003-tasks')
      try {
        const now = new Date().toISOString()
        await db.insertInto('accounts').values({ id: 'a1', name: 'acme', name_key: 'acme', account_type: 'ORGANIZATION', created_at: now }).execute()
        await db.insertInto('zones').values({ id: 'z1', account_id: 'a1', name: 'example.org.', zone_type: 'PRIMARY', status: 'ACTIVE', dnssec_status: 'UNSIGNED', created_at: now, updated_at: now }).execute()
        const row = (owner: string, rdata: string[], profile: string | null) => ({ zone_id: 'z1', owner_key: owner, owner_name: owner, rrtype: 1, ttl: 60, rdata_text: JSON.stringify(rdata), rdata_wire: new Uint8Array(0), profile, updated_at: now })
        await db.insertInto('rrsets').values([row('a', ['192.0.2.1', '192.0.2.2'], RD_OLD), row('b', ['"quoted \\" text"'], null), row('c', ['x'], '{"@context":"http://schemas.ultradns.com/DirPool.jsonschema"}')]).execute()
        assert.equal((await migrator.migrateToLatest()).error, undefined)
        const rows = await db.selectFrom('rrsets').select(['owner_key', 'kind', 'value_key']).orderBy('owner_key').execute()
        assert.deepEqual(rows, [
          { owner_key: 'a', kind: 'RD_POOLS', value_key: '192.0.2.1' },
          { owner_key: 'b', kind: null, value_key: '"quoted \\" text"' },
          { owner_key: 'c', kind: 'DIR_POOLS', value_key: 'x' }
        ])
      } finally {
        await close()
        await database.drop()
      }
    })

    it('migration 0007 derives the text of TXT and SPF rrsets from their wire rdata, and leaves other types alone', async () => {
      const { database, db, migrator, close } = await databaseAt(engine.name, '0006-audit-object')
      try {
        const now = new Date().toISOString()
        await db.insertInto('accounts').values({ id: 'a1', name: 'acme', name_key: 'acme', account_type: 'ORGANIZATION', created_at: now }).execute()
        await db.insertInto('zones').values({ id: 'z1', account_id: 'a1', name: 'example.org.', zone_type: 'PRIMARY', status: 'ACTIVE', dnssec_status: 'UNSIGNED', created_at: now, updated_at: now }).execute()
        const origin = parseName('example.org.')
        const wire = (type: number, text: string): Uint8Array => parseRdata(type, tokenize(text), { origin })
        // Rows as the service wrote them before: rdata_text in presentation format.
        const row = (owner: string, type: number, texts: string[]) => ({ zone_id: 'z1', owner_key: owner, owner_name: `${owner}.example.org.`, rrtype: type, ttl: 60, rdata_text: JSON.stringify(texts), rdata_wire: packRdata(texts.map(t => wire(type, t))), profile: null, value_key: texts[0]!.slice(0, 64), updated_at: now })
        await db.insertInto('rrsets').values([
          row('a', 16, ['"a b" "c;d"', '"v=DMARC1;"']),
          row('b', 99, ['"v=spf1 include:_spf.example.net ~all"']),
          row('c', 16, ['"\\255"']),
          row('d', 13, ['"Intel x86" "Linux 6"'])
        ]).execute()
        assert.equal((await migrator.migrateToLatest()).error, undefined)
        const rows = await db.selectFrom('rrsets').select(['owner_key', 'rdata_text', 'value_key']).orderBy('owner_key').execute()
        assert.deepEqual(rows, [
          { owner_key: 'a', rdata_text: JSON.stringify(['a bc;d', 'v=DMARC1;']), value_key: 'a bc;d' },
          { owner_key: 'b', rdata_text: JSON.stringify(['v=spf1 include:_spf.example.net ~all']), value_key: 'v=spf1 include:_spf.example.net ~all' },
          { owner_key: 'c', rdata_text: JSON.stringify(['\\# 2 01FF']), value_key: '\\# 2 01FF' },
          { owner_key: 'd', rdata_text: JSON.stringify(['"Intel x86" "Linux 6"']), value_key: '"Intel x86" "Linux 6"' }
        ])
      } finally {
        await close()
        await database.drop()
      }
    })

    // Query plans are an SQLite matter: the test exists only in the SQLite suite.
    if (engine.name === 'sqlite') {
      it('reads every list order and lookup through an index of the zone, without sorting (SQLite plans)', async () => {
        const path = url.slice('sqlite:'.length)
        const raw = new BetterSqlite3(path)
        const queries: { sql: string, parameters: readonly unknown[] }[] = []
        const db = new Kysely<Database>({
          dialect: new SqliteDialect({ database: new BetterSqlite3(path) }),
          log: (e: LogEvent) => { queries.push({ sql: e.query.sql, parameters: e.query.parameters }) }
        })
        try {
          const rrsets = new SqlRrsetStore(db)
          const base = { zoneId, reverse: false, offset: 10, limit: 100 }
          await rrsets.get(zoneId, key('www.example.org.'), 1)
          for (const sort of ['OWNER', 'TTL', 'TYPE', 'VALUE'] as const) await rrsets.listPage({ ...base, sort })
          await rrsets.listPage({ ...base, sort: 'OWNER', type: 1 })
          await rrsets.listPage({ ...base, sort: 'OWNER', reverse: true })
          await rrsets.listPage({ ...base, sort: 'OWNER', ownerKey: key('www.example.org.') })
          await rrsets.listPage({ ...base, sort: 'OWNER', kinds: { records: false, pools: ['RD_POOLS'] } })
          await rrsets.typesAt(zoneId, key('www.example.org.'))
          await rrsets.hasBelow(zoneId, key('a.example.org.'))
          await rrsets.ownerTypesAt(zoneId, [key('www.example.org.'), key('a.example.org.')], [46])
          await rrsets.ownerTypesBelow(zoneId, key('example.org.'), [46], 5, { ownerKey: key('a.example.org.'), type: 16 })
          await rrsets.listWireSubtree(zoneId, key('a.example.org.'), 5)
          await rrsets.precedingOwners(zoneId, 1, [key('www.example.org.'), key('zz.example.org.')])
          await rrsets.lastOwnerOf(zoneId, 1)
          await rrsets.getMany(zoneId, [key('www.example.org.'), key('a.example.org.'), key('mail.example.org.')].map(ownerKey => ({ ownerKey, type: 1 })))
          assert.equal(queries.length, 17)
          for (const q of queries) {
            const plan = (raw.prepare(`explain query plan ${q.sql}`).all(...q.parameters as unknown[]) as { detail: string }[]).map(p => p.detail).join(' | ')
            assert.match(plan, /USING (COVERING )?INDEX (rrsets_|sqlite_autoindex_rrsets)/, `${q.sql}\n→ ${plan}`)
            assert.doesNotMatch(plan, /TEMP B-TREE/, `${q.sql}\n→ ${plan}`)
          }
        } finally {
          await db.destroy()
          raw.close()
        }
      })
    }
  })
}
