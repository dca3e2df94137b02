import { nameToString } from '../name.ts'
import type { ZoneProblem } from '../record.ts'
import { checkProblem } from './problem.ts'
import type { ZoneView } from './zone-view.ts'

const SOA = 6

/** RFC 1035 §5.2: exactly one SOA, at the apex. */
export function checkSoa (view: ZoneView): ZoneProblem[] {
  const problems: ZoneProblem[] = []
  const apex = nameToString(view.origin)
  const atApex = view.owners.get(view.originKey)?.types.get(SOA) ?? []
  if (atApex.length === 0) problems.push(checkProblem('ZONE_SOA_MISSING', apex))
  if (atApex.length > 1) problems.push(checkProblem('ZONE_SOA_MULTIPLE', apex, `${atApex.length} SOA records`, atApex[1]!.line))
  for (const [key, node] of view.owners) {
    if (key === view.originKey) continue
    for (const r of node.types.get(SOA) ?? []) problems.push(checkProblem('ZONE_SOA_NOT_AT_APEX', nameToString(node.owner), undefined, r.line))
  }
  return problems
}
