import { ZonalError } from '../../errors/catalog.ts'
import { poolComment } from '../../zone/pools/index.ts'
import type { Store, WireRrset, ZoneWithAccount } from '../../store/store.ts'
import { compareBytes } from '../../zone/checks/sort.ts'
import { nameToString, parseName, wireKey, type WireName } from '../../zone/name.ts'
import { renameRecord, renameUnder } from '../../zone/rename.ts'
import type { ZoneRecord } from '../../zone/record.ts'
import { zoneHeader, ZoneTextWriter } from '../../zonefile/writer.ts'

/** Rrsets read per query: a zone of any size is read in pages, never in one query. */
export const EXPORT_PAGE_SIZE = 1000

/** The records of one stored rrset, rdata in canonical (octet) order. */
function recordsOf (rrset: WireRrset, owner: WireName): ZoneRecord[] {
  return [...rrset.rdata].sort(compareBytes).map(rdata => ({ owner, type: rrset.type, ttl: rrset.ttl, rdata }))
}

/**
 * A zone as BIND text (zonefile writer: header comments with creation time and record count,
 * `$ORIGIN`, SOA, apex NS, then the other records in canonical order, pool rrsets preceded by a
 * comment naming the pool). The rrsets are read `EXPORT_PAGE_SIZE` at a time in canonical order.
 * An alias zone is written as its primary's records with the owners moved under the alias name
 * (names inside rdata are kept as they are).
 *
 * @param signal checked between pages; an aborted export stops with its reason.
 * @throws ZonalError ZONE_NOT_FOUND when an alias's primary no longer exists.
 */
export async function storedZoneText (store: Store, zone: ZoneWithAccount, createdAt: Date, signal?: AbortSignal): Promise<string> {
  let source: { id: string, name: string } = zone
  if (zone.zone_type === 'ALIAS' && zone.original_zone_id !== null) {
    const primary = await store.zones.findById(zone.original_zone_id)
    if (primary === undefined) throw new ZonalError('ZONE_NOT_FOUND')
    source = primary
  }
  const origin = parseName(zone.name)
  const sourceOrigin = parseName(source.name)
  const aliased = source !== zone
  const pools = new Map<string, string>()
  const writer = new ZoneTextWriter({ origin, poolComment: (owner, type) => pools.get(`${wireKey(owner)}/${type}`) })
  const body: string[] = []
  let after: { ownerKey: string, type: number } | undefined
  for (;;) {
    signal?.throwIfAborted()
    const page = await store.rrsets.listWire(source.id, EXPORT_PAGE_SIZE, after)
    const records: ZoneRecord[] = []
    for (const rrset of page) {
      const stored = parseName(rrset.ownerName)
      // An alias exports its primary's data moved under the alias name, rdata names included.
      const owner = aliased ? renameUnder(stored, sourceOrigin, origin) : stored
      if (rrset.profile !== null) pools.set(`${wireKey(owner)}/${rrset.type}`, poolComment(rrset.profile, nameToString(owner)))
      for (const r of recordsOf(rrset, stored)) records.push(aliased ? renameRecord(r, sourceOrigin, origin) : r)
    }
    body.push(writer.push(records))
    if (page.length < EXPORT_PAGE_SIZE) break
    const last = page[page.length - 1]!
    after = { ownerKey: last.ownerKey, type: last.type }
  }
  body.push(writer.end())
  return zoneHeader(origin, createdAt, writer.count) + body.join('')
}
