import { canonicalOrderKey, isSubdomain, nameToString, type WireName } from '../name.ts'
import type { ZoneRecord } from '../record.ts'
import { RRType } from '../rrtype.ts'
import { checkProblem } from './problem.ts'
import { firstOfType, type CheckContext, type OwnerRun, type ZoneRule } from './rule.ts'

/** Binary search in an ascending array of strings. */
function contains (sorted: readonly string[], key: string): boolean {
  let lo = 0
  let hi = sorted.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const v = sorted[mid]!
    if (v === key) return true
    if (v < key) lo = mid + 1
    else hi = mid - 1
  }
  return false
}

/**
 * Every name server inside the zone, at the apex or at a delegation, needs A or AAAA records in
 * the zone (glue below a delegation, RFC 1034 §4.2.1; BIND refuses such zones too).
 */
export function glueRule (): ZoneRule {
  // Owners come in canonical order, so this list is sorted as it grows.
  const withAddress: string[] = []
  const targets: { owner: WireName, target: WireName, record: ZoneRecord }[] = []
  return {
    onOwner (run: OwnerRun, ctx: CheckContext) {
      if (!run.inZone) return
      if (firstOfType(run, RRType.A) !== undefined || firstOfType(run, RRType.AAAA) !== undefined) withAddress.push(run.key)
      for (let i = run.start; i < run.end; i++) {
        const r = run.records[i]!
        if (r.type === RRType.NS && isSubdomain(r.rdata, ctx.origin)) targets.push({ owner: run.owner, target: r.rdata, record: r })
      }
    },
    finish (ctx: CheckContext) {
      const reported = new Set<string>()
      for (const t of targets) {
        const key = canonicalOrderKey(t.target)
        if (reported.has(key) || contains(withAddress, key)) continue
        reported.add(key)
        ctx.problems.push(checkProblem('ZONE_GLUE_MISSING', nameToString(t.owner), `NS ${nameToString(t.target)} has no A or AAAA record`, t.record.line))
      }
    }
  }
}
