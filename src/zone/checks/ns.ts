import { nameToString } from '../name.ts'
import type { ZoneProblem } from '../record.ts'
import { checkProblem } from './problem.ts'
import type { ZoneView } from './zone-view.ts'

const NS = 2

/** RFC 1034 §4.2.1: the apex carries the zone's NS rrset. */
export function checkApexNs (view: ZoneView): ZoneProblem[] {
  const ns = view.owners.get(view.originKey)?.types.get(NS) ?? []
  return ns.length === 0 ? [checkProblem('ZONE_NS_MISSING', nameToString(view.origin))] : []
}
