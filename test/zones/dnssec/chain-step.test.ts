/**
 * The local denial chain step of a change to a signed zone (src/zones/dnssec/resign.ts,
 * chain-step.ts, chain-splice.ts, changed-names.ts), on both engines: random sequences of changes
 * (owners and types added and removed, delegations with and without DS, glue below them, names
 * that make and remove empty non-terminals, wildcards, several changes in one transaction, the
 * store holding the change or not yet) on NSEC, NSEC3 and NSEC3 Opt-Out zones. After every step
 * the stored DNSKEY, NSEC, NSEC3 and NSEC3PARAM rrsets equal exactly what the whole-zone signer
 * makes of the zone's records, the RRSIGs cover exactly the rrsets it signs, and each verifies.
 * And a change reads the rows near it, not the zone.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../../src/auth/secrets.ts'
import type { DnssecPolicy, RrsetStore, Store, StoredRrset, Zone } from '../../../src/store/store.ts'
import { keyTagOf } from '../../../src/zone/dnssec/keys.ts'
import { verifyRrsig } from '../../../src/zone/dnssec/sign.ts'
import { signZone } from '../../../src/zone/dnssec/zone-signer.ts'
import { canonicalSortKey, parseName } from '../../../src/zone/name.ts'
import { recordTextToRdata } from '../../../src/zone/record-text.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { openKey } from '../../../src/zones/dnssec/keyring.ts'
import { policyWith } from '../../../src/zones/dnssec/policy.ts'
import { runDnssec } from '../../../src/zones/dnssec/sign-zone.ts'
import { coveredType, groupRrsets, rrsetKey, rrsetOf, signingKeysOf, signingPolicyOf } from '../../../src/zones/dnssec/signing.ts'
import { isDnssecType } from '../../../src/zones/dnssec/types.ts'
import { bumpSerial, type RrsetChange } from '../../../src/zones/serial-bump.ts'
import { engineCases, freshStore } from '../../helpers/engines.ts'
import { checkAlias } from '../../helpers/signed-store.ts'
import { storeZone } from '../../helpers/stored-zones.ts'

const secrets = new SecretBox('chain step test key')
const actor = { user: 'test', ipAddress: null }
const ORIGIN = 'example.org.'
const origin = parseName(ORIGIN)

/** Names of the random changes: deep ones (empty non-terminals), wildcards, and room for cuts with glue below. */
const NAMES = ['a', 'b.a', 'c.b.a', 'd.c.b.a', 'x.b.a', 'e', 'f.e', 'g.f.e', 'h.g.f.e', '*.e', '*', 'k', 'm.k', 'n.m.k', 'ns.m.k', 'z.y.x.w', 'p.z.y.x.w', 'q']
const TYPES = [RRType.A, RRType.TXT, RRType.NS, RRType.DS]

const BASE = `$TTL 3600
@ IN SOA ns1 hostmaster 2026010101 3600 900 604800 300
@ IN NS ns1
ns1 IN A 192.0.2.1
b.a IN A 192.0.2.2
e IN TXT "e"
g.f.e IN A 192.0.2.3
m.k IN NS ns.m.k.
ns.m.k IN A 192.0.2.4
*.e IN A 192.0.2.5
`

function rrset (name: string, type: number, n: number): StoredRrset {
  const owner = parseName(`${name}.${ORIGIN}`)
  const text = type === RRType.A
    ? `192.0.2.${n % 250 + 1}`
    : type === RRType.TXT ? `"t${n}"` : type === RRType.NS ? `ns${n % 3}.example.net.` : `${1000 + n} 13 2 ${'ab'.repeat(32)}`
  return rrsetOf({ ownerKey: canonicalSortKey(owner), ownerName: `${name}.${ORIGIN}` }, type, 3600, [recordTextToRdata(type, text, origin)])
}

/** A small deterministic generator (tests repeat). */
function random (seed: number): () => number {
  let s = seed
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    return s / 2 ** 32
  }
}

