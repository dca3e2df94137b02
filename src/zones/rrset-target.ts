import type { Permission } from '../auth/permissions.ts'
import type { ZoneWithAccount } from '../store/store.ts'
import { canonicalSortKey, nameToString, parseName, type WireName } from '../zone/name.ts'
import { zoneFor, type Caller, type ZoneDeps } from './context.ts'
import { ownerFrom, writableRrtype } from './rrset-input.ts'

/** The rrset a write names: its zone (as the caller sees it), owner and type. */
export interface RrsetTarget {
  zone: ZoneWithAccount
  /** The zone's apex. */
  origin: WireName
  owner: WireName
  /** The store's key of the owner (canonical order). */
  ownerKey: string
  /** Absolute owner name with the trailing dot, as the API shows it. */
  ownerName: string
  type: number
}

/**
 * Resolve `/zones/{zoneName}/rrsets/{rrType}/{ownerName}` for a write: the zone first (1801 when
 * the caller cannot see it, 403 without `permission`), then the type and the owner.
 *
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, ZONE_NAME_INVALID, INVALID_INPUT
 */
export async function rrsetTarget (deps: ZoneDeps, caller: Caller, path: { zoneName: string, rrType: string, ownerName: string, permission: Permission }): Promise<RrsetTarget> {
  const zone = await zoneFor(deps, caller, path.zoneName, path.permission)
  const origin = parseName(zone.name)
  const type = writableRrtype(path.rrType)
  const owner = ownerFrom(path.ownerName, origin)
  return { zone, origin, owner, ownerKey: canonicalSortKey(owner), ownerName: nameToString(owner), type }
}
