import { nameToString } from '../name.ts'
import type { ZoneProblem, ZoneRecord } from '../record.ts'
import { typeName } from '../rdata/registry.ts'
import { checkProblem } from './problem.ts'
import type { ZoneView } from './zone-view.ts'

/** For each record of an rrset, whether an earlier record has the same rdata. */
export function duplicateFlags (list: readonly ZoneRecord[]): boolean[] {
  const seen = new Set<string>()
  return list.map(r => {
    const key = Buffer.from(r.rdata.buffer, r.rdata.byteOffset, r.rdata.byteLength).toString('latin1')
    if (seen.has(key)) return true
    seen.add(key)
    return false
  })
}

/**
 * RFC 2181 §5: an rrset is a set (duplicates are one record) with one TTL (mixed TTLs are a
 * problem; the lowest applies, as UltraDNS does).
 */
export function checkRrsets (view: ZoneView): ZoneProblem[] {
  const problems: ZoneProblem[] = []
  for (const node of view.owners.values()) {
    for (const [type, list] of node.types) {
      if (list.length < 2) continue
      const owner = nameToString(node.owner)
      duplicateFlags(list).forEach((dup, i) => {
        if (dup) problems.push(checkProblem('ZONE_DUPLICATE_RECORD', owner, typeName(type), list[i]!.line))
      })
      const ttls = new Set(list.map(r => r.ttl))
      if (ttls.size > 1) {
        problems.push(checkProblem('ZONE_TTL_MISMATCH', owner, `${typeName(type)} TTLs ${[...ttls].sort((a, b) => a - b).join(', ')}; using ${Math.min(...ttls)}`, list[0]!.line))
      }
    }
  }
  return problems
}
