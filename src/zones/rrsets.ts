import { ZonalError } from '../errors/catalog.ts'
import type { RrsetFilter, RrsetKinds, RrsetSort, ShownRrset } from '../store/store.ts'
import { canonicalSortKey, nameToString, parseName, type WireName } from '../zone/name.ts'
import type { PoolProfile } from '../zone/pools/profile.ts'
import { typeLabel } from '../zone/rdata/index.ts'
import { renameUnder } from '../zone/rename.ts'
import { zoneFor, zoneNameFrom, type Caller, type ZoneDeps } from './context.ts'
import { ANY, ownerFrom, rrtypeFrom } from './rrset-input.ts'
import { DNSSEC_TYPES } from './dnssec/types.ts'

export { createRrset, deleteRrset, jsonPatchRrset, updateRrset } from './rrset-write.ts'

/** What a list asks for besides the path: the `q` terms, the order and the page. */
export interface RrsetQuery {
  /** `q=ttl:` exact TTL. */
  ttl?: number
  /** `q=owner:` substring of the absolute owner name, any case. */
  owner?: string
  /** `q=value:` substring of the rdata, any case. */
  value?: string
  /** `q=kind:`; undefined for ALL. */
  kinds?: RrsetKinds
  sort: RrsetSort
  reverse: boolean
  offset: number
  limit: number
}

/** One rrset as a list shows it (reference notes §7): absolute owner, `A (1)`, rdata strings; the API writes the profile. */
export interface RrsetDto {
  ownerName: string
  rrtype: string
  ttl: number
  rdata: string[]
  profile?: PoolProfile
}

export interface RrsetPage {
  zoneName: string
  rrSets: RrsetDto[]
  totalCount: number
}

/** Where a list reads: the zone's own rrsets, or an alias's primary's (owners moved back on output). */
interface Source {
  zoneId: string
  /** The origin of the stored names, and the origin the caller sees. */
  stored: WireName
  shown: WireName
}

/** The DTO of an rrset read from `source` (without one: read from the zone the caller named). */
function dtoOf (r: ShownRrset, source?: Source): RrsetDto {
  const ownerName = source === undefined || source.stored === source.shown ? r.ownerName : nameToString(renameUnder(parseName(r.ownerName), source.stored, source.shown))
  return {
    ownerName,
    rrtype: typeLabel(r.type),
    ttl: r.ttl,
    rdata: r.rdataText,
    ...(r.profile === null ? {} : { profile: r.profile })
  }
}

/**
 * `GET /zones/{zoneName}/rrsets[/{rrType}[/{ownerName}]]`: one page of the zone's rrsets in the
 * asked order. `rrType` is a name, number, `A (1)` or `ANY`; `ownerName` relative, absolute or
 * `@`. An alias zone lists its primary's rrsets with the owners moved under the alias.
 *
 * Nothing found: `…/{rrType}` and `…/{rrType}/{ownerName}` answer 404 70002 like the real API
 * (terraform reads a 404 as "gone"); the zone-wide list answers an empty page, since the zone
 * exists and the query was valid (the zone list does the same). By type and owner the list holds
 * exactly one rrset, as the Go SDK and terraform require.
 *
 * @throws ZonalError ZONE_NOT_FOUND (1801), INVALID_INPUT (53005: type, owner), RRSET_NOT_FOUND (70002)
 */
