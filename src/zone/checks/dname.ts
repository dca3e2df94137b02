import { isSubdomain, nameToString, type WireName } from '../name.ts'
import type { ZoneRecord } from '../record.ts'
import { RRType } from '../rrtype.ts'
import { checkProblem } from './problem.ts'
import { firstOfType, type CheckContext, type OwnerRun, type ZoneRule } from './rule.ts'

/**
 * RFC 6672 §2.3: no data below a DNAME owner (it would never be reached). In canonical order
 * the names below an owner follow it directly, so one open DNAME at a time is enough.
 */
export function dnameRule (): ZoneRule {
  let open: { owner: WireName, record: ZoneRecord, reported: boolean } | undefined
  return {
    onOwner (run: OwnerRun, ctx: CheckContext) {
      if (open !== undefined && !isSubdomain(run.owner, open.owner)) open = undefined
      if (open !== undefined && !open.reported) {
        open.reported = true
        ctx.problems.push(checkProblem('ZONE_DNAME_WITH_CHILDREN', nameToString(open.owner), `for example ${nameToString(run.owner)}`, open.record.line))
      }
      const dname = firstOfType(run, RRType.DNAME)
      if (dname !== undefined && run.inZone && open === undefined) open = { owner: run.owner, record: dname, reported: false }
    }
  }
}
