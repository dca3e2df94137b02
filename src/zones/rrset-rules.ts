import { ZonalError } from '../errors/catalog.ts'
import type { Store, ZoneWithAccount } from '../store/store.ts'
import { checkProblem, type CheckCode } from '../zone/checks/problem.ts'
import { canonicalSortKey, nameEquals, nameToString, parentName, type WireName } from '../zone/name.ts'
import { RRType, typeName } from '../zone/rrtype.ts'

/**
 * The zone rules an rrset change must keep, checked against the stored zone with index lookups
 * only (the rules of `zone/checks/`, which judge whole zone files, applied to one rrset).
 */

/** RFC 4035 §2.5: RRSIG and NSEC may stand beside a CNAME. */
const ALLOWED_BESIDE_CNAME = new Set<number>([RRType.CNAME, RRType.RRSIG, RRType.NSEC])

/**
 * Refuse changes of zones whose data is not edited here: an alias shows its primary's data
 * (230000), a secondary's data comes from its primary name servers, a suspended zone is frozen.
 *
 * @throws ZonalError ZONE_IS_ALIAS (230000), ZONE_IS_SECONDARY (53001), ZONE_SUSPENDED (1813)
 */
export function checkWritable (zone: ZoneWithAccount): void {
  if (zone.zone_type === 'ALIAS') throw new ZonalError('ZONE_IS_ALIAS')
  if (zone.zone_type === 'SECONDARY') throw new ZonalError('ZONE_IS_SECONDARY', zone.name)
  if (zone.status === 'SUSPENDED') throw new ZonalError('ZONE_SUSPENDED')
}

/** A zone rule broken, in the words of the zone checks: `Invalid input: ZONE_…: <owner>: <text>: <detail>`. */
function broken (code: CheckCode, owner: WireName, detail?: string): ZonalError {
  const problem = checkProblem(code, nameToString(owner), detail)
  return new ZonalError('INVALID_INPUT', `${problem.code}: ${problem.message}`)
}

const mnemonics = (types: readonly number[]): string => types.map(typeName).join(', ')

/** Where an rrset of `type` with `count` records goes: `owner` in the zone of apex `origin`. */
export interface Placement {
  zoneId: string
  origin: WireName
  owner: WireName
  ownerKey: string
  type: number
  count: number
}

/**
 * Check that an rrset may be written (created or replaced) at its place:
 * - SOA only at the apex, one record (RFC 1035 §5.2);
 * - a CNAME never at the apex, one record, and never beside other data; no other data beside a
 *   CNAME (RFC 1034 §3.6.2, RFC 2181 §10.1; RRSIG and NSEC excepted, RFC 4035 §2.5);
 * - nothing below a RRType.DNAME, and no DNAME above existing names (RFC 6672);
 * - no DS at the apex (RFC 4034 §5: it belongs in the parent zone).
 *
 * @throws ZonalError INVALID_INPUT with the zone check code (`ZONE_CNAME_WITH_OTHER_DATA` …)
 */
/** The owner keys of the names above the owner up to the apex (where no DNAME may be). */
export function keysAbove (p: Pick<Placement, 'origin' | 'owner'>): string[] {
  const above: string[] = []
  for (let up = p.owner; !nameEquals(up, p.origin);) {
    up = parentName(up)
    above.push(canonicalSortKey(up))
  }
  return above
}

/**
 * {@link checkPlacement}; `known` is what `rrsets.placement` gives for the owner and
 * {@link keysAbove}, when the caller read it in this transaction already.
 */
export async function checkPlacement (tx: Store, p: Placement, known?: { types: number[], dnames: Set<string> }): Promise<void> {
  const apex = nameEquals(p.owner, p.origin)
  if (p.type === RRType.SOA) {
    if (!apex) throw broken('ZONE_SOA_NOT_AT_APEX', p.owner)
    if (p.count !== 1) throw broken('ZONE_SOA_MULTIPLE', p.owner, `${p.count} SOA records`)
  }
  // RFC 4034 §5: the DS of a zone lives in its parent, at the delegation.
  if (p.type === RRType.DS && apex) throw broken('ZONE_DS_AT_APEX', p.owner)
  if (p.type === RRType.CNAME) {
    if (apex) throw broken('ZONE_CNAME_AT_APEX', p.owner)
    if (p.count > 1) throw broken('ZONE_CNAME_MULTIPLE', p.owner, `${p.count} CNAME records`)
  }
  const needTypes = !ALLOWED_BESIDE_CNAME.has(p.type) || p.type === RRType.CNAME
  // The names above the owner up to the apex: none may hold a DNAME.
  const above: WireName[] = []
  for (let up = p.owner; !nameEquals(up, p.origin);) {
    up = parentName(up)
    above.push(up)
  }
  // The types at the owner and the DNAMEs above it: one statement.
  const { types, dnames } = known ?? (needTypes || above.length > 0
    ? await tx.rrsets.placement(p.zoneId, p.ownerKey, above.map(canonicalSortKey))
    : { types: [], dnames: new Set<string>() })
  if (needTypes) {
    const others = types.filter(t => t !== p.type)
    if (p.type === RRType.CNAME) {
      const beside = others.filter(t => !ALLOWED_BESIDE_CNAME.has(t))
      if (beside.length > 0) throw broken('ZONE_CNAME_WITH_OTHER_DATA', p.owner, `also has ${mnemonics(beside)}`)
    } else if (others.includes(RRType.CNAME)) {
      throw broken('ZONE_CNAME_WITH_OTHER_DATA', p.owner, `has a CNAME, so ${typeName(p.type)} cannot be added`)
    }
  }
  if (p.type === RRType.DNAME && await tx.rrsets.hasBelow(p.zoneId, p.ownerKey)) {
    throw broken('ZONE_DNAME_WITH_CHILDREN', p.owner, 'names exist below it')
  }
  const dname = above.find(up => dnames.has(canonicalSortKey(up)))
  if (dname !== undefined) throw broken('ZONE_DNAME_WITH_CHILDREN', dname, `${nameToString(p.owner)} would lie below it`)
}

/**
 * Check that an rrset may be deleted: never the SOA (RFC 1035 §5.2: a zone has exactly one) nor
 * the apex NS rrset (RFC 1034 §4.2.1: the apex carries the zone's NS records).
 *
 * @throws ZonalError INVALID_INPUT naming the rule.
 */
export function checkDeletable (origin: WireName, owner: WireName, type: number): void {
  if (type === RRType.SOA) throw new ZonalError('INVALID_INPUT', `the SOA rrset of ${nameToString(origin)} cannot be deleted (RFC 1035 §5.2: a zone has exactly one SOA record)`)
  if (type === RRType.NS && nameEquals(owner, origin)) {
    throw new ZonalError('INVALID_INPUT', `the apex NS rrset of ${nameToString(origin)} cannot be deleted (RFC 1034 §4.2.1: the apex carries the zone's NS records); replace it with PUT instead`)
  }
}
