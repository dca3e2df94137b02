import type { PoolRecordHealth } from './health.ts'
import type { PoolProfile } from './profile.ts'

/**
 * What a traffic pool (SB, TC, SF, SLB) answers, given its profile and the health of its records:
 * pure, so every thread that answers decides alike. The pool's candidates are its own records
 * (the rrset's rdata, in `rdataInfo` order) followed by its backup records ({@link poolCandidates});
 * a decision names candidates by index. A record the health leaves out counts as UP.
 *
 * When nothing can be served and the pool has no backup (or all-fail) record, the pool fails
 * open: its records are served as configured, forced-inactive ones excepted (as Route 53 and
 * PowerDNS's `ifportup` do: an answer that may work beats none).
 */

/** How the answers are made now, over candidate indexes. */
export type PoolDecision =
  /** The same records, in this order, in every answer (cacheable until the health changes). */
  | { kind: 'fixed', serve: number[] }
  /** `count` records from `serve`, starting one further at each answer. */
  | { kind: 'rotate', serve: number[], count: number }
  /** `count` records of `serve`, shuffled for each answer. */
  | { kind: 'random', serve: number[], count: number }
  /** `count` records of `serve` drawn by weight without replacement, for each answer. */
  | { kind: 'weighted', serve: number[], weights: number[], count: number }

export type HealthOf = (rdata: string) => PoolRecordHealth

/** The pool's backup records, in order: SB backups, the TC backup, the SF backup, the SLB all-fail record. */
export function backupRdata (profile: PoolProfile): string[] {
  switch (profile.kind) {
    case 'SB_POOLS': return profile.backupRecords.map(b => b.rdata)
    case 'TC_POOLS': return profile.backupRecord === undefined ? [] : [profile.backupRecord.rdata]
    case 'SF_POOLS': return [profile.backupRecord.rdata]
    case 'SLB_POOLS': return [profile.allFailRecord.rdata]
    case 'RD_POOLS':
    case 'DIR_POOLS':
      return []
  }
}

/** The candidates of a pool: its records, then its backup records. */
export function poolCandidates (profile: PoolProfile, records: readonly string[]): string[] {
  return [...records, ...backupRdata(profile)]
}

/** Whether answers made from this decision differ from answer to answer. */
export function decisionVaries (d: PoolDecision): boolean {
  return d.kind !== 'fixed' && d.serve.length > 1
}

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i)

/** A decision of `order` over `serve`, `count` of them per answer (all when 0 or more than there are). */
function ordered (order: 'FIXED' | 'RANDOM' | 'ROUND_ROBIN', serve: number[], count: number): PoolDecision {
  const n = count <= 0 ? serve.length : Math.min(count, serve.length)
  if (order === 'FIXED' || serve.length <= 1) return { kind: 'fixed', serve: serve.slice(0, n) }
  return order === 'RANDOM' ? { kind: 'random', serve, count: n } : { kind: 'rotate', serve, count: n }
}

/** The backups (indexes from `first`) that are up; all of them when none is (the last resort). */
function liveBackups (candidates: readonly string[], first: number, health: HealthOf): number[] {
  const all = range(first, candidates.length)
  const up = all.filter(i => health(candidates[i]!) === 'UP')
  return up.length > 0 ? up : all
}

/**
 * SB and TC: records forced INACTIVE are never served, forced ACTIVE always; NORMAL ones while
 * up (health is ignored when the pool or the record runs no probes, or the pool does not act on
 * them). The pool has failed when no record can serve, or when at least `failureThreshold`
 * (above 0) records cannot; then its backups serve, if it has any.
 */
function sbTcEligible (profile: Extract<PoolProfile, { kind: 'SB_POOLS' | 'TC_POOLS' }>, records: readonly string[], health: HealthOf): { eligible: number[], failed: boolean } {
  const eligible: number[] = []
  const actOn = profile.runProbes && profile.actOnProbes
  records.forEach((rdata, i) => {
    const info = profile.rdataInfo[i]
    const state = info?.state ?? 'NORMAL'
    if (state === 'INACTIVE') return
    if (state === 'ACTIVE' || !actOn || info?.runProbes === false || health(rdata) === 'UP') eligible.push(i)
  })
  const down = records.length - eligible.length
  const failed = eligible.length === 0 || (profile.failureThreshold > 0 && down >= profile.failureThreshold)
  return { eligible, failed }
}

/** Records not forced inactive (the fail-open set). */
function notInactive (profile: Extract<PoolProfile, { kind: 'SB_POOLS' | 'TC_POOLS' }>, records: readonly string[]): number[] {
  return range(0, records.length).filter(i => profile.rdataInfo[i]?.state !== 'INACTIVE')
}

