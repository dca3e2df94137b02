import type { Store, Zone } from '../../src/store/store.ts'
import { canonicalSortKey, parseName } from '../../src/zone/name.ts'
import { recordTextToRdata as parseRdata } from '../../src/zone/record-text.ts'
import type { ZoneRecord } from '../../src/zone/record.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { toStoredRrsets } from '../../src/zones/records.ts'

/** A zone of `n` records for the DNSSEC benchmarks: SOA, NS and its glue, then A records at `h<i>.g<i % 1000>`, in canonical order. */
export function benchZoneRecords (origin: string, n: number): ZoneRecord[] {
  const apex = parseName(origin)
  const rec = (owner: string, type: number, text: string): ZoneRecord => ({ owner: parseName(owner, apex), type, ttl: 3600, rdata: parseRdata(type, text, apex) })
  const out = [rec('@', RRType.SOA, 'ns1 hostmaster 2026010101 3600 900 604800 300'), rec('@', RRType.NS, 'ns1'), rec('ns1', RRType.A, '192.0.2.1')]
  for (let i = 0; out.length < n; i++) out.push(rec(`h${i}.g${i % 1000}`, RRType.A, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`))
  return out.sort((a, b) => canonicalSortKey(a.owner) < canonicalSortKey(b.owner) ? -1 : 1)
}

/** {@link benchZoneRecords} stored as a primary zone of a new account `account`, in one transaction. */
export async function storeBenchZone (store: Store, account: string, origin: string, n: number): Promise<Zone> {
  const owner = await store.accounts.create(account)
  const rrsets = toStoredRrsets(benchZoneRecords(origin, n))
  return await store.transaction(async (tx) => {
    const z = await tx.zones.create({ accountId: owner.id, accountNameKey: owner.name_key, name: origin, type: 'PRIMARY' })
    await tx.rrsets.insertMany(z.id, rrsets)
    return await tx.zones.update(z.id, { record_count: n })
  })
}
