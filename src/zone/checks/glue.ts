import { isSubdomain, nameToString, wireKey } from '../name.ts'
import type { ZoneProblem } from '../record.ts'
import { checkProblem } from './problem.ts'
import type { ZoneView } from './zone-view.ts'

const NS = 2
const A = 1
const AAAA = 28

/**
 * Every name server inside the zone, at the apex or at a delegation, needs A or AAAA records in
 * the zone (glue below a delegation, RFC 1034 §4.2.1; BIND refuses such zones too).
 */
export function checkGlue (view: ZoneView): ZoneProblem[] {
  const problems: ZoneProblem[] = []
  const reported = new Set<string>()
  for (const node of view.owners.values()) {
    for (const ns of node.types.get(NS) ?? []) {
      const target = ns.rdata
      if (!isSubdomain(target, view.origin)) continue
      const key = wireKey(target)
      if (reported.has(key)) continue
      const types = view.owners.get(key)?.types
      if (types?.has(A) === true || types?.has(AAAA) === true) continue
      reported.add(key)
      problems.push(checkProblem('ZONE_GLUE_MISSING', nameToString(node.owner), `NS ${nameToString(target)} has no A or AAAA record`, ns.line))
    }
  }
  return problems
}