export async function listRrsets (deps: ZoneDeps, caller: Caller, path: { zoneName: string, rrType?: string, ownerName?: string }, query: RrsetQuery): Promise<RrsetPage> {
  const fast = await pageOfZone(deps, caller, path, query)
  if (fast !== undefined) return fast
  const zone = await zoneFor(deps, caller, path.zoneName, 'read')
  const shown = parseName(zone.name)
  let source: Source = { zoneId: zone.id, stored: shown, shown }
  let owner = query.owner
  if (zone.zone_type === 'ALIAS' && zone.original_zone_id !== null) {
    const primary = await deps.store.zones.findById(zone.original_zone_id)
    if (primary === undefined) throw new ZonalError('ZONE_NOT_FOUND')
    source = { zoneId: primary.id, stored: parseName(primary.name), shown }
    // Owner names are stored under the primary: search for them there.
    owner = owner?.toLowerCase().replaceAll(zone.name.slice(0, -1), primary.name.slice(0, -1))
  }
  const type = path.rrType === undefined ? undefined : rrtypeFrom(path.rrType)
  const filter: RrsetFilter = {
    zoneId: source.zoneId,
    ...(type === undefined || type === ANY ? {} : { type }),
    ...(path.ownerName === undefined ? {} : { ownerKey: canonicalSortKey(renameUnder(ownerFrom(path.ownerName, shown), shown, source.stored)) }),
    ...(query.ttl === undefined ? {} : { ttl: query.ttl }),
    ...(owner === undefined ? {} : { ownerSubstring: owner }),
    ...(query.value === undefined ? {} : { valueSubstring: query.value }),
    ...(query.kinds === undefined ? {} : { kinds: query.kinds }),
    hiddenWhenSigned: DNSSEC_TYPES
  }
  const rows = await deps.store.rrsets.listPage({ ...filter, sort: query.sort, reverse: query.reverse, offset: query.offset, limit: query.limit })
  // A short page that starts at the list's beginning, or holds rows, is the end: no count needed.
  const totalCount = rows.length < query.limit && (rows.length > 0 || query.offset === 0)
    ? query.offset + rows.length
    : await deps.store.rrsets.countPage(filter)
  if (totalCount === 0 && (path.rrType !== undefined || path.ownerName !== undefined)) throw new ZonalError('RRSET_NOT_FOUND')
  return { zoneName: zone.name, rrSets: rows.map(r => dtoOf(r, source)), totalCount }
}

/**
 * The usual case of {@link listRrsets} in one statement (`rrsets.pageOfZone`: the zone by name in
 * the caller's read scope, the page and its count): a zone that is not an alias, a valid path,
 * and a page with rows. Undefined otherwise, and {@link listRrsets} goes the long way, which
 * tells a missing zone (1801) from an alias, an invalid type or owner (53005, after the zone) and
 * a page with no rows (70002, or an empty page with its count).
 */
async function pageOfZone (deps: ZoneDeps, caller: Caller, path: { zoneName: string, rrType?: string, ownerName?: string }, query: RrsetQuery): Promise<RrsetPage | undefined> {
  let zoneName: string
  let filter: Omit<RrsetFilter, 'zoneId'>
  try {
    zoneName = zoneNameFrom(path.zoneName)
    const origin = parseName(zoneName)
    const type = path.rrType === undefined ? undefined : rrtypeFrom(path.rrType)
    filter = {
      ...(type === undefined || type === ANY ? {} : { type }),
      ...(path.ownerName === undefined ? {} : { ownerKey: canonicalSortKey(ownerFrom(path.ownerName, origin)) }),
      ...(query.ttl === undefined ? {} : { ttl: query.ttl }),
      ...(query.owner === undefined ? {} : { ownerSubstring: query.owner }),
      ...(query.value === undefined ? {} : { valueSubstring: query.value }),
      ...(query.kinds === undefined ? {} : { kinds: query.kinds }),
      hiddenWhenSigned: DNSSEC_TYPES
    }
  } catch (err) {
    // Reported the long way, after the zone's own errors.
    if (err instanceof ZonalError) return undefined
    throw err
  }
  const page = await deps.store.rrsets.pageOfZone(zoneName, caller.principal.scope('read'), { ...filter, sort: query.sort, reverse: query.reverse, offset: query.offset, limit: query.limit })
  if (page === undefined) return undefined
  return {
    zoneName,
    rrSets: page.rrsets.map(r => dtoOf(r)),
    totalCount: page.total
  }
}
