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
import { keyTagOf } from '../../../src/zone/dnssec/keys.ts'
import { verifyRrsig } from '../../../src/zone/dnssec/sign.ts'
import { signZone } from '../../../src/zone/dnssec/zone-signer.ts'
import { canonicalSortKey, parseName, wireKey } from '../../../src/zone/name.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { renameRecord } from '../../../src/zone/rename.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { readZoneRecords, toStoredRrsets } from '../../../src/zones/records.ts'
import { bumpSerial } from '../../../src/zones/serial-bump.ts'
import { openKey } from '../../../src/zones/dnssec/keyring.ts'
import { DnssecMaintenance } from '../../../src/zones/dnssec/maintenance.ts'
import { policyWith } from '../../../src/zones/dnssec/policy.ts'
import { runDnssec } from '../../../src/zones/dnssec/sign-zone.ts'
import { coveredType, rrsigExpiration, signingKeysOf, signingPolicyOf } from '../../../src/zones/dnssec/signing.ts'
import { isDnssecType } from '../../../src/zones/dnssec/types.ts'
import { engineCases, freshStore } from '../../helpers/engines.ts'
import { sampleZone, storeZone } from '../../helpers/stored-zones.ts'

const DAY = 86_400_000
const secrets = new SecretBox('alias signing test key')
const silent = { info: () => {}, warn: (_o: object, msg: string) => { throw new Error(msg) } }
const actor = { user: 'test', ipAddress: null }
const PRIMARY = 'example.org.'
const ALIAS = 'example.net.'

async function records (store: Store, zoneId: string): Promise<ZoneRecord[]> {
  const out: ZoneRecord[] = []
  for await (const r of readZoneRecords(store, zoneId)) out.push(r)
  return out
}

/** The alias as zone-sync serves it: the primary's records but DNSSEC ones, renamed, and the alias's own rows. */
async function servedAlias (store: Store, primary: Zone, alias: Zone): Promise<{ renamed: ZoneRecord[], own: ZoneRecord[] }> {
  const from = parseName(primary.name)
  const to = parseName(alias.name)
  const renamed = (await records(store, primary.id)).filter(r => !isDnssecType(r.type)).map(r => renameRecord(r, from, to))
  return { renamed, own: await records(store, alias.id) }
}

const text = (r: ZoneRecord): string => `${wireKey(r.owner)} ${r.type} ${r.ttl} ${Buffer.from(r.rdata).toString('hex')}`
const CHAIN = new Set<number>([RRType.NSEC, RRType.NSEC3, RRType.NSEC3PARAM, RRType.DNSKEY])

/**
 * The alias checked: only DNSSEC rows, every RRSIG valid at `now` over its served rrset, the
 * DNSKEY rrset and chain those `signZone` makes of the renamed zone with the primary's keys;
 * every authoritative rrset signed. Returns its rows.
 */
