import type { PoolRecordHealth } from '../zone/pools/health.ts'
import type { PoolProfile } from '../zone/pools/profile.ts'

/**
 * How a pool's record states follow the probes (pure; the service feeds it the latest result of
 * every agent and applies what it returns). The rules, per pool type:
 *
 * - SB and TC pools (probe definitions): a probe fails for a record when at least `threshold` of
 *   the agents with a fresh result (fewer when fewer report) failed it; a record goes DOWN when
 *   at least its `rdataInfo.threshold` probes (at most as many as have fresh results) fail, and
 *   UP when fewer do. Only records with `runProbes` (and the pool's `runProbes`) are probed, and
 *   only pools with `actOnProbes` change state. `failoverDelay` (minutes) holds a failover back
 *   that long, `restorationDelay` (by default `failoverDelay`) a failback.
 * - SF and SLB pools (the pool's `monitor`): a record goes DOWN when one fresh agent fails it
 *   (`regionFailureSensitivity` HIGH) or a majority of them (LOW), UP otherwise; at once.
 *
 * A record without a fresh result from any agent keeps its state: an agent that falls silent
 * (a node going away) never flips a pool.
 */

/** One agent's latest result of one probe (`probeId` '' for a monitor) for one record. */
export interface Evidence {
  record: string
  probeId: string
  agent: string
  ok: boolean
  /** Milliseconds since the epoch. */
  at: number
}

/** A probe of the pool, as the decision needs it. */
export interface ProbeRule {
  id: string
  /** The record it probes; null: every probed record of the pool. */
  poolRecord: string | null
  /** Agents that must agree. */
  threshold: number
  /** Its effective interval, ms (results older than a few intervals are stale). */
  intervalMs: number
}

/** What the rules say of one record. */
export interface Verdict {
  record: string
  /** The state the evidence calls for. */
  state: PoolRecordHealth
  /** How long it must hold before the state changes, ms (the failover delay going DOWN, the restoration delay going UP). */
  delayMs: number
  /** One line: why. */
  why: string
}

/** A result is fresh for this many intervals (and a minute more, for a slow run). */
export const FRESH_INTERVALS = 3
const FRESH_SLACK_MS = 60_000

/** Whether a result at `at` still counts at `now`. */
export function isFresh (at: number, intervalMs: number, now: number): boolean {
  return now - at <= FRESH_INTERVALS * intervalMs + FRESH_SLACK_MS
}

/** The probed records of a pool and, for SB and TC pools, each record's rdataInfo settings. */
export function probedRecords (profile: PoolProfile, rdata: readonly string[]): Array<{ record: string, threshold: number, delayMs: number, restoreMs: number }> {
  switch (profile.kind) {
    case 'SB_POOLS':
    case 'TC_POOLS':
      if (!profile.runProbes) return []
      return rdata.flatMap((record, i) => {
        const info = profile.rdataInfo[i]
        return info === undefined || !info.runProbes ? [] : [{ record, threshold: info.threshold, delayMs: info.failoverDelay * 60_000, restoreMs: (info.restorationDelay ?? info.failoverDelay) * 60_000 }]
      })
    case 'SF_POOLS':
      return rdata.slice(0, 1).map(record => ({ record, threshold: 1, delayMs: 0, restoreMs: 0 }))
    case 'SLB_POOLS':
      return rdata.flatMap((record, i) => profile.rdataInfo[i]?.probingEnabled === false ? [] : [{ record, threshold: 1, delayMs: 0, restoreMs: 0 }])
    default:
      return []
  }
}

/** How a set of agents' results of one check judge a record: failed, passed, or unknown (none fresh). */
function agentsVerdict (results: readonly Evidence[], need: (fresh: number) => number): { failed: boolean, failing: number, fresh: number } | undefined {
  // One result per agent (the latest).
  const byAgent = new Map<string, Evidence>()
  for (const r of results) {
    const seen = byAgent.get(r.agent)
    if (seen === undefined || seen.at < r.at) byAgent.set(r.agent, r)
  }
  const fresh = byAgent.size
  if (fresh === 0) return undefined
  const failing = [...byAgent.values()].filter(r => !r.ok).length
  return { failed: failing >= need(fresh), failing, fresh }
}

