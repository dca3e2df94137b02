import { nameToString } from '../name.ts'
import { checkProblem } from './problem.ts'
import type { CheckContext, OwnerRun, ZoneRule } from './rule.ts'

/** RFC 1034 §4.2.1: a zone holds names at or below its apex; others are ignored. */
export function outOfZoneRule (): ZoneRule {
  return {
    onOwner (run: OwnerRun, ctx: CheckContext) {
      if (run.inZone) return
      for (let i = run.start; i < run.end; i++) {
        ctx.problems.push(checkProblem('ZONE_OUT_OF_ZONE', nameToString(run.owner), `not under ${nameToString(ctx.origin)}`, run.records[i]!.line))
      }
    }
  }
}
