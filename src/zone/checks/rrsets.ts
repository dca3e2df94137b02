import { nameToString } from '../name.ts'
import { typeName } from '../rrtype.ts'
import { checkProblem } from './problem.ts'
import type { CheckContext, OwnerRun, ZoneRule } from './rule.ts'
import { compareBytes } from './sort.ts'

/**
 * RFC 2181 §5: an rrset is a set (duplicates are one record) with one TTL (mixed TTLs are a
 * problem; the lowest applies, as UltraDNS does). Records are sorted by rdata, so duplicates
 * are neighbours.
 */
export function rrsetRule (): ZoneRule {
  return {
    onOwner (run: OwnerRun, ctx: CheckContext) {
      if (!run.inZone) return
      let i = run.start
      while (i < run.end) {
        const type = run.records[i]!.type
        let j = i + 1
        let minTtl = run.records[i]!.ttl
        let maxTtl = minTtl
        while (j < run.end && run.records[j]!.type === type) {
          const r = run.records[j]!
          if (compareBytes(r.rdata, run.records[j - 1]!.rdata) === 0) {
            ctx.problems.push(checkProblem('ZONE_DUPLICATE_RECORD', nameToString(run.owner), typeName(type), r.line))
          }
          if (r.ttl < minTtl) minTtl = r.ttl
          if (r.ttl > maxTtl) maxTtl = r.ttl
          j++
        }
        if (minTtl !== maxTtl) {
          const ttls = [...new Set(run.records.slice(i, j).map(r => r.ttl))].sort((a, b) => a - b)
          const line = Math.min(...run.records.slice(i, j).map(r => r.line ?? Infinity))
          ctx.problems.push(checkProblem('ZONE_TTL_MISMATCH', nameToString(run.owner), `${typeName(type)} TTLs ${ttls.join(', ')}; using ${minTtl}`, Number.isFinite(line) ? line : undefined))
        }
        i = j
      }
    }
  }
}
