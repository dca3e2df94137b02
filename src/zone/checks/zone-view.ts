import { isSubdomain, nameToString, wireKey, type WireName } from '../name.ts'
import type { ZoneProblem, ZoneRecord } from '../record.ts'
import { checkProblem } from './problem.ts'

/** The records at one owner name, by type. */
export interface OwnerNode {
  owner: WireName
  types: Map<number, ZoneRecord[]>
}

/** A zone's records grouped by owner (case-insensitively) and type, for the checks. */
export interface ZoneView {
  origin: WireName
  originKey: string
  owners: Map<string, OwnerNode>
  /** Records whose owner is outside the zone; they are not in `owners`. */
  outOfZone: ZoneRecord[]
}

/** Group records by owner and type; records outside the zone go to `outOfZone`. */
export function buildZoneView (records: Iterable<ZoneRecord>, origin: WireName): ZoneView {
  const owners = new Map<string, OwnerNode>()
  const outOfZone: ZoneRecord[] = []
  for (const r of records) {
    if (!isSubdomain(r.owner, origin)) {
      outOfZone.push(r)
      continue
    }
    const key = wireKey(r.owner)
    let node = owners.get(key)
    if (node === undefined) {
      node = { owner: r.owner, types: new Map() }
      owners.set(key, node)
    }
    const list = node.types.get(r.type)
    if (list === undefined) node.types.set(r.type, [r])
    else list.push(r)
  }
  return { origin, originKey: wireKey(origin), owners, outOfZone }
}

export function outOfZoneProblems (view: ZoneView): ZoneProblem[] {
  return view.outOfZone.map(r => checkProblem('ZONE_OUT_OF_ZONE', nameToString(r.owner), `not under ${nameToString(view.origin)}`, r.line))
}
