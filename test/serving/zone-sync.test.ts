/**
 * The DNS index follows the store (STYLE.md §5 "Store": both engines): changes made through the
 * API are applied in place from the change journal; gaps and wholesale replacements reload the
 * zone; aliases follow their primary (a signed primary's aliases with their own DNSSEC rows and
 * journal steps, merged); suspended and deleted zones leave the index; a second
 * store on the same database (another process) sees the changes through the engine's
 * notification (PostgreSQL LISTEN/NOTIFY, SQLite's data version), and a missed notification is
 * caught up by the periodic version comparison.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../src/auth/secrets.ts'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import type { ZoneData } from '../../src/dns/index/zone-data.ts'
import { ZoneSync } from '../../src/serving/zone-sync.ts'
import { openStore } from '../../src/store/open-store.ts'
import type { Store } from '../../src/store/store.ts'
import { apexSoa, withSoaSerial } from '../../src/zones/serial-bump.ts'
import { canonicalSortKey, parseName } from '../../src/zone/name.ts'
import { formatRdata } from '../../src/zone/rdata/index.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { engineCases } from '../helpers/engines.ts'
import { client } from '../helpers/zones.ts'

const silent = { info: () => {}, error: () => {} }
const ORIGIN = parseName('sync.test.')

async function eventually (check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return
    await new Promise(resolve => setTimeout(resolve, 10))
  }
  assert.fail(`not true within ${ms} ms`)
}

function has (zone: ZoneData | undefined, name: string, type: number): boolean {
  return zone?.node(parseName(name))?.rrsets.has(type) === true
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: the DNS index follows the store`, { skip: engine.skip }, () => {
    let t: TestApp
    let api: ReturnType<typeof client>
    let index: ZoneIndex
    let sync: ZoneSync
    const serialChanges: number[] = []

    before(async () => {
      t = await buildTestApp(engine.name)
      api = client(t.app, await t.user('syncer', 'acme'))
      assert.equal((await api.newPrimary('sync.test', 'acme')).statusCode, 201)
      index = new ZoneIndex()
      // A long full-sync period: what follows is driven by change notifications alone.
      sync = new ZoneSync(t.store, index, silent, new SecretBox(undefined), { fullSyncMs: 600_000, onSerialChange: z => serialChanges.push(z.serial) })
      await sync.start()
    })
    after(async () => {
      await sync?.stop()
      await t?.close()
    })

    it('loads the zone, then applies rrset changes in place from the journal', async () => {
      const zone = index.get(ORIGIN)
      assert.ok(zone !== undefined && has(zone, 'sync.test.', 6))
      const serial = zone.serial
      assert.equal((await api.post('/zones/sync.test/rrsets/A/www', { ttl: 300, rdata: ['192.0.2.1', '192.0.2.2'] })).statusCode, 201)
      await eventually(() => has(index.get(ORIGIN), 'www.sync.test.', 1))
      // The change reaches the index before the serial change is reported: wait for the report.
      await eventually(() => serialChanges.length > 0)
      assert.equal(index.get(ORIGIN), zone, 'the same zone object, changed in place')
      assert.notEqual(zone.serial, serial)
      assert.deepEqual(serialChanges, [zone.serial], 'the serial change is reported once (NOTIFY)')
      const step = zone.journal.at(-1)!
      assert.equal(step.serialFrom, serial)
      assert.equal(step.serialTo, zone.serial)
      assert.deepEqual(step.removed.map(r => r.type), [6])
      assert.deepEqual(step.added.map(r => r.type).sort(), [1, 1, 6])

      assert.equal((await api.patch('/zones/sync.test/rrsets/A/www', { rdata: ['192.0.2.2', '192.0.2.3'] })).statusCode, 200)
      await eventually(() => zone.node(parseName('www.sync.test.'))?.rrsets.get(1)?.rdata.some(d => d[3] === 3) === true)
      assert.deepEqual(zone.node(parseName('www.sync.test.'))!.rrsets.get(1)!.rdata.map(d => d[3]).sort(), [2, 3])
      assert.equal(index.get(ORIGIN), zone)
    })

    it('removes names and the empty non-terminals above them when their last record goes', async () => {
      const zone = index.get(ORIGIN)!
      assert.equal((await api.post('/zones/sync.test/rrsets/TXT/deep.a.b', { ttl: 300, rdata: ['x'] })).statusCode, 201)
      await eventually(() => zone.exists(parseName('a.b.sync.test.')))
      assert.ok(zone.exists(parseName('b.sync.test.')), 'an empty non-terminal exists')
      assert.equal((await api.delete('/zones/sync.test/rrsets/TXT/deep.a.b')).statusCode, 204)
      await eventually(() => !zone.exists(parseName('deep.a.b.sync.test.')))
      assert.equal(zone.exists(parseName('a.b.sync.test.')), false)
      assert.equal(zone.exists(parseName('b.sync.test.')), false)
      assert.equal(index.get(ORIGIN), zone)
    })

    it('takes a pool profile change into the answer order', async () => {
      const zone = index.get(ORIGIN)!
      const profile = { '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: 'FIXED' }
      assert.equal((await api.put('/zones/sync.test/rrsets/A/www', { ttl: 300, rdata: ['192.0.2.2', '192.0.2.3'], profile })).statusCode, 200)
      await eventually(() => zone.node(parseName('www.sync.test.'))?.rrsets.get(1)?.order === 'FIXED')
    })

    it('reloads the zone whole when the journal cannot bridge the change', async () => {
      const zone = index.get(ORIGIN)!
      const row = (await t.store.zones.findByName('sync.test.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!
      // A change with no journal entry (as when the journal was trimmed): the steps do not
      // lead to the new serial.
      await t.store.transaction(async (tx) => {
        const soa = (await apexSoa(tx, row))!
        const rdata = withSoaSerial(soa.rdata[0]!, row.serial + 1000)
        await tx.rrsets.replace(row.id, { ...soa, rdata: [rdata], rdataText: [formatRdata(6, rdata)] })
        await tx.rrsets.replace(row.id, { ownerKey: canonicalSortKey(parseName('gap.sync.test.')), ownerName: 'gap.sync.test.', type: 16, ttl: 60, rdata: [new Uint8Array([3, 103, 97, 112])], rdataText: ['"gap"'], profile: null })
        await tx.zones.update(row.id, { serial: row.serial + 1000 })
      })
      await eventually(() => index.get(ORIGIN) !== zone)
      assert.equal(index.get(ORIGIN)!.serial, row.serial + 1000)
      assert.ok(has(index.get(ORIGIN), 'gap.sync.test.', 16))
      assert.ok(has(index.get(ORIGIN), 'www.sync.test.', 1))
    })

    it('serves an alias with its primary\'s changes, renamed', async () => {
      assert.equal((await api.post('/zones', { properties: { name: 'alias-of-sync.test', accountName: 'acme', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'sync.test.' } })).statusCode, 201)
      const alias = parseName('alias-of-sync.test.')
      await eventually(() => has(index.get(alias), 'www.alias-of-sync.test.', 1))
      const data = index.get(alias)!
      assert.equal((await api.post('/zones/sync.test/rrsets/AAAA/v6', { ttl: 300, rdata: ['2001:db8::6'] })).statusCode, 201)
      await eventually(() => has(index.get(alias), 'v6.alias-of-sync.test.', 28))
      assert.equal(index.get(alias), data, 'the alias follows the journal too')
    })

    it('serves a signed primary\'s alias with its own DNSSEC rows, following both journals in place, and reloads it when its steps do not pair up', async () => {
      const alias = parseName('alias-of-sync.test.')
      assert.equal((await api.post('/zones/sync.test/dnssec', {})).statusCode, 201)
      await eventually(() => has(index.get(alias), 'alias-of-sync.test.', 48))
      const data = index.get(alias)!
      assert.equal((await api.post('/zones/sync.test/rrsets/A/signedname', { ttl: 300, rdata: ['192.0.2.77'] })).statusCode, 201)
      await eventually(() => has(index.get(alias), 'signedname.alias-of-sync.test.', 1))
      assert.equal(index.get(alias), data, 'followed in place')
      assert.ok(has(data, 'signedname.alias-of-sync.test.', 46) && has(data, 'signedname.alias-of-sync.test.', 47), 'the alias\'s new signatures and NSEC')
      assert.ok(!has(data, 'signedname.sync.test.', 47), 'no record of the primary\'s names')
      // What was followed equals what a fresh load serves.
      const fresh = new ZoneIndex()
      const other = new ZoneSync(t.store, fresh, silent, new SecretBox(undefined), { fullSyncMs: 600_000 })
      await other.start()
      await other.stop()
      const dump = (z: ZoneData): string[] => [...z.eachNode()].flatMap(n => [...n.rrsets].flatMap(([type, set]) => set.rdata.map(d => `${Buffer.from(n.owner).toString('hex')} ${type} ${set.ttl} ${Buffer.from(d).toString('hex')}`))).sort()
      assert.deepEqual(dump(data), dump(fresh.get(alias)!))
      // An alias step of serials the primary has no step for: the alias is loaded whole.
      const row = (await t.store.zones.findByName('alias-of-sync.test.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!
      await t.store.transaction(async (tx) => { await tx.zones.writeChange(row.id, { rrsets: [], zone: {}, journal: { serialFrom: 1, serialTo: 2, reset: false, removed: [], added: [] } }) })
      await eventually(() => index.get(alias) !== data)
      assert.ok(has(index.get(alias), 'signedname.alias-of-sync.test.', 46))
      assert.equal((await api.delete('/zones/sync.test/dnssec')).statusCode, 204)
      await eventually(() => !has(index.get(alias), 'alias-of-sync.test.', 48))
      assert.ok(!has(index.get(alias), 'signedname.alias-of-sync.test.', 46))
    })

    it('gives a secondary zone its primaries\' addresses (whose NOTIFY it accepts)', async () => {
      const res = await api.post('/zones', { properties: { name: 'second.test', accountName: 'acme', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '127.0.0.1:5300' }, nameServerIp2: { ip: '::1' } } } } })
      assert.ok(res.statusCode === 201 || res.statusCode === 202, res.body)
      await eventually(() => index.get(parseName('second.test.')) !== undefined)
      assert.deepEqual(index.get(parseName('second.test.'))!.primaries, [{ host: '127.0.0.1', port: 5300 }, { host: '::1', port: 53 }])
      assert.equal(index.get(ORIGIN)!.primaries, undefined)
    })

    it('drops suspended and deleted zones', async () => {
      assert.equal((await api.newPrimary('gone.test', 'acme')).statusCode, 201)
      await eventually(() => index.get(parseName('gone.test.')) !== undefined)
      assert.equal((await api.post('/zones/gone.test/suspend', {})).statusCode, 200)
      await eventually(() => index.get(parseName('gone.test.')) === undefined)
      assert.equal((await api.newPrimary('deleted.test', 'acme')).statusCode, 201)
      await eventually(() => index.get(parseName('deleted.test.')) !== undefined)
      assert.equal((await api.delete('/zones/deleted.test')).statusCode, 204)
      await eventually(() => index.get(parseName('deleted.test.')) === undefined)
    })

    it('keeps another process\'s index in step through the engine\'s notifications', async () => {
      const other = await openStore(t.url)
      const otherIndex = new ZoneIndex()
      const otherSync = new ZoneSync(other, otherIndex, silent, new SecretBox(undefined), { fullSyncMs: 600_000 })
      try {
        await otherSync.start()
        assert.ok(has(otherIndex.get(ORIGIN), 'www.sync.test.', 1))
        const zone = otherIndex.get(ORIGIN)!
        assert.equal((await api.post('/zones/sync.test/rrsets/MX/mx', { ttl: 300, rdata: ['10 mail.sync.test.'] })).statusCode, 201)
        await eventually(() => has(otherIndex.get(ORIGIN), 'mx.sync.test.', 15))
        assert.equal(otherIndex.get(ORIGIN), zone, 'applied from the journal there too')
      } finally {
        await otherSync.stop()
        await other.close()
      }
    })

    it('catches up a missed notification by comparing versions', async () => {
      const other = await openStore(t.url)
      // A store whose notifications never arrive.
      const deaf: Store = new Proxy(other, {
        get: (target, prop, receiver) => prop === 'watchZones' ? async () => async () => {} : Reflect.get(target, prop, receiver)
      })
      const otherIndex = new ZoneIndex()
      const otherSync = new ZoneSync(deaf, otherIndex, silent, new SecretBox(undefined), { fullSyncMs: 100 })
      try {
        await otherSync.start()
        assert.equal((await api.post('/zones/sync.test/rrsets/TXT/late', { ttl: 300, rdata: ['caught up'] })).statusCode, 201)
        await eventually(() => has(otherIndex.get(ORIGIN), 'late.sync.test.', 16))
      } finally {
        await otherSync.stop()
        await other.close()
      }
    })
  })
}
