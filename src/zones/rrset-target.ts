import type { ZoneWithAccount } from '../store/store.ts'
import { canonicalSortKey, nameToString, parseName, type WireName } from '../zone/name.ts'
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

/** The path of an rrset write. */
export interface RrsetPath {
  zoneName: string
  rrType: string
  ownerName: string
}

/**
 * Resolve the type and owner of `/zones/{zoneName}/rrsets/{rrType}/{ownerName}` in its zone,
 * which the caller looked up (and checked its permission on) first.
 *
 * @throws ZonalError INVALID_INPUT (type, owner)
 */
export function targetIn (zone: ZoneWithAccount, path: RrsetPath): RrsetTarget {
  const origin = parseName(zone.name)
  const type = writableRrtype(path.rrType)
  const owner = ownerFrom(path.ownerName, origin)
  return { zone, origin, owner, ownerKey: canonicalSortKey(owner), ownerName: nameToString(owner), type }
}
