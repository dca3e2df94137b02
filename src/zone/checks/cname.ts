import { nameToString } from '../name.ts'
import { RRType, typeName } from '../rrtype.ts'
import { checkProblem } from './problem.ts'
import { firstOfType, runTypes, type CheckContext, type OwnerRun, type ZoneRule } from './rule.ts'

/** RFC 4035 §2.5: RRSIG and NSEC may stand beside a CNAME. */
const ALLOWED_BESIDE_CNAME = new Set<number>([RRType.CNAME, RRType.RRSIG, RRType.NSEC])

/** RFC 1034 §3.6.2 and RFC 2181 §10.1: a CNAME stands alone, once, and never at the apex. */
export function cnameRule (): ZoneRule {
  return {
    onOwner (run: OwnerRun, ctx: CheckContext) {
      const first = firstOfType(run, RRType.CNAME)
      if (first === undefined || !run.inZone) return
      const owner = nameToString(run.owner)
      if (run.apex) ctx.problems.push(checkProblem('ZONE_CNAME_AT_APEX', owner, undefined, first.line))
      let count = 0
      let second: number | undefined
      for (let i = run.start; i < run.end; i++) {
        if (run.records[i]!.type === RRType.CNAME && ++count === 2) second = run.records[i]!.line
      }
      if (count > 1) ctx.problems.push(checkProblem('ZONE_CNAME_MULTIPLE', owner, `${count} CNAME records`, second))
      const others = runTypes(run).filter(t => !ALLOWED_BESIDE_CNAME.has(t))
      if (others.length > 0) ctx.problems.push(checkProblem('ZONE_CNAME_WITH_OTHER_DATA', owner, `also has type(s) ${others.map(typeName).join(', ')}`, first.line))
    }
  }
}
