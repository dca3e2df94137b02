/**
 * Keeping signed zones signed (src/zones/dnssec/maintenance.ts), on both engines, with a clock
 * the test moves: signatures refreshed once they enter the last quarter of their validity, and a
 * ZSK rollover by pre-publication moved on by its times (new key published, then signing, then
 * the old one removed), each step through a new job object (what a restart starts from). After
 * every step each RRSIG of the stored zone verifies at that time against the zone's DNSKEYs.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../../src/auth/secrets.ts'
import type { Store, Zone } from '../../../src/store/store.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { DnssecMaintenance, prepareKeySteps } from '../../../src/zones/dnssec/maintenance.ts'
import { policyWith } from '../../../src/zones/dnssec/policy.ts'
import { runDnssec } from '../../../src/zones/dnssec/sign-zone.ts'
import { coveredType, rrsigExpiration } from '../../../src/zones/dnssec/signing.ts'
import { engineCases, freshStore } from '../../helpers/engines.ts'
import { checkSignatures, storedRecords } from '../../helpers/signed-store.ts'
import { sampleZone, storeZone } from '../../helpers/stored-zones.ts'

const DAY = 86_400_000
const secrets = new SecretBox('maintenance test key')
const silent = { info: () => {}, warn: (_o: object, msg: string) => { throw new Error(msg) } }

for (const engine of await engineCases()) {
  describe(`${engine.name}: DNSSEC maintenance`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let zone: Zone
    let now = new Date()
    const t0 = now.getTime()
    const run = async (): Promise<void> => { await new DnssecMaintenance({ store, secrets, clock: () => now, logger: silent }).run() }
    /** The zone's signatures but those over the DNSKEY rrset and the SOA (whose serial every step moves), as hex. */
    const othersThanDnskey = async (): Promise<string[]> => (await storedRecords(store, zone.id))
      .filter(r => r.type === RRType.RRSIG && coveredType(r.rdata) !== RRType.DNSKEY && coveredType(r.rdata) !== RRType.SOA)
      .map(r => Buffer.from(r.rdata).toString('hex')).sort()

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      await store.accounts.create('acme')
      zone = await storeZone(store, 'acme', 'example.org.', sampleZone('example.org.'))
      await runDnssec({ store, secrets, clock: () => now }, { zoneId: zone.id, operation: 'SIGN', policy: policyWith({ rrsigValidityDays: 5 }), actor: { user: 'test', ipAddress: null }, comment: null })
    })
    after(async () => { await close?.() })

    it('does nothing while no signature is near its expiry', async () => {
      const sigs = await checkSignatures(store, zone.id, now)
      now = new Date(t0 + DAY)
      await run()
      assert.deepEqual(await checkSignatures(store, zone.id, now), sigs)
    })

    it('refreshes every signature in the last quarter of its validity, through a serial bump', async () => {
      const serial = (await store.zones.findById(zone.id))!.serial
      now = new Date(t0 + 4 * DAY)
      await run()
      const sigs = await checkSignatures(store, zone.id, now)
      const limit = now.getTime() / 1000 + 5 * 86400 * 0.25
      assert.ok(sigs.every(s => rrsigExpiration(s) > limit), 'no signature left near its expiry')
      assert.notEqual((await store.zones.findById(zone.id))!.serial, serial)
    })

    it('rolls the ZSK by pre-publication: published, then signing, then the old one removed', async () => {
      const [oldZsk] = (await store.dnssec.keys(zone.id)).filter(k => k.role === 'ZSK')
      now = new Date(t0 + 91 * DAY)
      const untouched = await othersThanDnskey()
      await run()
      assert.deepEqual(await othersThanDnskey(), untouched, 'publishing a key signs only the DNSKEY rrset again (the SOA aside)')
      // The zone is looked at again at once: signatures the jump of the clock left near their expiry are refreshed.
      assert.ok((await store.dnssec.due(now.toISOString(), 10)).includes(zone.id))
      await run()
      let keys = await store.dnssec.keys(zone.id)
      const fresh = keys.find(k => k.role === 'ZSK' && k.state === 'PUBLISHED')
      assert.ok(fresh !== undefined, 'a new ZSK is published')
      assert.equal((await storedRecords(store, zone.id)).filter(r => r.type === RRType.DNSKEY).length, 3)
      let sigs = await checkSignatures(store, zone.id, now)
      assert.ok(sigs.every(s => coveredType(s) === RRType.DNSKEY || ((s[16]! << 8) | s[17]!) === oldZsk!.keyTag), 'the old ZSK still signs')

      now = new Date(Date.parse(fresh.activeAt!) + 1000)
      // The step is prepared outside the transaction: the zone signed (in a worker thread) with the keys it leaves.
      const prepared = await prepareKeySteps(store, secrets, zone.id, now)
      assert.ok(prepared !== undefined, 'the activation is due and prepared')
      assert.deepEqual(prepared.steps.notes, [`ZSK ${fresh.keyTag} active`, `ZSK ${oldZsk!.keyTag} retired`])
      const preparedSigs = [...prepared.signed.rrsets.values()].filter(r => r.type === RRType.RRSIG).flatMap(r => r.rdata)
      assert.ok(preparedSigs.length > 0 && preparedSigs.every(s => coveredType(s) === RRType.DNSKEY || ((s[16]! << 8) | s[17]!) === fresh.keyTag), 'prepared with the new ZSK signing')
      await run()
      assert.equal(await prepareKeySteps(store, secrets, zone.id, now), undefined, 'nothing left due')
      keys = await store.dnssec.keys(zone.id)
      assert.equal(keys.find(k => k.id === fresh.id)?.state, 'ACTIVE')
      assert.equal(keys.find(k => k.id === oldZsk!.id)?.state, 'RETIRED')
      sigs = await checkSignatures(store, zone.id, now)
      assert.ok(sigs.every(s => coveredType(s) === RRType.DNSKEY || ((s[16]! << 8) | s[17]!) === fresh.keyTag), 'the new ZSK signs')
      assert.equal((await storedRecords(store, zone.id)).filter(r => r.type === RRType.DNSKEY).length, 3, 'the old ZSK stays published')

      now = new Date(Date.parse(keys.find(k => k.id === oldZsk!.id)!.removedAt!) + 1000)
      const beforeRemoval = await othersThanDnskey()
      await run()
      assert.deepEqual(await othersThanDnskey(), beforeRemoval, 'removing a key signs only the DNSKEY rrset again')
      await run()
      assert.equal((await store.dnssec.keys(zone.id)).find(k => k.id === oldZsk!.id), undefined)
      assert.equal((await storedRecords(store, zone.id)).filter(r => r.type === RRType.DNSKEY).length, 2)
      await checkSignatures(store, zone.id, now)
    })

    it('rolls the KSK by double signature on its schedule: the new one signs beside the old, which leaves once the old DS can have left the caches', async () => {
      const [oldKsk] = (await store.dnssec.keys(zone.id)).filter(k => k.role === 'KSK')
      now = new Date(Date.parse(oldKsk!.activeAt!) + 366 * DAY)
      const untouched = await othersThanDnskey()
      await run()
      assert.deepEqual(await othersThanDnskey(), untouched, 'a new KSK signs only the DNSKEY rrset')
      await run()
      const ksks = (await store.dnssec.keys(zone.id)).filter(k => k.role === 'KSK')
      assert.equal(ksks.length, 2)
      assert.ok(ksks.every(k => k.state === 'ACTIVE'))
      const sigs = await checkSignatures(store, zone.id, now)
      assert.deepEqual(new Set(sigs.filter(s => coveredType(s) === RRType.DNSKEY).map(s => (s[16]! << 8) | s[17]!)), new Set(ksks.map(k => k.keyTag)), 'both KSKs sign the DNSKEY rrset')
      const leaves = (await store.dnssec.keys(zone.id)).find(k => k.id === oldKsk!.id)!.removedAt!
      // RFC 6781 §4.1.2: the DNSKEY TTL and an hour before the parent may take the new DS, then its TTL there (a day) and an hour.
      assert.equal(Date.parse(leaves), now.getTime() + (3600 + 3600 + 86_400 + 3600) * 1000)
      now = new Date(Date.parse(leaves) + 1000)
      await run()
      await run()
      assert.deepEqual((await store.dnssec.keys(zone.id)).filter(k => k.role === 'KSK').map(k => k.id), ksks.filter(k => k.id !== oldKsk!.id).map(k => k.id))
      await checkSignatures(store, zone.id, now)
    })
  })
}
