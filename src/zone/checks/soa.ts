import { nameToString } from '../name.ts'
import { RRType } from '../rrtype.ts'
import { checkProblem } from './problem.ts'
import type { CheckContext, OwnerRun, ZoneRule } from './rule.ts'

/** RFC 1035 §5.2: exactly one SOA, at the apex. */
export function soaRule (): ZoneRule {
  let atApex = 0
  let secondLine: number | undefined
  return {
    onOwner (run: OwnerRun, ctx: CheckContext) {
      for (let i = run.start; i < run.end; i++) {
        const r = run.records[i]!
        if (r.type !== RRType.SOA) continue
        if (!run.apex) {
          if (run.inZone) ctx.problems.push(checkProblem('ZONE_SOA_NOT_AT_APEX', nameToString(run.owner), undefined, r.line))
          continue
        }
        if (++atApex === 2) secondLine = r.line
      }
    },
    finish (ctx: CheckContext) {
      const apex = nameToString(ctx.origin)
      if (atApex === 0) ctx.problems.push(checkProblem('ZONE_SOA_MISSING', apex))
      if (atApex > 1) ctx.problems.push(checkProblem('ZONE_SOA_MULTIPLE', apex, `${atApex} SOA records`, secondLine))
    }
  }
}
