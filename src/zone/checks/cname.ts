import { nameToString } from '../name.ts'
import type { ZoneProblem } from '../record.ts'
import { checkProblem } from './problem.ts'
import type { ZoneView } from './zone-view.ts'

const CNAME = 5
/** RFC 4035 §2.5: RRSIG and NSEC may stand beside a CNAME. */
const ALLOWED_BESIDE_CNAME = new Set([CNAME, 46, 47])

/** RFC 1034 §3.6.2 and RFC 2181 §10.1: a CNAME stands alone, once, and never at the apex. */
export function checkCname (view: ZoneView): ZoneProblem[] {
  const problems: ZoneProblem[] = []
  for (const [key, node] of view.owners) {
    const cnames = node.types.get(CNAME)
    if (cnames === undefined) continue
    const owner = nameToString(node.owner)
    const line = cnames[0]!.line
    if (key === view.originKey) problems.push(checkProblem('ZONE_CNAME_AT_APEX', owner, undefined, line))
    if (cnames.length > 1) problems.push(checkProblem('ZONE_CNAME_MULTIPLE', owner, `${cnames.length} CNAME records`, cnames[1]!.line))
    const others = [...node.types.keys()].filter(t => !ALLOWED_BESIDE_CNAME.has(t))
    if (others.length > 0) {
      problems.push(checkProblem('ZONE_CNAME_WITH_OTHER_DATA', owner, `also has type(s) ${others.join(', ')}`, line))
    }
  }
  return problems
}
