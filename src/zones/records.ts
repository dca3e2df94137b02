import { canonicalSortKey, nameToString, parseName, type WireName } from '../zone/name.ts'
import { rdataToRecordText } from '../zone/record-text.ts'
import type { ZoneRecord } from '../zone/record.ts'
import type { Store, StoredRrset } from '../store/store.ts'

/**
 * Group records (in canonical order, as `normalizeZone` returns them) into stored rrsets: one per
 * owner and type, with wire rdata and its record text (`zone/record-text.ts`).
 */
export function toStoredRrsets (records: readonly ZoneRecord[]): StoredRrset[] {
  const out: StoredRrset[] = []
  let current: StoredRrset | undefined
  let lastOwner: WireName | undefined
  let lastKey = ''
  for (const r of records) {
    if (r.owner !== lastOwner) {
      lastOwner = r.owner
      lastKey = canonicalSortKey(r.owner)
    }
    if (current === undefined || current.ownerKey !== lastKey || current.type !== r.type) {
      current = { ownerKey: lastKey, ownerName: nameToString(r.owner), type: r.type, ttl: r.ttl, rdata: [], rdataText: [], profile: null }
      out.push(current)
    }
    current.rdata.push(r.rdata)
    current.rdataText.push(rdataToRecordText(r.type, r.rdata))
  }
  return out
}

/** Every record of a zone, read page by page in canonical order. */
export async function * readZoneRecords (store: Store, zoneId: string, pageSize = 1000): AsyncGenerator<ZoneRecord> {
  let after: { ownerKey: string, type: number } | undefined
  while (true) {
    const page = await store.rrsets.listWire(zoneId, pageSize, after)
    for (const rrset of page) {
      const owner = parseName(rrset.ownerName)
      for (const rdata of rrset.rdata) yield { owner, type: rrset.type, ttl: rrset.ttl, rdata }
    }
    if (page.length < pageSize) return
    const last = page[page.length - 1]!
    after = { ownerKey: last.ownerKey, type: last.type }
  }
}

export function countRecords (records: readonly StoredRrset[]): number {
  let n = 0
  for (const r of records) n += r.rdata.length
  return n
}