/** Apply changes in one transaction through bumpSerial, the rrsets written before it or left to it. */
async function change (store: Store, zoneId: string, make: (tx: Store) => Promise<RrsetChange[]>, writtenFirst: boolean, wrap: (tx: Store) => Store = tx => tx): Promise<void> {
  await store.transaction(async (tx) => {
    const zone = (await tx.zones.lockById(zoneId))!
    const changes = await make(tx)
    if (writtenFirst) {
      for (const c of changes) {
        const r = (c.after ?? c.before)!
        if (c.after === undefined) await tx.rrsets.delete(zoneId, r.ownerKey, r.type)
        else await tx.rrsets.replace(zoneId, c.after)
      }
    }
    const writes = writtenFirst ? [] : changes.map(c => { const r = (c.after ?? c.before)!; return { ownerKey: r.ownerKey, type: r.type, existed: c.before !== undefined, ...(c.after === undefined ? {} : { rrset: c.after }) } })
    await bumpSerial(wrap(tx), zone, new Date(), 0, changes, undefined, { rrsets: writes, dnssec: { secrets } })
  })
}

/** The whole-zone signer over the stored zone's records compared with its stored DNSSEC rrsets. */
async function checkAgainstWhole (store: Store, zoneId: string, policy: DnssecPolicy, step: string, apex = origin): Promise<void> {
  const stored = new Map<string, StoredRrset>()
  const records: ZoneRecord[] = []
  for (let after: { ownerKey: string, type: number } | undefined, page; (page = await store.rrsets.list(zoneId, 1000, after)).length > 0;) {
    for (const r of page) {
      stored.set(rrsetKey(r.ownerKey, r.type), r)
      if (!isDnssecType(r.type)) for (const rdata of r.rdata) records.push({ owner: parseName(r.ownerName), type: r.type, ttl: r.ttl, rdata })
    }
    after = { ownerKey: page.at(-1)!.ownerKey, type: page.at(-1)!.type }
  }
  const keys = (await store.dnssec.keys(zoneId)).map(k => openKey(k, secrets))
  const now = Math.floor(Date.now() / 1000)
  const whole = groupRrsets(signZone(apex, records, signingKeysOf(keys), signingPolicyOf(policy), now))
  const hex = (r: StoredRrset | undefined): string[] => (r?.rdata ?? []).map(d => Buffer.from(d).toString('hex')).sort()
  const label = (k: string): string => `${step}: ${stored.get(k)?.ownerName ?? whole.get(k)?.ownerName} ${k.split('/')[1]}`
  for (const k of new Set([...stored.keys(), ...whole.keys()])) {
    const type = Number(k.split('/')[1])
    if (!isDnssecType(type) || type === RRType.RRSIG) continue
    assert.deepEqual(hex(stored.get(k)), hex(whole.get(k)), `${label(k)}: the chain record is the whole signer's`)
    assert.equal(stored.get(k)?.ttl, whole.get(k)?.ttl, `${label(k)}: TTL`)
  }
  const dnskeys = stored.get(rrsetKey(canonicalSortKey(apex), RRType.DNSKEY))!.rdata
  for (const k of new Set([...stored.keys(), ...whole.keys()].filter(k => k.endsWith(`/${RRType.RRSIG}`)))) {
    const covered = (r: StoredRrset | undefined): number[] => [...new Set((r?.rdata ?? []).map(coveredType))].sort((a, b) => a - b)
    assert.deepEqual(covered(stored.get(k)), covered(whole.get(k)), `${label(k)}: the types signed are the whole signer's`)
    const sigs = stored.get(k)
    if (sigs === undefined) continue
    assert.equal(sigs.ttl, whole.get(k)!.ttl, `${label(k)}: RRSIG TTL`)
    for (const sig of sigs.rdata) {
      const set: StoredRrset = stored.get(rrsetKey(sigs.ownerKey, coveredType(sig)))!
      const key = dnskeys.find(d => keyTagOf(d) === ((sig[16]! << 8) | sig[17]!))!
      assert.ok(verifyRrsig(parseName(set.ownerName), set.type, set.ttl, set.rdata, sig, key, now), `${label(k)}: the signature over ${set.ownerName} ${set.type} verifies`)
    }
  }
}

const DENIALS = [
  { name: 'NSEC', policy: policyWith({}) },
  { name: 'NSEC3', policy: policyWith({ securityType: 'NSEC3' }) },
  { name: 'NSEC3 Opt-Out', policy: policyWith({ securityType: 'NSEC3_OPT_OUT', nsec3Iterations: 1, nsec3Salt: 'aabb' }) }
]

