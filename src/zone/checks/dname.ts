import { nameToString, parentName, wireKey } from '../name.ts'
import type { ZoneProblem } from '../record.ts'
import { checkProblem } from './problem.ts'
import type { ZoneView } from './zone-view.ts'

const DNAME = 39

/** RFC 6672 §2.3: no data below a DNAME owner (it would never be reached). */
export function checkDname (view: ZoneView): ZoneProblem[] {
  const dnameOwners = new Set<string>()
  for (const [key, node] of view.owners) if (node.types.has(DNAME)) dnameOwners.add(key)
  if (dnameOwners.size === 0) return []
  const flagged = new Map<string, string>()
  for (const node of view.owners.values()) {
    let up = parentName(node.owner)
    while (up.length > 1 && up.length >= view.origin.length) {
      const key = wireKey(up)
      if (dnameOwners.has(key) && !flagged.has(key)) flagged.set(key, nameToString(node.owner))
      if (key === view.originKey) break
      up = parentName(up)
    }
  }
  const problems: ZoneProblem[] = []
  for (const [key, child] of flagged) {
    const node = view.owners.get(key)!
    problems.push(checkProblem('ZONE_DNAME_WITH_CHILDREN', nameToString(node.owner), `for example ${child}`, node.types.get(DNAME)![0]!.line))
  }
  return problems
}
