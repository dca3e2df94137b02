import { canonicalOrderKey, isSubdomain, nameEquals, wireKey, type WireName } from '../name.ts'
import { RRType } from '../rrtype.ts'

/**
 * What each owner of a zone is for DNSSEC (RFC 4035 §2.2, RFC 4034 §4.1): the apex, an
 * authoritative name, a delegation point (NS below the apex: only its DS and the denial record
 * there are authoritative), or an occluded name below a delegation (glue and anything else
 * beneath the cut: neither signed nor in the denial chain).
 */
export type NameRole = 'apex' | 'authoritative' | 'delegation' | 'occluded'

/** The types the signer makes itself; they are never taken from the zone's own records. */
export const DNSSEC_TYPES: ReadonlySet<number> = new Set([RRType.DNSKEY, RRType.RRSIG, RRType.NSEC, RRType.NSEC3, RRType.NSEC3PARAM])

/** An owner of the zone with its types (DNSSEC types removed), its role and its canonical sort key. */
export interface ZoneName {
  owner: WireName
  /** Distinct types in increasing order, none of {@link DNSSEC_TYPES}. */
  types: number[]
  role: NameRole
  /** {@link canonicalOrderKey} of the owner: plain string order is RFC 4034 §6.1 order. */
  order: string
}

/**
 * The zone's owners in canonical order (RFC 4034 §6.1), merged without regard to case, each
 * with its role. Owners outside the zone and owners left without types are dropped.
 *
 * @param origin - the zone apex
 * @param names - owners with their types, in any order, possibly repeated
 */
export function zoneNames (origin: WireName, names: ReadonlyArray<{ owner: WireName, types: readonly number[] }>): ZoneName[] {
  const byKey = new Map<string, ZoneName>()
  for (const { owner, types } of names) {
    if (!isSubdomain(owner, origin)) continue
    const key = wireKey(owner)
    let entry = byKey.get(key)
    if (entry === undefined) {
      entry = { owner, types: [], role: 'authoritative', order: '' }
      byKey.set(key, entry)
    }
    for (const t of types) if (!DNSSEC_TYPES.has(t)) entry.types.push(t)
  }
  const out: ZoneName[] = []
  for (const entry of byKey.values()) {
    if (entry.types.length === 0) continue
    entry.types = [...new Set(entry.types)].sort((a, b) => a - b)
    entry.order = canonicalOrderKey(entry.owner)
    out.push(entry)
  }
  out.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
  // In canonical order a name's descendants follow it directly, so one open cut is enough.
  let cut: WireName | undefined
  for (const n of out) {
    if (cut !== undefined && isSubdomain(n.owner, cut)) {
      n.role = 'occluded'
      continue
    }
    cut = undefined
    if (nameEquals(n.owner, origin)) {
      n.role = 'apex'
    } else if (n.types.includes(RRType.NS)) {
      n.role = 'delegation'
      cut = n.owner
    }
  }
  return out
}
