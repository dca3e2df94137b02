import assert from 'node:assert/strict'
import type { SecretBox } from '../../src/auth/secrets.ts'
import type { Store, Zone } from '../../src/store/store.ts'
import { keyTagOf } from '../../src/zone/dnssec/keys.ts'
import { verifyRrsig } from '../../src/zone/dnssec/sign.ts'
import { signZone } from '../../src/zone/dnssec/zone-signer.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'
import { renameRecord } from '../../src/zone/rename.ts'
import type { ZoneRecord } from '../../src/zone/record.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { openKey } from '../../src/zones/dnssec/keyring.ts'
import { coveredType, signingKeysOf, signingPolicyOf } from '../../src/zones/dnssec/signing.ts'
import { isDnssecType } from '../../src/zones/dnssec/types.ts'
import { readZoneRecords } from '../../src/zones/records.ts'

/** Every record the store holds for a zone, DNSSEC records included. */
export async function storedRecords (store: Store, zoneId: string): Promise<ZoneRecord[]> {
  const out: ZoneRecord[] = []
  for await (const r of readZoneRecords(store, zoneId)) out.push(r)
  return out
}

/**
 * Every RRSIG of a stored zone verifies at `now` over its rrset with the DNSKEY of its key tag;
 * returns the RRSIGs.
 */
export async function checkSignatures (store: Store, zoneId: string, now: Date): Promise<Uint8Array[]> {
  const all = await storedRecords(store, zoneId)
  const sets = new Map<string, ZoneRecord[]>()
  for (const r of all) {
    const k = `${wireKey(r.owner)}/${r.type}`
    sets.set(k, [...(sets.get(k) ?? []), r])
  }
  const dnskeys = all.filter(r => r.type === RRType.DNSKEY).map(r => r.rdata)
  const sigs = all.filter(r => r.type === RRType.RRSIG)
  for (const sig of sigs) {
    const covered = sets.get(`${wireKey(sig.owner)}/${coveredType(sig.rdata)}`)
    assert.ok(covered !== undefined, `a signature over type ${coveredType(sig.rdata)} covers an rrset the zone holds`)
    const tag = (sig.rdata[16]! << 8) | sig.rdata[17]!
    const key = dnskeys.find(d => keyTagOf(d) === tag)
    assert.ok(key !== undefined, `the key ${tag} of a signature is published`)
    assert.ok(verifyRrsig(sig.owner, coveredType(sig.rdata), covered[0]!.ttl, covered.map(r => r.rdata), sig.rdata, key, Math.floor(now.getTime() / 1000)), `a signature over type ${coveredType(sig.rdata)} verifies`)
  }
  return sigs.map(s => s.rdata)
}

/** The alias as zone-sync serves it: the primary's records but DNSSEC ones, renamed, and the alias's own rows. */
export async function servedAlias (store: Store, primary: Zone, alias: Zone): Promise<{ renamed: ZoneRecord[], own: ZoneRecord[] }> {
  const from = parseName(primary.name)
  const to = parseName(alias.name)
  const renamed = (await storedRecords(store, primary.id)).filter(r => !isDnssecType(r.type)).map(r => renameRecord(r, from, to))
  return { renamed, own: await storedRecords(store, alias.id) }
}

const text = (r: ZoneRecord): string => `${wireKey(r.owner)} ${r.type} ${r.ttl} ${Buffer.from(r.rdata).toString('hex')}`
const CHAIN = new Set<number>([RRType.NSEC, RRType.NSEC3, RRType.NSEC3PARAM, RRType.DNSKEY])

/**
 * The alias checked: only DNSSEC rows, every RRSIG valid at `now` over its served rrset, the
 * DNSKEY rrset and chain those `signZone` makes of the renamed zone with the primary's keys;
 * every authoritative rrset signed. Returns its rows.
 */
export async function checkAlias (store: Store, primary: Zone, alias: Zone, now: Date, secrets: SecretBox): Promise<ZoneRecord[]> {
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
