import assert from 'node:assert/strict'
import type { Store } from '../../src/store/store.ts'
import { keyTagOf } from '../../src/zone/dnssec/keys.ts'
import { verifyRrsig } from '../../src/zone/dnssec/sign.ts'
import { wireKey } from '../../src/zone/name.ts'
import type { ZoneRecord } from '../../src/zone/record.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { coveredType } from '../../src/zones/dnssec/signing.ts'
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