async function checkAlias (store: Store, primary: Zone, alias: Zone, now: Date): Promise<ZoneRecord[]> {
  const { renamed, own } = await servedAlias(store, primary, alias)
  assert.ok(own.length > 0, 'the alias has DNSSEC rows')
  assert.deepEqual(own.filter(r => !isDnssecType(r.type)), [], 'the alias holds DNSSEC rows only')
  assert.equal((await store.zones.findById(alias.id))!.dnssec_status, 'SIGNED')
  const all = [...renamed, ...own]
  const sets = new Map<string, ZoneRecord[]>()
  for (const r of all) {
    const k = `${wireKey(r.owner)}/${r.type}`
    sets.set(k, [...(sets.get(k) ?? []), r])
  }
  const dnskeys = own.filter(r => r.type === RRType.DNSKEY).map(r => r.rdata)
  const at = Math.floor(now.getTime() / 1000)
  const signedSets = new Set<string>()
  for (const sig of own.filter(r => r.type === RRType.RRSIG)) {
    const covered = sets.get(`${wireKey(sig.owner)}/${coveredType(sig.rdata)}`)
    assert.ok(covered !== undefined, `a signature over an rrset the alias serves (${coveredType(sig.rdata)})`)
    const tag = (sig.rdata[16]! << 8) | sig.rdata[17]!
    const key = dnskeys.find(d => keyTagOf(d) === tag)
    assert.ok(key !== undefined, `the key ${tag} of a signature is published`)
    assert.ok(verifyRrsig(sig.owner, coveredType(sig.rdata), covered[0]!.ttl, covered.map(r => r.rdata), sig.rdata, key, at), `the alias's signature over ${text(covered[0]!)} verifies`)
    signedSets.add(`${wireKey(sig.owner)}/${coveredType(sig.rdata)}`)
  }
  // The same keys and policy as the primary: signZone over the renamed zone makes the same DNSKEY rrset and chain.
  const state = (await store.dnssec.find(primary.id))!
  const keys = (await store.dnssec.keys(primary.id)).map(k => openKey(k, secrets))
  const expected = signZone(parseName(alias.name), renamed, signingKeysOf(keys), signingPolicyOf(state.policy), at)
  assert.deepEqual(own.filter(r => CHAIN.has(r.type)).map(text).sort(), expected.filter(r => CHAIN.has(r.type)).map(text).sort(), 'the chain and DNSKEY rrset signZone makes for the alias')
  assert.deepEqual([...signedSets].sort(), [...new Set(expected.filter(r => r.type === RRType.RRSIG).map(r => `${wireKey(r.owner)}/${coveredType(r.rdata)}`))].sort(), 'the rrsets signZone signs are signed')
  return own
}

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
      const own = await checkAlias(store, primary, alias, now)
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
      await checkAlias(store, primary, alias, now)
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
      const own = await checkAlias(store, primary, alias, now)
      const limit = now.getTime() / 1000 + 5 * 86400 * 0.25
      assert.ok(own.filter(r => r.type === RRType.RRSIG).every(r => rrsigExpiration(r.rdata) > limit), 'no alias signature left near its expiry')
    })

    it('follows a ZSK rollover step: the new key published in the alias\'s DNSKEY rrset', async () => {
      now = new Date(t0 + 91 * DAY)
      await run()
      const own = await checkAlias(store, primary, alias, now)
      assert.equal(own.filter(r => r.type === RRType.DNSKEY).length, 3)
    })

    it('moves to NSEC3 with its primary (re-sign with a new policy): NSEC3 hashes of the alias\'s names', async () => {
      await runDnssec({ store, secrets, clock: () => now }, { zoneId: primary.id, operation: 'RESIGN', policy: policyWith({ rrsigValidityDays: 5, securityType: 'NSEC3' }), actor, comment: null })
      const own = await checkAlias(store, primary, alias, now)
      assert.ok(own.some(r => r.type === RRType.NSEC3) && !own.some(r => r.type === RRType.NSEC))
    })

    it('signs an alias not signed yet (made straight in the store) whole at its primary\'s next change', async () => {
      const late = await storeZone(store, 'acme', 'example.com.', '', { type: 'ALIAS', originalZoneId: primary.id })
      // Created straight in the store (unsigned): the next change of the primary signs it whole.
      now = new Date(now.getTime() + 60_000)
      await store.transaction(async (tx) => { await bumpSerial(tx, (await tx.zones.lockById(primary.id))!, now, 0, [], undefined, { dnssec: { secrets } }) })
      await checkAlias(store, primary, late, now)
    })

    it('removes the alias\'s DNSSEC rows when its primary is unsigned', async () => {
      await runDnssec({ store, secrets, clock: () => now }, { zoneId: primary.id, operation: 'UNSIGN', policy: null, actor, comment: null })
      assert.deepEqual(await records(store, alias.id), [])
      assert.equal((await store.zones.findById(alias.id))!.dnssec_status, 'UNSIGNED')
    })
  })
}
