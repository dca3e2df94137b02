/**
 * Alias zones carry the signing of their primary (src/zones/dnssec/alias.ts), on both engines:
 * signing `example.org.` signs its alias `example.net.` under its own name with the primary's
 * keys. After the sign, a change of the primary's rrsets, a refresh and a ZSK rollover step by
 * the maintenance job, a move to NSEC3 and an unsign, the alias's rows are DNSSEC rrsets only;
 * each of its RRSIGs verifies with `verifyRrsig` over the primary's rrset renamed as zone-sync
 * serves it; its DNSKEY rrset and chain equal what `signZone` makes of the renamed zone with the
 * same keys; the change of the primary changes only the alias's signatures and chain records
 * around the changed name, in the alias's journal step of the same serials. An alias not signed
 * yet is signed whole at its primary's next change.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../../src/auth/secrets.ts'
import type { Store, StoredRrset, Zone } from '../../../src/store/store.ts'
import { canonicalSortKey, parseName, wireKey } from '../../../src/zone/name.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { toStoredRrsets } from '../../../src/zones/records.ts'
import { bumpSerial } from '../../../src/zones/serial-bump.ts'
import { DnssecMaintenance } from '../../../src/zones/dnssec/maintenance.ts'
import { policyWith } from '../../../src/zones/dnssec/policy.ts'
import { runDnssec } from '../../../src/zones/dnssec/sign-zone.ts'
import { rrsigExpiration } from '../../../src/zones/dnssec/signing.ts'
import { engineCases, freshStore } from '../../helpers/engines.ts'
import { checkAlias, storedRecords } from '../../helpers/signed-store.ts'
import { sampleZone, storeZone } from '../../helpers/stored-zones.ts'

const DAY = 86_400_000
const secrets = new SecretBox('alias signing test key')
const silent = { info: () => {}, warn: (_o: object, msg: string) => { throw new Error(msg) } }
const actor = { user: 'test', ipAddress: null }
const PRIMARY = 'example.org.'
const ALIAS = 'example.net.'

const rowKey = (r: StoredRrset): string => `${r.ownerKey}/${r.type}`

async function rows (store: Store, zoneId: string): Promise<Map<string, StoredRrset>> {
  const out = new Map<string, StoredRrset>()
  for (const w of await store.rrsets.listWire(zoneId, 100_000)) out.set(rowKey({ ...w, rdataText: [] }), { ...w, rdataText: [] })
  return out
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: alias zones signed with their primary`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let primary: Zone
    let alias: Zone
    const t0 = Date.now()
    let now = new Date(t0)
    const run = async (): Promise<void> => { await new DnssecMaintenance({ store, secrets, clock: () => now, logger: silent }).run() }

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      await store.accounts.create('acme')
      primary = await storeZone(store, 'acme', PRIMARY, sampleZone(PRIMARY))
      alias = await storeZone(store, 'acme', ALIAS, '', { type: 'ALIAS', originalZoneId: primary.id })
    })
    after(async () => { await close?.() })

    it('signs the alias when its primary is signed: its own signatures, DNSKEY and NSEC chain under its name', async () => {
      await runDnssec({ store, secrets, clock: () => now }, { zoneId: primary.id, operation: 'SIGN', policy: policyWith({ rrsigValidityDays: 5 }), actor, comment: null })
      const own = await checkAlias(store, primary, alias, now, secrets)
      assert.ok(own.some(r => r.type === RRType.NSEC && wireKey(r.owner) === wireKey(parseName(`ftp.${ALIAS}`))))
      // Journaled in the alias's journal with the primary's serials.
      const [mine] = await store.zoneChanges.latest(alias.id, 1)
      const [theirs] = await store.zoneChanges.latest(primary.id, 1)
      assert.equal(mine?.serialFrom, theirs?.serialFrom)
      assert.equal(mine?.serialTo, theirs?.serialTo)
    })

    it('changes only the touched signatures and chain records of the alias when an rrset of the primary changes', async () => {
      const was = await rows(store, alias.id)
      now = new Date(t0 + 60_000)
      await store.transaction(async (tx) => {
        const zone = (await tx.zones.lockById(primary.id))!
        const [rrset] = toStoredRrsets([{ owner: parseName(`new.${PRIMARY}`), type: RRType.A, ttl: 300, rdata: Uint8Array.from([192, 0, 2, 99]) }])
        await bumpSerial(tx, zone, now, 1, [{ after: rrset! }], undefined, { rrsets: [{ ownerKey: rrset!.ownerKey, type: RRType.A, existed: false, rrset: rrset! }], dnssec: { secrets } })
      })
      await checkAlias(store, primary, alias, now, secrets)
      const is = await rows(store, alias.id)
      const changed = [...new Set([...was.keys(), ...is.keys()])].filter(k => {
        const a = was.get(k)
        const b = is.get(k)
        return a === undefined || b === undefined || a.rdata.map(d => Buffer.from(d).toString('hex')).join() !== b.rdata.map(d => Buffer.from(d).toString('hex')).join()
      })
      const key = (name: string, type: number): string => `${canonicalSortKey(parseName(name))}/${type}`
      // The new name's NSEC and signatures, its predecessor's NSEC (mail → new) and signature, the apex's SOA signature.
      assert.deepEqual(changed.sort(), [key(ALIAS, RRType.RRSIG), key(`mail.${ALIAS}`, RRType.NSEC), key(`mail.${ALIAS}`, RRType.RRSIG), key(`new.${ALIAS}`, RRType.NSEC), key(`new.${ALIAS}`, RRType.RRSIG)].sort())
      const [mine] = await store.zoneChanges.latest(alias.id, 1)
      const [theirs] = await store.zoneChanges.latest(primary.id, 1)
      assert.deepEqual([mine?.serialFrom, mine?.serialTo], [theirs?.serialFrom, theirs?.serialTo])
      assert.ok(!mine!.reset && mine!.added.some(r => r.type === RRType.NSEC && wireKey(r.owner) === wireKey(parseName(`new.${ALIAS}`))), 'the alias step adds the new NSEC')
    })

    it('refreshes the alias\'s signatures in the last quarter of their validity with its primary\'s', async () => {
      now = new Date(t0 + 4 * DAY)
      await run()
      const own = await checkAlias(store, primary, alias, now, secrets)
      const limit = now.getTime() / 1000 + 5 * 86400 * 0.25
      assert.ok(own.filter(r => r.type === RRType.RRSIG).every(r => rrsigExpiration(r.rdata) > limit), 'no alias signature left near its expiry')
    })

    it('follows a ZSK rollover step: the new key published in the alias\'s DNSKEY rrset', async () => {
      now = new Date(t0 + 91 * DAY)
      await run()
      // The key step changes the DNSKEY rrsets only; the turn after it refreshes what the clock's jump left expired.
      await run()
      const own = await checkAlias(store, primary, alias, now, secrets)
      assert.equal(own.filter(r => r.type === RRType.DNSKEY).length, 3)
    })

    it('moves to NSEC3 with its primary (re-sign with a new policy): NSEC3 hashes of the alias\'s names', async () => {
      await runDnssec({ store, secrets, clock: () => now }, { zoneId: primary.id, operation: 'RESIGN', policy: policyWith({ rrsigValidityDays: 5, securityType: 'NSEC3' }), actor, comment: null })
      const own = await checkAlias(store, primary, alias, now, secrets)
      assert.ok(own.some(r => r.type === RRType.NSEC3) && !own.some(r => r.type === RRType.NSEC))
    })

    it('signs an alias not signed yet (made straight in the store) whole at its primary\'s next change', async () => {
      const late = await storeZone(store, 'acme', 'example.com.', '', { type: 'ALIAS', originalZoneId: primary.id })
      // Created straight in the store (unsigned): the next change of the primary signs it whole.
      now = new Date(now.getTime() + 60_000)
      await store.transaction(async (tx) => { await bumpSerial(tx, (await tx.zones.lockById(primary.id))!, now, 0, [], undefined, { dnssec: { secrets } }) })
      await checkAlias(store, primary, late, now, secrets)
    })

    it('removes the alias\'s DNSSEC rows when its primary is unsigned', async () => {
      await runDnssec({ store, secrets, clock: () => now }, { zoneId: primary.id, operation: 'UNSIGN', policy: null, actor, comment: null })
      assert.deepEqual(await storedRecords(store, alias.id), [])
      assert.equal((await store.zones.findById(alias.id))!.dnssec_status, 'UNSIGNED')
    })
  })
}
