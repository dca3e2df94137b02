import { nameToString } from '../name.ts'
import { RRType } from '../rrtype.ts'
import { checkProblem } from './problem.ts'
import { firstOfType, type CheckContext, type OwnerRun, type ZoneRule } from './rule.ts'

/** RFC 1034 §4.2.1: the apex carries the zone's NS rrset. */
export function apexNsRule (): ZoneRule {
  let found = false
  return {
    onOwner (run: OwnerRun) {
      if (run.apex && firstOfType(run, RRType.NS) !== undefined) found = true
    },
    finish (ctx: CheckContext) {
      if (!found) ctx.problems.push(checkProblem('ZONE_NS_MISSING', nameToString(ctx.origin)))
    }
  }
}