for (const engine of await engineCases()) {
  for (const denial of DENIALS) {
    describe(`${engine.name}: the local chain step, ${denial.name}`, { skip: engine.skip }, () => {
      let store: Store
      let close: () => Promise<void>
      let zone: Zone
      let alias: Zone

      before(async () => {
        ({ store, close } = await freshStore(engine.name))
        await store.accounts.create('acme')
        zone = await storeZone(store, 'acme', ORIGIN, BASE)
        // An alias of the zone (two labels more than its primary): signed with it, through the same steps.
        alias = await storeZone(store, 'acme', 'mirror.alias.example.', '', { type: 'ALIAS', originalZoneId: zone.id })
        await runDnssec({ store, secrets, clock: () => new Date() }, { zoneId: zone.id, operation: 'SIGN', policy: denial.policy, actor, comment: null })
      })
      after(async () => { await close?.() })

      it('keeps empty non-terminals while a name below them stays, and cuts and their DS in step', async () => {
        const policy = (await store.dnssec.find(zone.id))!.policy
        const steps: Array<[string, number, '+' | '-']> = [
          ['a1.ent.w', RRType.A, '+'], ['a2.ent.w', RRType.TXT, '+'], ['a1.ent.w', RRType.A, '-'], ['a2.ent.w', RRType.TXT, '-'],
          ['d1.ent2', RRType.NS, '+'], ['glue.d1.ent2', RRType.A, '+'], ['d1.ent2', RRType.DS, '+'], ['d1.ent2', RRType.DS, '-'],
          ['d1.ent2', RRType.NS, '-'], ['glue.d1.ent2', RRType.A, '-'], ['e', RRType.NS, '+'], ['e', RRType.DS, '+'], ['e', RRType.NS, '-'], ['e', RRType.DS, '-']
        ]
        for (const [name, type, sign] of steps) {
          await change(store, zone.id, async (tx) => {
            const next = rrset(name, type, 1)
            return [sign === '+' ? { after: next } : { before: (await tx.rrsets.get(zone.id, next.ownerKey, type))! }]
          }, sign === '-')
          await checkAgainstWhole(store, zone.id, policy, `${sign}${name} ${type}`)
        }
      })

      it('scans the names below an empty non-terminal page by page, past delegations and their glue', async () => {
        const policy = (await store.dnssec.find(zone.id))!.policy
        const many: StoredRrset[] = []
        for (let i = 0; i < 30; i++) many.push(rrset(`d${i}.ent3`, RRType.NS, i), rrset(`ns.d${i}.ent3`, RRType.A, i))
        many.push(rrset('s.ent3', RRType.NS, 1), rrset('s.ent3', RRType.DS, 1))
        await change(store, zone.id, async () => many.map(after => ({ after })), false)
        await checkAgainstWhole(store, zone.id, policy, '30 delegations with glue and a secure one below ent3')
        // With Opt-Out, ent3 leads to a member only through s.ent3's DS.
        const ds = rrset('s.ent3', RRType.DS, 1)
        await change(store, zone.id, async () => [{ before: ds }], true)
        await checkAgainstWhole(store, zone.id, policy, 'the DS below ent3 removed')
        await change(store, zone.id, async () => [{ after: ds }], false)
        await checkAgainstWhole(store, zone.id, policy, 'the DS below ent3 back')
        await change(store, zone.id, async () => many.map(before => ({ before })), true)
        await checkAgainstWhole(store, zone.id, policy, 'ent3 emptied')
      })

      it('keeps the stored DNSSEC rrsets equal to the whole signer\'s over random changes, and its alias\'s to the whole signer\'s of the renamed zone', async () => {
        const policy = (await store.dnssec.find(zone.id))!.policy
        await checkAgainstWhole(store, zone.id, policy, 'signed')
        const rnd = random(denial.name.length * 7919 + engine.name.length)
        for (let step = 0; step < 100; step++) {
          const picks = rnd() < 0.3 ? 2 + Math.floor(rnd() * 2) : 1
          const done = new Set<string>()
          const described: string[] = []
          await change(store, zone.id, async (tx) => {
            const out: RrsetChange[] = []
            for (let i = 0; i < picks; i++) {
              const name = NAMES[Math.floor(rnd() * NAMES.length)]!
              const type = TYPES[Math.floor(rnd() * TYPES.length)]!
              const next = rrset(name, type, step)
              if (done.has(rrsetKey(next.ownerKey, type))) continue
              done.add(rrsetKey(next.ownerKey, type))
              const was = await tx.rrsets.get(zone.id, next.ownerKey, type)
              const edit = was !== undefined && rnd() < 0.2
              out.push(was === undefined ? { after: next } : edit ? { before: was, after: next } : { before: was })
              described.push(`${was === undefined ? '+' : edit ? '~' : '-'}${name} ${type}`)
            }
            return out
          }, rnd() < 0.5)
          await checkAgainstWhole(store, zone.id, policy, `step ${step} (${described.join(', ')})`)
          await checkAlias(store, zone, alias, new Date(), secrets)
        }
      })
    })
  }

  describe(`${engine.name}: the local chain step reads the rows near the change`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    const zones: Record<string, Zone> = {}

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      await store.accounts.create('acme')
      let text = BASE
      for (let i = 0; i < 1500; i++) text += `h${i}.g${i % 15} IN A 10.0.${i >> 8}.${i & 255}\n`
      for (const denial of DENIALS) {
        const name = `${denial.name.replace(/\W/g, '').toLowerCase()}.${ORIGIN}`
        zones[denial.name] = await storeZone(store, 'acme', name, text.replaceAll('example.org.', name))
        await runDnssec({ store, secrets, clock: () => new Date() }, { zoneId: zones[denial.name]!.id, operation: 'SIGN', policy: denial.policy, actor, comment: null })
      }
    })
    after(async () => { await close?.() })

    /** The rrsets store with every method's rows counted; reading a whole zone's owners fails. */
    const counted = (rows: { n: number }): ((tx: Store) => Store) => tx => new Proxy(tx, {
      get: (target, prop) => {
        if (prop !== 'rrsets') return Reflect.get(target, prop)
        return new Proxy(target.rrsets, {
          get: (inner, method: keyof RrsetStore) => {
            const fn = Reflect.get(inner, method) as (...args: unknown[]) => Promise<unknown>
            if (typeof fn !== 'function') return fn
            if (method === 'listWire' || method === 'list') return () => { throw new Error(`the step read the whole zone (${method})`) }
            return async (...args: unknown[]) => {
              const out = await fn.apply(inner, args)
              rows.n += Array.isArray(out) ? out.length : 1
              return out
            }
          }
        })
      }
    })

    for (const denial of DENIALS) {
      it(`reads a bounded number of rows for owners and delegations added and removed (${denial.name})`, async () => {
        const z = zones[denial.name]!
        const at = (name: string, type: number): StoredRrset => {
          const r = rrset(name, type, 7)
          const full = `${name}.${z.name}`
          return { ...r, ownerName: full, ownerKey: canonicalSortKey(parseName(full)), rdata: [recordTextToRdata(type, r.rdataText[0]!, parseName(z.name))] }
        }
        const fresh = at('new.deep.g3', RRType.A)
        const cut = at('g4', RRType.NS)
        const steps: Array<{ what: string, c: RrsetChange, bound: number }> = [
          { what: 'owner added', c: { after: fresh }, bound: 40 },
          { what: 'owner removed', c: { before: fresh }, bound: 40 },
          // g4 has 100 owners below: their rrsets, RRSIGs and chain records (NSEC3: 100 hashed
          // owners, each with its predecessor and signatures) are read, not the zone's 1,500 owners.
          { what: 'delegation added', c: { after: cut }, bound: 800 },
          { what: 'delegation removed', c: { before: cut }, bound: 800 }
        ]
        for (const s of steps) {
          const rows = { n: 0 }
          await change(store, z.id, async () => [s.c], false, counted(rows))
          assert.ok(rows.n <= s.bound, `${s.what}: ${rows.n} rows read, at most ${s.bound} expected`)
        }
        await checkAgainstWhole(store, z.id, (await store.dnssec.find(z.id))!.policy, 'after the bounded steps', parseName(z.name))
      })
    }
  })
}
