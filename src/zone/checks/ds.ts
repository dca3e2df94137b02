import { nameToString } from '../name.ts'
import { RRType } from '../rrtype.ts'
import { checkProblem } from './problem.ts'
import { firstOfType, type CheckContext, type OwnerRun, type ZoneRule } from './rule.ts'

/**
 * RFC 4034 §5, RFC 4035 §2.4: a DS rrset belongs to the parent's side of a zone cut, never to
 * the child's apex (BIND refuses such a zone: "DS record at top of zone"; validators asking for
 * the apex DS of a zone served with its parent get the child's instead).
 */
export function dsRule (): ZoneRule {
  return {
    onOwner (run: OwnerRun, ctx: CheckContext) {
      const ds = firstOfType(run, RRType.DS)
      if (ds !== undefined && run.apex) ctx.problems.push(checkProblem('ZONE_DS_AT_APEX', nameToString(run.owner), undefined, ds.line))
    }
  }
}
