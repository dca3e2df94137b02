import type { WireName } from '../name.ts'
import type { ZoneProblem, ZoneRecord } from '../record.ts'
import { checkCname } from './cname.ts'
import { checkDname } from './dname.ts'
import { checkGlue } from './glue.ts'
import { checkApexNs } from './ns.ts'
import { checkRrsets, duplicateFlags } from './rrsets.ts'
import { checkSoa } from './soa.ts'
import { buildZoneView, outOfZoneProblems, type ZoneView } from './zone-view.ts'

export { CHECKS, type CheckCode } from './problem.ts'
export { buildZoneView, type ZoneView } from './zone-view.ts'

/** Every zone check, in a fixed order. */
export function checkView (view: ZoneView): ZoneProblem[] {
  return [
    ...checkSoa(view),
    ...checkApexNs(view),
    ...checkCname(view),
    ...checkDname(view),
    ...checkGlue(view),
    ...checkRrsets(view),
    ...outOfZoneProblems(view)
  ]
}

/** Run every zone check over a zone's records (STYLE.md §4.2: all problems, each with a code). */
export function checkZone (records: Iterable<ZoneRecord>, origin: WireName): ZoneProblem[] {
  return checkView(buildZoneView(records, origin))
}

/**
 * The records a zone keeps after the warnings are applied: out-of-zone records dropped,
 * duplicates kept once, and each rrset at the lowest of its TTLs. Returns the problems too.
 */
export function normalizeZone (records: Iterable<ZoneRecord>, origin: WireName): { records: ZoneRecord[], problems: ZoneProblem[] } {
  const view = buildZoneView(records, origin)
  const problems = checkView(view)
  const out: ZoneRecord[] = []
  for (const node of view.owners.values()) {
    for (const list of node.types.values()) {
      let ttl = list[0]!.ttl
      for (const r of list) if (r.ttl < ttl) ttl = r.ttl
      const dups = list.length > 1 ? duplicateFlags(list) : undefined
      list.forEach((r, i) => {
        if (dups?.[i] !== true) out.push(r.ttl === ttl ? r : { ...r, ttl })
      })
    }
  }
  return { records: out, problems }
}
