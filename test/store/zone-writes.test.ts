/**
 * The zone lookups and writes of an rrset change on both engines: the zone looked up and locked by
 * name in the caller's scope, and the writes that end a change (`zones.writeChange`: rrsets, the
 * zone row, the journal entry of the new version, the audit record; one statement on PostgreSQL).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { JOURNAL_KEEP_VERSIONS } from '../../src/store/sql/zone-changes.ts'
import type { Store, StoredRrset, Zone } from '../../src/store/store.ts'
import { canonicalSortKey, parseName } from '../../src/zone/name.ts'
import type { ZoneRecord } from '../../src/zone/record.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const ZONE = `$ORIGIN change.example.
$TTL 3600
@   IN SOA ns1 hostmaster 2026010101 3600 900 604800 300
@   IN NS  ns1
ns1 IN A   192.0.2.53
a   IN A   192.0.2.1
b   IN A   192.0.2.2
`
const key = (name: string): string => canonicalSortKey(parseName(name))
const A: ZoneRecord = { owner: parseName('a.change.example.'), type: 1, ttl: 3600, rdata: Uint8Array.of(192, 0, 2, 1) }
const rrsetA = (name: string, ttl: number, address: number[]): StoredRrset => ({
  ownerKey: key(name), ownerName: name, type: 1, ttl, rdata: [Uint8Array.from(address)], rdataText: [address.join('.')], profile: null
})

for (const engine of await engineCases()) {
  describe(`${engine.name}: zone writes of an rrset change`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let zone: Zone
    let accountId: string
    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      accountId = (await store.accounts.create('acme')).id
      await store.accounts.create('other')
      zone = await storeZone(store, 'acme', 'change.example.', ZONE)
    })
    after(async () => await close?.())

    it('looks a zone up by name in the scope and locks it', async () => {
      const locked = await store.transaction(async (tx) => await tx.zones.lockByName('change.example.', { accountIds: [accountId] }))
      assert.equal(locked?.id, zone.id)
      assert.equal(locked?.account_name, 'acme')
      const otherId = (await store.accounts.findByName('other'))!.id
      assert.equal(await store.transaction(async (tx) => await tx.zones.lockByName('change.example.', { accountIds: [otherId] })), undefined)
      assert.equal(await store.transaction(async (tx) => await tx.zones.lockByName('change.example.', { accountIds: [] })), undefined)
      assert.equal(await store.transaction(async (tx) => await tx.zones.lockByName('nothing.example.', { accountIds: [accountId] })), undefined)
    })

    it('looks a zone up by name in the scope with the rdata of one apex rrset', async () => {
      const found = await store.zones.findWithApex('change.example.', { accountIds: [accountId] }, key('change.example.'), 2)
      assert.equal(found?.zone.id, zone.id)
      assert.equal(found?.zone.account_name, 'acme')
      assert.deepEqual(found?.zone.settings, (await store.zones.findById(zone.id))?.settings)
      assert.deepEqual(found?.apexRdataText, ['ns1.change.example.'])
      assert.equal((await store.zones.findWithApex('change.example.', { accountIds: [accountId] }, key('change.example.'), 16))?.apexRdataText, undefined)
      const otherId = (await store.accounts.findByName('other'))!.id
      assert.equal(await store.zones.findWithApex('change.example.', { accountIds: [otherId] }, key('change.example.'), 2), undefined)
    })

    it('writes the rrsets, the zone, the journal entry of the new version and the audit record of a change', async () => {
      const current = (await store.zones.findById(zone.id))!
      const announced: string[] = []
      const stop = await store.watchZones((id) => { announced.push(id) }, () => {})
      try {
        const updated = await store.transaction(async (tx) => await tx.zones.writeChange(zone.id, {
          rrsets: [
            { ownerKey: key('a.change.example.'), type: 1, existed: true, rrset: rrsetA('a.change.example.', 60, [192, 0, 2, 11]) },
            { ownerKey: key('b.change.example.'), type: 1, existed: true },
            { ownerKey: key('c.change.example.'), type: 1, existed: false, rrset: rrsetA('c.change.example.', 120, [192, 0, 2, 3]) }
          ],
          zone: { serial: 2026010102, record_count: 5 },
          journal: { serialFrom: 2026010101, serialTo: 2026010102, reset: false, removed: [A], added: [] },
          audit: { accountId, accountName: 'acme', user: 'alice', ipAddress: '192.0.2.9', objectType: 'A', changeType: 'MODIFY', object: 'a.change.example.', parent: 'change.example.', detail: { changes: [{ name: 'ttl', from: 3600, to: 60 }] }, changeComment: 'why' }
        }))
        assert.equal(updated.version, current.version + 1)
        assert.equal(updated.serial, 2026010102)
        assert.equal(updated.record_count, 5)
        assert.deepEqual((await store.zones.findById(zone.id))?.version, updated.version)
        const a = await store.rrsets.get(zone.id, key('a.change.example.'), 1)
        assert.deepEqual([a?.ttl, a?.rdataText], [60, ['192.0.2.11']])
        assert.equal(await store.rrsets.get(zone.id, key('b.change.example.'), 1), undefined)
        assert.deepEqual((await store.rrsets.get(zone.id, key('c.change.example.'), 1))?.rdataText, ['192.0.2.3'])
        assert.deepEqual(await store.zoneChanges.latest(zone.id, 1), [
          { version: updated.version, serialFrom: 2026010101, serialTo: 2026010102, reset: false, removed: [A], added: [] }
        ])
        const [record] = await store.audit.recent(1)
        assert.deepEqual([record?.user_name, record?.object, record?.change_type, record?.change_comment, record?.account_id], ['alice', 'a.change.example.', 'MODIFY', 'why', accountId])
        assert.deepEqual(JSON.parse(record!.detail).changes, [{ name: 'ttl', from: 3600, to: 60 }])
        assert.ok(announced.includes(zone.id))
      } finally {
        await stop()
      }
    })

    it('trims the journal every 64 versions, as an append does', async () => {
      let current = (await store.zones.findById(zone.id))!
      while (current.version < 63) current = { ...current, ...(await store.zones.update(zone.id, {})) }
      // Entries far enough back for the trim at version 64 to remove the first.
      await store.zoneChanges.append(zone.id, { version: 64 - JOURNAL_KEEP_VERSIONS, serialFrom: 1, serialTo: 2, reset: true })
      await store.zoneChanges.append(zone.id, { version: 65 - JOURNAL_KEEP_VERSIONS, serialFrom: 2, serialTo: 3, reset: true })
      const write = async (): Promise<number> => (await store.transaction(async (tx) => await tx.zones.writeChange(zone.id, {
        rrsets: [], zone: {}, journal: { serialFrom: 3, serialTo: 4, reset: true }
      }))).version
      assert.equal(await write(), 64)
      assert.deepEqual((await store.zoneChanges.since(zone.id, -1_000_000, 100)).map(c => c.version).filter(v => v <= 0), [65 - JOURNAL_KEEP_VERSIONS])
      // Version 65 trims nothing, though its bound would take the second.
      assert.equal(await write(), 65)
      assert.deepEqual((await store.zoneChanges.since(zone.id, -1_000_000, 100)).map(c => c.version).filter(v => v <= 0), [65 - JOURNAL_KEEP_VERSIONS])
    })
  })
}