/**
 * Decide what a pool answers now.
 *
 * - SB: the records that can serve, by priority (then position), the first `maxActive` of them
 *   active; each answer gives `maxServed` of the active ones (all when 0) in the pool's `order`.
 *   A failed pool serves its backups that are up (all of them when none is).
 * - TC: the records that can serve, `maxToLB` of them per answer (all when 0) drawn by weight;
 *   a failed pool serves its backup record.
 * - SF: the live record while it is up and not forced inactive, else the backup record.
 * - SLB: `SERVE_ALL_FAIL` always the all-fail record; otherwise the primaries forced active or up
 *   (not forced inactive), one per answer by `responseMethod` (PRIORITY_HUNT the first in order,
 *   RANDOM any, ROUND_ROBIN in turn); none of them: the all-fail record (`AUTO_SELECT`), or
 *   the primaries not forced inactive (`SERVE_PRIMARY`).
 *
 * @param records the rrset's records in presentation form, in `rdataInfo` order
 * @param health the health of a record (or backup record) by its presentation rdata
 * @returns indexes into {@link poolCandidates}; RD and DIR pools are not decided here (all records, fixed)
 */
export function decidePool (profile: PoolProfile, records: readonly string[], health: HealthOf): PoolDecision {
  const candidates = poolCandidates(profile, records)
  const backups = candidates.length - records.length
  switch (profile.kind) {
    case 'SB_POOLS': {
      const { failed, eligible: up } = sbTcEligible(profile, records, health)
      if (failed && backups > 0) return ordered(profile.order, liveBackups(candidates, records.length, health), 0)
      let eligible = up
      if (eligible.length === 0) eligible = notInactive(profile, records)
      const byPriority = [...eligible].sort((a, b) => (profile.rdataInfo[a]?.priority ?? a + 1) - (profile.rdataInfo[b]?.priority ?? b + 1) || a - b)
      const active = byPriority.slice(0, Math.max(1, profile.maxActive))
      return ordered(profile.order, active, profile.maxServed)
    }
    case 'TC_POOLS': {
      const { failed, eligible: up } = sbTcEligible(profile, records, health)
      if (failed && backups > 0) return { kind: 'fixed', serve: liveBackups(candidates, records.length, health) }
      let eligible = up
      if (eligible.length === 0) eligible = notInactive(profile, records)
      if (eligible.length <= 1) return { kind: 'fixed', serve: eligible }
      const count = profile.maxToLB <= 0 ? eligible.length : Math.min(profile.maxToLB, eligible.length)
      return { kind: 'weighted', serve: eligible, weights: eligible.map(i => profile.rdataInfo[i]?.weight ?? 2), count }
    }
    case 'SF_POOLS': {
      const live = records[0]
      if (live === undefined || profile.liveRecordState === 'FORCED_INACTIVE' || health(live) === 'DOWN') return { kind: 'fixed', serve: [records.length] }
      return { kind: 'fixed', serve: [0] }
    }
    case 'SLB_POOLS': {
      const allFail = records.length
      if (profile.servingPreference === 'SERVE_ALL_FAIL') return { kind: 'fixed', serve: [allFail] }
      const forced = (i: number): string => profile.rdataInfo[i]?.forcedState ?? 'NOT_FORCED'
      let up = range(0, records.length).filter(i => forced(i) === 'FORCED_ACTIVE' ||
        (forced(i) === 'NOT_FORCED' && (profile.rdataInfo[i]?.probingEnabled === false || health(records[i]!) === 'UP')))
      if (up.length === 0) {
        if (profile.servingPreference === 'AUTO_SELECT') return { kind: 'fixed', serve: [allFail] }
        up = range(0, records.length).filter(i => forced(i) !== 'FORCED_INACTIVE')
      }
      if (profile.responseMethod === 'PRIORITY_HUNT' || up.length <= 1) return { kind: 'fixed', serve: up.slice(0, 1) }
      return profile.responseMethod === 'RANDOM' ? { kind: 'random', serve: up, count: 1 } : { kind: 'rotate', serve: up, count: 1 }
    }
    case 'RD_POOLS':
    case 'DIR_POOLS':
      return { kind: 'fixed', serve: range(0, records.length) }
  }
}

/**
 * The candidates of one answer.
 *
 * @param random a uniform number in [0, 1) (Math.random; tests give a seeded source)
 * @param turn the answer's turn for `rotate` (a counter moved by one per answer)
 */
export function pickAnswer (d: PoolDecision, random: () => number, turn: number): number[] {
  switch (d.kind) {
    case 'fixed':
      return d.serve
    case 'rotate': {
      const n = d.serve.length
      const start = turn % n
      const out = new Array<number>(d.count)
      for (let k = 0; k < d.count; k++) out[k] = d.serve[(start + k) % n]!
      return out
    }
    case 'random': {
      const pool = [...d.serve]
      for (let k = 0; k < d.count; k++) {
        const j = k + Math.floor(random() * (pool.length - k))
        const t = pool[k]!
        pool[k] = pool[j]!
        pool[j] = t
      }
      return pool.slice(0, d.count)
    }
    case 'weighted': {
      const serve = [...d.serve]
      const weights = [...d.weights]
      let total = 0
      for (const w of weights) total += w
      const out: number[] = []
      while (out.length < d.count && serve.length > 0) {
        let x = random() * total
        let j = 0
        while (j < serve.length - 1 && x >= weights[j]!) x -= weights[j++]!
        out.push(serve[j]!)
        total -= weights[j]!
        serve.splice(j, 1)
        weights.splice(j, 1)
      }
      return out
    }
  }
}
