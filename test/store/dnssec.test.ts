/**
 * DNSSEC keys and policies in the store (migration 0023, src/store/sql/dnssec.ts), on both
 * engines: keys added, read oldest first without the removed ones (unless asked), their state
 * and times changed, deleted per zone; the zone's policy row saved, replaced, rescheduled and
 * deleted; `due` finding signed active zones whose next event has come; both going with their zone.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DnssecKey, DnssecPolicy, Store, ZoneDnssec } from '../../src/store/store.ts'
import { canonicalSortKey, parseName } from '../../src/zone/name.ts'
import type { SealedSecret } from '../../src/zone/settings.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { sampleZone, storeZone } from '../helpers/stored-zones.ts'

const POLICY: DnssecPolicy = {
  algorithm: 'ECDSAP256SHA256',
  kskBits: 256,
  zskBits: 256,
  securityType: 'NSEC3',
  nsec3Iterations: 0,
  nsec3Salt: '',
  dnskeyTtl: 3600,
  rrsigValidityDays: 14,
  zskRolloverDays: 90,
  kskRolloverDays: 365,
  overrides: ['securityType']
}

function key (zoneId: string, id: string, role: 'KSK' | 'ZSK', createdAt: string): DnssecKey {
  return {
    id,
    zoneId,
    role,
    algorithm: 13,
    flags: role === 'KSK' ? 257 : 256,
    bits: 256,
    keyTag: role === 'KSK' ? 12345 : 54321,
    publicKey: Uint8Array.from({ length: 64 }, (_, i) => i),
    privateKey: 'enc:v1:c2VhbGVk' as SealedSecret,
    state: 'ACTIVE',
    createdAt,
    publishedAt: createdAt,
    activeAt: createdAt,
    retiredAt: null,
    removedAt: null
  }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: DNSSEC keys and policies`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let zoneId: string
    let otherId: string

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      await store.accounts.create('acme')
      zoneId = (await storeZone(store, 'acme', 'example.org.', '')).id
      otherId = (await storeZone(store, 'acme', 'example.net.', '')).id
    })
    after(async () => { await close?.() })

    it('adds keys and reads them back whole, oldest first, per zone', async () => {
      const ksk = key(zoneId, 'k1', 'KSK', '2026-11-26T10:00:00.000Z')
      const zsk = key(zoneId, 'k2', 'ZSK', '2026-11-26T10:00:01.000Z')
      await store.dnssec.addKey(zsk)
      await store.dnssec.addKey(ksk)
      await store.dnssec.addKey(key(otherId, 'k3', 'ZSK', '2026-11-26T10:00:00.000Z'))
      assert.deepEqual(await store.dnssec.keys(zoneId), [ksk, zsk])
      assert.deepEqual((await store.dnssec.keys(otherId)).map(k => k.id), ['k3'])
    })

    it('changes a key\'s state and times, and hides removed keys unless asked', async () => {
      assert.equal(await store.dnssec.updateKey('k2', { state: 'RETIRED', retiredAt: '2026-11-27T00:00:00.000Z', removedAt: '2026-11-28T00:00:00.000Z' }), true)
      const [, zsk] = await store.dnssec.keys(zoneId)
      assert.equal(zsk?.state, 'RETIRED')
      assert.equal(zsk?.retiredAt, '2026-11-27T00:00:00.000Z')
      assert.equal(zsk?.removedAt, '2026-11-28T00:00:00.000Z')
      assert.equal(zsk?.activeAt, '2026-11-26T10:00:01.000Z', 'times not given are kept')
      await store.dnssec.updateKey('k2', { state: 'REMOVED' })
      assert.deepEqual((await store.dnssec.keys(zoneId)).map(k => k.id), ['k1'])
      assert.deepEqual((await store.dnssec.keys(zoneId, true)).map(k => k.id), ['k1', 'k2'])
      assert.equal(await store.dnssec.updateKey('nope', { state: 'ACTIVE' }), false)
      assert.equal(await store.dnssec.updateKey('k1', {}), true)
    })

    it('saves, replaces, reschedules and deletes the zone\'s policy row; due finds signed zones whose time has come', async () => {
      assert.equal(await store.dnssec.find(zoneId), undefined)
      const state: ZoneDnssec = { zoneId, policy: POLICY, signedAt: '2026-11-26T10:00:00.000Z', modifiedAt: '2026-11-26T10:00:00.000Z', nextEventAt: '2026-12-05T10:00:00.000Z' }
      await store.dnssec.save(state)
      assert.deepEqual(await store.dnssec.find(zoneId), state)
      await store.dnssec.save({ ...state, policy: { ...POLICY, securityType: 'NSEC' } })
      assert.equal((await store.dnssec.find(zoneId))?.policy.securityType, 'NSEC')
      assert.deepEqual(await store.dnssec.due('2026-12-06T00:00:00.000Z', 10), [], 'the zone row is not SIGNED yet')
      await store.zones.update(zoneId, { dnssec_status: 'SIGNED' })
      assert.deepEqual(await store.dnssec.due('2026-12-05T09:59:59.999Z', 10), [])
      assert.deepEqual(await store.dnssec.due('2026-12-06T00:00:00.000Z', 10), [zoneId])
      await store.dnssec.schedule(zoneId, null, '2026-11-27T00:00:00.000Z')
      assert.equal((await store.dnssec.find(zoneId))?.modifiedAt, '2026-11-27T00:00:00.000Z')
      assert.deepEqual(await store.dnssec.due('2030-01-01T00:00:00.000Z', 10), [])
      assert.equal(await store.dnssec.delete(zoneId), true)
      assert.equal(await store.dnssec.delete(zoneId), false)
    })

    it('reads the owners and types below a name without rdata, and deletes rrsets by owner and type in batches', async () => {
      const z = await storeZone(store, 'acme', 'rrsets.example.', sampleZone('rrsets.example.', 900))
      const apex = canonicalSortKey(parseName('rrsets.example.'))
      const below = async (except: number[]): Promise<Array<{ ownerKey: string, ownerName: string, type: number }>> => await store.rrsets.ownerTypesBelow(z.id, apex, except, 10_000)
      const all = await below([])
      assert.equal(all.length, (await store.rrsets.list(z.id, 10_000)).filter(r => r.ownerKey !== apex).length)
      assert.ok(all.every((r, i) => i === 0 || all[i - 1]!.ownerKey < r.ownerKey || (all[i - 1]!.ownerKey === r.ownerKey && all[i - 1]!.type < r.type)), 'in canonical order')
      assert.ok((await below([1])).every(r => r.type !== 1))
      const hosts = all.filter(r => r.ownerName.startsWith('host'))
      await store.transaction(async (tx) => { await tx.rrsets.deleteMany(z.id, hosts) })
      assert.deepEqual((await below([])).map(r => r.ownerName), all.filter(r => !r.ownerName.startsWith('host')).map(r => r.ownerName))
    })

    it('deletes a zone\'s keys, and both tables go with their zone', async () => {
      assert.equal(await store.dnssec.deleteKeys(zoneId), 2)
      await store.dnssec.save({ zoneId: otherId, policy: POLICY, signedAt: 'x', modifiedAt: 'x', nextEventAt: null })
      await store.zones.deleteById(otherId)
      assert.deepEqual(await store.dnssec.keys(otherId, true), [])
      assert.equal(await store.dnssec.find(otherId), undefined)
    })
  })
}
