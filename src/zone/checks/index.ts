import { isSubdomain, nameEquals, type WireName } from '../name.ts'
import type { ZoneProblem, ZoneRecord } from '../record.ts'
import { cnameRule } from './cname.ts'
import { dnameRule } from './dname.ts'
import { dsRule } from './ds.ts'
import { glueRule } from './glue.ts'
import { apexNsRule } from './ns.ts'
import { outOfZoneRule } from './out-of-zone.ts'
import { rrsetRule } from './rrsets.ts'
import type { CheckContext, OwnerRun, ZoneRule } from './rule.ts'
import { soaRule } from './soa.ts'
import { compareBytes, sortRecords } from './sort.ts'

export { CHECKS, type CheckCode } from './problem.ts'
export { sortRecords } from './sort.ts'

function rules (): ZoneRule[] {
  return [soaRule(), apexNsRule(), cnameRule(), dnameRule(), dsRule(), glueRule(), rrsetRule(), outOfZoneRule()]
}

export interface CheckedZone {
  /** The records in canonical order, with the warnings applied when normalising. */
  records: ZoneRecord[]
  problems: ZoneProblem[]
}

/**
 * Sort the zone once and run every check over its owners in canonical order (STYLE.md §4.2:
 * all problems, each with a code). With `normalize`, the returned records are what the zone
 * keeps: out-of-zone records dropped, duplicates kept once, each rrset at its lowest TTL, and
 * the records of one owner sharing the first record's owner name.
 */
export function scanZone (input: readonly ZoneRecord[], origin: WireName, normalize: boolean): CheckedZone {
  const { records, keys } = sortRecords(input)
  const ctx: CheckContext = { origin, problems: [] }
  const all = rules()
  const out: ZoneRecord[] = []
  let start = 0
  while (start < records.length) {
    let end = start + 1
    while (end < records.length && keys[end] === keys[start]) end++
    const owner = records[start]!.owner
    const run: OwnerRun = { owner, key: keys[start]!, records, start, end, apex: nameEquals(owner, origin), inZone: isSubdomain(owner, origin) }
    for (const rule of all) rule.onOwner(run, ctx)
    if (normalize && run.inZone) keepNormalized(run, out)
    start = end
  }
  for (const rule of all) rule.finish?.(ctx)
  return { records: normalize ? out : records, problems: ctx.problems }
}

function keepNormalized (run: OwnerRun, out: ZoneRecord[]): void {
  let i = run.start
  while (i < run.end) {
    const type = run.records[i]!.type
    let j = i
    let ttl = run.records[i]!.ttl
    while (j < run.end && run.records[j]!.type === type) {
      if (run.records[j]!.ttl < ttl) ttl = run.records[j]!.ttl
      j++
    }
    for (let k = i; k < j; k++) {
      const r = run.records[k]!
      if (k > i && compareBytes(r.rdata, run.records[k - 1]!.rdata) === 0) continue
      // Records of one owner share its first spelling (and one object, which writers compare by identity).
      out.push(r.ttl === ttl && r.owner === run.owner ? r : { ...r, ttl, owner: run.owner })
    }
    i = j
  }
}

/** Every zone check over a zone's records. */
export function checkZone (records: readonly ZoneRecord[], origin: WireName): ZoneProblem[] {
  return scanZone(records, origin, false).problems
}

/** The records a zone keeps after the warnings are applied, in canonical order, and the problems. */
export function normalizeZone (records: readonly ZoneRecord[], origin: WireName): CheckedZone {
  return scanZone(records, origin, true)
}