/**
 * The verdict on each probed record of a pool that has fresh evidence.
 *
 * @param probes the pool's probe definitions (SB, TC); ignored for SF and SLB (their monitor's
 *   results carry probeId '').
 * @param monitorIntervalMs the monitor's effective interval (SF, SLB).
 */
export function judgePool (profile: PoolProfile, rdata: readonly string[], probes: readonly ProbeRule[], evidence: readonly Evidence[], monitorIntervalMs: number, now: number): Verdict[] {
  const out: Verdict[] = []
  if ((profile.kind === 'SB_POOLS' || profile.kind === 'TC_POOLS') && !profile.actOnProbes) return out
  for (const { record, threshold, delayMs, restoreMs } of probedRecords(profile, rdata)) {
    const mine = evidence.filter(e => e.record === record)
    if (profile.kind === 'SF_POOLS' || profile.kind === 'SLB_POOLS') {
      const low = profile.regionFailureSensitivity === 'LOW'
      const v = agentsVerdict(mine.filter(e => e.probeId === '' && isFresh(e.at, monitorIntervalMs, now)), fresh => low ? Math.floor(fresh / 2) + 1 : 1)
      if (v === undefined) continue
      out.push({ record, state: v.failed ? 'DOWN' : 'UP', delayMs: v.failed ? delayMs : restoreMs, why: `monitor failed on ${v.failing} of ${v.fresh} agent(s)` })
      continue
    }
    let known = 0
    let failing = 0
    for (const p of probes) {
      if (p.poolRecord !== null && p.poolRecord !== record) continue
      const v = agentsVerdict(mine.filter(e => e.probeId === p.id && isFresh(e.at, p.intervalMs, now)), fresh => Math.min(p.threshold, fresh))
      if (v === undefined) continue
      known++
      if (v.failed) failing++
    }
    if (known === 0) continue
    const need = Math.min(threshold, known)
    const down = failing >= need
    out.push({ record, state: down ? 'DOWN' : 'UP', delayMs: down ? delayMs : restoreMs, why: `${failing} of ${known} probe(s) failed (threshold ${need})` })
  }
  return out
}

/** What to do about one record, given its verdict and its stored state. */
export type Step =
  | { kind: 'keep' }
  | { kind: 'clear-pending' }
  | { kind: 'pend', state: PoolRecordHealth }
  | { kind: 'change', from: PoolRecordHealth, to: PoolRecordHealth }

/**
 * The step a verdict calls for: nothing when the state already agrees (a waiting change is
 * dropped), a change when no delay applies or the same verdict has waited its delay, else the
 * start of the wait.
 */
export function stepFor (verdict: Verdict, current: { state: PoolRecordHealth, pendingState: PoolRecordHealth | null, pendingSince: number | null }, now: number): Step {
  if (verdict.state === current.state) return current.pendingState === null ? { kind: 'keep' } : { kind: 'clear-pending' }
  if (verdict.delayMs === 0) return { kind: 'change', from: current.state, to: verdict.state }
  if (current.pendingState === verdict.state && current.pendingSince !== null) {
    return now - current.pendingSince >= verdict.delayMs ? { kind: 'change', from: current.state, to: verdict.state } : { kind: 'keep' }
  }
  return { kind: 'pend', state: verdict.state }
}

/** The failover report's pool type of a pool kind. */
export function poolTypeOf (kind: PoolProfile['kind']): string {
  switch (kind) {
    case 'SB_POOLS': return 'SITE_BACKER'
    case 'TC_POOLS': return 'TRAFFIC_CONTROLLER'
    case 'SF_POOLS': return 'FAILOVER_POOL'
    case 'SLB_POOLS': return 'SIMPLE_LOAD_BALANCING'
    default: return kind
  }
}
