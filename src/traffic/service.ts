import { randomUUID } from 'node:crypto'
import type { PoolRecordHealth, PoolRecordStates } from '../zone/pools/health.ts'
import type { PoolRecordKey, ProbeRun, Store, TrafficPool } from '../store/store.ts'
import { runCheck, type ProbeCheck } from './checks/index.ts'
import { judgePool, poolTypeOf, probedRecords, stepFor, type Evidence, type ProbeRule } from './decide.ts'
import { allRecordsOut } from './manual.ts'
import { INTERVALS, monitorCheck, probeCheck, recordTypeName } from './probe-definition.ts'

export interface TrafficSettings {
  /** This node's agent name (`ZONAL_NODE_NAME`). */
  node: string
  /** This agent's region (`ZONAL_PROBE_REGION`), recorded with its results. */
  region: string
  /** Seconds between two runs of an SF or SLB pool's monitor (`ZONAL_SF_MONITOR_INTERVAL`). */
  monitorIntervalSeconds: number
  /** No probe runs more often than this (`ZONAL_PROBE_MIN_INTERVAL`). */
  minIntervalSeconds: number
  /** Probe runs at once (`ZONAL_PROBE_CONCURRENCY`); the others wait their turn. */
  concurrency: number
  /** Called with a pool's record states whenever they differ from what was last published. */
  publish: (states: PoolRecordStates) => void
  logger?: { warn (obj: object, msg: string): void, info? (obj: object, msg: string): void }
  /** Jitter source in [0, 1) (tests pass a constant). */
  random?: () => number
  /** How often the list of pools is read again, ms (default 10 s). */
  refreshMs?: number
  /**
   * Whether this node probes (`ZONAL_PROBES`, default true). Every node, probing or not, reads
   * the pools' states at each refresh and publishes those another node changed.
   */
  probe?: boolean
}

/** One scheduled check: one probe (or monitor) of one record. */
interface Job {
  key: string
  pool: TrafficPool
  poolKey: string
  record: string
  probeId: string
  probeType: string
  check: ProbeCheck
  intervalMs: number
}

const TICK_MS = 1000
/** New checks first run within this long, plus {@link FIRST_RUN_SPREAD_PER_CHECK_MS} for each check new with them. */
const FIRST_RUN_SPREAD_MS = 2000
const FIRST_RUN_SPREAD_PER_CHECK_MS = 5
/** Probe runs are written together at most this long after they finish (one transaction). */
const WRITE_DELAY_MS = 500

function poolKeyOf (p: Pick<TrafficPool, 'zoneId' | 'ownerKey' | 'rrtype'>): string {
  return `${p.zoneId}\u0000${p.ownerKey}\u0000${p.rrtype}`
}

/**
 * Probes the SB, TC, SF and SLB pools of this installation as this node's agent, on a schedule
 * with jitter, a bounded number at a time and never on an API request's path; records every
 * result; decides each probed record's state over every agent's latest results (`decide.ts`)
 * and, on a change, commits it with a failover event and an audit record in one transaction,
 * then publishes the pool's states.
 */
export class TrafficService {
  private readonly store: Store
  private readonly settings: TrafficSettings
  private jobs = new Map<string, Job>()
  private readonly due = new Map<string, number>()
  private readonly running = new Set<string>()
  private readonly queue: Array<{ job: Job, at: number, done: () => void }> = []
  private active = 0
  /** The runs under way (stop waits for them: their checks are aborted, their writes finish). */
  private readonly inFlight = new Set<Promise<void>>()
  private loadedAt = -Infinity
  private loading: Promise<void> | undefined
  /** Per pool, the evaluation under way (one at a time per pool in this process). */
  private readonly evaluating = new Map<string, Promise<void>>()
  /** Per pool, the states last published (as a canonical text). */
  private readonly published = new Map<string, string>()
  /** Probe runs not yet written (written together within {@link WRITE_DELAY_MS}, or before a decision). */
  private readonly unwritten: ProbeRun[] = []
  private writeTimer: ReturnType<typeof setTimeout> | undefined
  /** The write under way, if any (writes follow one another). */
  private writing: Promise<void> = Promise.resolve()
  /** Per check (job key), the outcome of its last run on this node. */
  private readonly lastRun = new Map<string, { ok: boolean, at: number }>()
  /** Per pool, its checks (what a decision reads this node's latest results of). */
  private poolJobs = new Map<string, Job[]>()
  /**
   * Per pool, when it was last decided on this node, the states it then had, and whether a
   * change was then waiting out its delay.
   */
  private readonly decided = new Map<string, { at: number, pending: boolean, states: ReadonlyMap<string, PoolRecordHealth> }>()
  private timer: NodeJS.Timeout | undefined
  private readonly abort = new AbortController()
  private stopped = false

  constructor (store: Store, settings: TrafficSettings) {
    this.store = store
    this.settings = settings
  }

  private random (): number {
    return (this.settings.random ?? Math.random)()
  }

  /** The effective interval of a probe interval name, or of the monitor, ms. */
  intervalMs (interval: string | 'MONITOR'): number {
    const seconds = interval === 'MONITOR' ? this.settings.monitorIntervalSeconds : INTERVALS[interval] ?? 300
    return Math.max(seconds, this.settings.minIntervalSeconds) * 1000
  }

  /** Read the pools and their probes again; jobs keep their schedule, new ones start soon. */
  async refresh (now = Date.now()): Promise<void> {
    this.loading ??= (async () => {
      try {
        const pools = await this.store.traffic.pools()
        const jobs = new Map<string, Job>()
        for (const pool of pools) for (const job of this.jobsOf(pool)) jobs.set(job.key, job)
        for (const key of this.due.keys()) if (!jobs.has(key)) this.due.delete(key)
        for (const key of this.lastRun.keys()) if (!jobs.has(key)) this.lastRun.delete(key)
        const poolJobs = new Map<string, Job[]>()
        for (const job of jobs.values()) {
          const list = poolJobs.get(job.poolKey)
          if (list === undefined) poolJobs.set(job.poolKey, [job])
          else list.push(job)
        }
        for (const key of this.decided.keys()) if (!poolJobs.has(key)) this.decided.delete(key)
        const fresh = [...jobs.keys()].filter(key => !this.due.has(key))
        // When this agent last ran the checks new to the schedule (all of them after a start).
        const lastRun = new Map<string, number>()
        if (fresh.length > 0 && this.settings.probe !== false) {
          for (const r of await this.store.traffic.lastRuns(this.settings.node)) lastRun.set(`${poolKeyOf(r)}\u0000${r.record}\u0000${r.probeId}`, Date.parse(r.at))
        }
        for (const key of fresh) {
          const job = jobs.get(key)!
          const last = lastRun.get(key)
          // A check never run here starts soon, spread by jitter: within 2 s, and 5 ms more for
          // each other check new at the same time (10,000 new checks start over 52 s, not all at
          // once), never later than its interval. One run before (the service restarted) keeps its
          // schedule: its next run one interval after the last, or, when that has passed,
          // somewhere in the coming interval, so that a restart does not send every probe at once.
          if (last === undefined) this.due.set(key, now + Math.floor(this.random() * Math.min(job.intervalMs, FIRST_RUN_SPREAD_MS + fresh.length * FIRST_RUN_SPREAD_PER_CHECK_MS)))
          else if (last + job.intervalMs > now && last <= now) this.due.set(key, last + job.intervalMs)
          else this.due.set(key, now + Math.floor(this.random() * job.intervalMs))
        }
        this.jobs = jobs
        this.poolJobs = poolJobs
        this.loadedAt = now
      } finally {
        this.loading = undefined
      }
    })()
    await this.loading
  }

  private jobsOf (pool: TrafficPool): Job[] {
    const poolKey = poolKeyOf(pool)
    const base = { pool, poolKey }
    const records = probedRecords(pool.profile, pool.rdataText).map(r => r.record)
    const out: Job[] = []
    if (pool.profile.kind === 'SF_POOLS' || pool.profile.kind === 'SLB_POOLS') {
      const check = monitorCheck(pool.profile.monitor)
      for (const record of records) out.push({ ...base, key: `${poolKey}\u0000${record}\u0000`, record, probeId: '', probeType: 'HTTP', check, intervalMs: this.intervalMs('MONITOR') })
      return out
    }
    for (const probe of pool.probes) {
      let check: ProbeCheck
      try {
        check = probeCheck(probe, pool.ownerName)
      } catch {
        continue
      }
      for (const record of records) {
        if (probe.poolRecord !== null && probe.poolRecord !== record) continue
        out.push({ ...base, key: `${poolKey}\u0000${record}\u0000${probe.id}`, record, probeId: probe.id, probeType: probe.probeType, check, intervalMs: this.intervalMs(probe.interval) })
      }
    }
    return out
  }

  /**
   * Run every check due at `now` (reading the pools again when the list is older than the
   * refresh period) and resolve when they and their decisions are done. The timer calls it
   * every second; tests call it with their own clock.
   */
  async tick (now = Date.now()): Promise<void> {
    if (this.stopped) return
    if (now - this.loadedAt >= (this.settings.refreshMs ?? 10_000) || now < this.loadedAt) {
      await this.refresh(now)
      // What other nodes decided reaches this node's publisher within a refresh period.
      await this.follow()
    }
    if (this.settings.probe === false) return
    const runs: Array<Promise<void>> = []
    for (const [key, job] of this.jobs) {
      const at = this.due.get(key)
      if (at === undefined || at > now || this.running.has(key)) continue
      // The next run one interval on, give or take a tenth (jitter spreads the runs out).
      this.due.set(key, now + job.intervalMs + Math.floor(this.random() * job.intervalMs / 10))
      this.running.add(key)
      runs.push(new Promise<void>(resolve => { this.queue.push({ job, at: now, done: resolve }) }).finally(() => this.running.delete(key)))
    }
    this.pump()
    await Promise.all(runs)
    // The tick's runs are written before it resolves (one transaction for those not yet written).
    await this.writeRuns()
  }

  private pump (): void {
    while (!this.stopped && this.active < this.settings.concurrency && this.queue.length > 0) {
      const { job, at, done } = this.queue.shift()!
      this.active++
      const run: Promise<void> = this.runJob(job, at).catch((err: unknown) => this.settings.logger?.warn({ err, pool: job.pool.ownerName, record: job.record }, 'probe run failed')).finally(() => {
        this.active--
        this.inFlight.delete(run)
        done()
        this.pump()
      })
      this.inFlight.add(run)
    }
    if (this.stopped) for (const q of this.queue.splice(0)) q.done()
  }

  /** Run one check, record it, and decide the pool again. */
  private async runJob (job: Job, at: number): Promise<void> {
    const outcome = await runCheck(job.check, { address: job.record, signal: this.abort.signal })
    if (this.stopped) return
    const { pool } = job
    this.unwritten.push({
      zoneId: pool.zoneId,
      ownerKey: pool.ownerKey,
      rrtype: pool.rrtype,
      record: job.record,
      probeId: job.probeId,
      agent: this.settings.node,
      region: this.settings.region,
      probeType: job.probeType,
      ok: outcome.ok,
      message: outcome.message,
      durationMs: outcome.durationMs,
      at: new Date(at).toISOString()
    })
    // A pool is decided again when a result disagrees with its record's state, while a change
    // waits out its delay, or once an interval (other agents' results, and results going stale,
    // move the decision without this node's outcome changing). A pool of ten records probed every
    // minute is then decided about once a minute, not ten times, when nothing changes; after a
    // start, once, not once a record.
    this.lastRun.set(job.key, { ok: outcome.ok, at })
    this.writeSoon()
    const last = this.decided.get(job.poolKey)
    if (last !== undefined && !last.pending && at - last.at < job.intervalMs && last.states.get(job.record) === (outcome.ok ? 'UP' : 'DOWN')) return
    await this.evaluate(pool, at)
  }

  /** Write the runs not yet written within {@link WRITE_DELAY_MS} (one transaction for all of them). */
  private writeSoon (): void {
    if (this.writeTimer !== undefined) return
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined
      this.writeRuns().catch((err: unknown) => this.settings.logger?.warn({ err }, 'probe results not written'))
    }, WRITE_DELAY_MS)
    this.writeTimer.unref()
  }

  /**
   * Write every run not yet written, in one transaction (`recordMany`), after the writes under
   * way; a failed write puts its runs back for the next one.
   */
  private async writeRuns (): Promise<void> {
    const previous = this.writing
    const next = (async () => {
      await previous
      const runs = this.unwritten.splice(0)
      if (runs.length === 0) return
      try {
        await this.store.traffic.recordMany(runs)
      } catch (err) {
        this.unwritten.unshift(...runs)
        throw err
      }
    })()
    this.writing = next.catch(() => {})
    await next
  }

  /** Decide a pool's records from every agent's latest results (one evaluation per pool at a time). */
  async evaluate (pool: TrafficPool, now: number): Promise<void> {
    const key = poolKeyOf(pool)
    const previous = this.evaluating.get(key) ?? Promise.resolve()
    const next = previous.then(async () => await this.evaluateNow(pool, now))
    const settled = next.catch(() => {})
    this.evaluating.set(key, settled)
    try {
      await next
    } finally {
      if (this.evaluating.get(key) === settled) this.evaluating.delete(key)
    }
  }

  private async evaluateNow (pool: TrafficPool, now: number): Promise<void> {
    const key = poolKeyOf(pool)
    const observations = await this.store.traffic.observations(pool.zoneId, pool.ownerKey, pool.rrtype)
    // Every agent's latest results as stored; this node's own from memory (its runs are written
    // within WRITE_DELAY_MS of finishing, not before the decision).
    const evidence: Evidence[] = observations.filter(o => o.agent !== this.settings.node).map(o => ({ record: o.record, probeId: o.probeId, agent: o.agent, ok: o.ok, at: Date.parse(o.at) }))
    const own = new Set<string>()
    for (const job of this.poolJobs.get(key) ?? []) {
      const run = this.lastRun.get(job.key)
      if (run === undefined) continue
      own.add(`${job.record}\u0000${job.probeId}`)
      evidence.push({ record: job.record, probeId: job.probeId, agent: this.settings.node, ok: run.ok, at: run.at })
    }
    // This node's stored results of checks it has not run since it started.
    for (const o of observations) {
      if (o.agent === this.settings.node && !own.has(`${o.record}\u0000${o.probeId}`)) evidence.push({ record: o.record, probeId: o.probeId, agent: o.agent, ok: o.ok, at: Date.parse(o.at) })
    }
    const rules: ProbeRule[] = pool.probes.map(p => ({ id: p.id, poolRecord: p.poolRecord, threshold: p.threshold, intervalMs: this.intervalMs(p.interval) }))
    const verdicts = judgePool(pool.profile, pool.rdataText, rules, evidence, this.intervalMs('MONITOR'), now)
    const rows = await this.store.traffic.health(pool.zoneId, { ownerKey: pool.ownerKey, rrtype: pool.rrtype })
    // Every probed record, UP unless its row says otherwise (rows of records no longer in the pool are left out).
    const monitored = probedRecords(pool.profile, pool.rdataText).map(r => r.record)
    const states = new Map<string, PoolRecordHealth>(monitored.map(r => [r, 'UP']))
    for (const r of rows) if (states.has(r.record)) states.set(r.record, r.state)
    let pending = false
    for (const v of verdicts) {
      const row = rows.find(r => r.record === v.record)
      const current = { state: row?.state ?? 'UP', pendingState: row?.pendingState ?? null, pendingSince: row?.pendingSince == null ? null : Date.parse(row.pendingSince) }
      const step = stepFor(v, current, now)
      const key: PoolRecordKey = { zoneId: pool.zoneId, ownerKey: pool.ownerKey, rrtype: pool.rrtype, record: v.record }
      if (step.kind === 'keep' && current.pendingState !== null) pending = true
      if (step.kind === 'clear-pending') await this.store.traffic.setPending(key, null)
      else if (step.kind === 'pend') {
        pending = true
        await this.store.traffic.setPending(key, { state: step.state, since: new Date(now).toISOString() })
      } else if (step.kind === 'change') {
        states.set(v.record, step.to)
        const allFail = allRecordsOut(pool.profile, pool.rdataText, states)
        const changed = await this.change(pool, key, step.from, step.to, now, allFail, v.why)
        if (!changed) states.set(v.record, (await this.store.traffic.health(pool.zoneId, { ownerKey: pool.ownerKey, rrtype: pool.rrtype })).find(r => r.record === v.record)?.state ?? 'UP')
      }
    }
    this.decided.set(key, { at: now, pending, states })
    this.publishIfChanged(pool, states)
  }

  /** Commit a state change with its failover event and audit record; false when another node made it first. */
  private async change (pool: TrafficPool, key: PoolRecordKey, from: PoolRecordHealth, to: PoolRecordHealth, now: number, allFail: boolean, why: string): Promise<boolean> {
    const at = new Date(now).toISOString()
    const stateName = (s: PoolRecordHealth): 'ACTIVE' | 'INACTIVE' => s === 'UP' ? 'ACTIVE' : 'INACTIVE'
    const reason = to === 'UP' ? 'Probe Success' : 'Probe Failure'
    const poolType = poolTypeOf(pool.profile.kind)
    return await this.store.transaction(async (tx) => {
      if (!await tx.traffic.changeState(key, from, to, at)) return false
      await tx.traffic.appendEvent({
        id: randomUUID(),
        at,
        accountId: pool.accountId,
        accountName: pool.accountName,
        zoneId: pool.zoneId,
        zoneName: pool.zoneName,
        poolName: pool.ownerName.toLowerCase(),
        poolRecord: key.record,
        recordType: recordTypeName(pool.rrtype),
        poolType,
        oldState: stateName(from),
        newState: stateName(to),
        reason,
        allFail,
        node: this.settings.node
      })
      await tx.audit.append({
        accountId: pool.accountId,
        accountName: pool.accountName,
        user: `probe agent ${this.settings.node}`,
        ipAddress: null,
        objectType: 'POOL_RECORD',
        changeType: to === 'UP' ? 'FAILBACK' : 'FAILOVER',
        object: key.record,
        parent: pool.ownerName,
        detail: {
          changes: [{ name: 'state', from: stateName(from), to: stateName(to) }],
          others: [{ name: 'reason', value: reason }, { name: 'poolType', value: poolType }, { name: 'allFailRecord', value: allFail }, { name: 'evidence', value: why }, { name: 'zone', value: pool.zoneName }]
        },
        changeTime: at
      })
      return true
    })
  }

  private publishIfChanged (pool: TrafficPool, states: ReadonlyMap<string, PoolRecordHealth>): void {
    const key = poolKeyOf(pool)
    const text = JSON.stringify([...states].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
    // Nothing was ever published and everything is UP: the default, nothing to say.
    if (this.published.get(key) === text || (!this.published.has(key) && [...states.values()].every(s => s === 'UP'))) {
      this.published.set(key, text)
      return
    }
    this.published.set(key, text)
    try {
      this.settings.publish({ zoneId: pool.zoneId, owner: pool.ownerName.toLowerCase(), type: pool.rrtype, health: new Map(states) })
    } catch (err) {
      this.settings.logger?.warn({ err }, 'pool states not published')
    }
  }

  /** Publish the states other nodes decided, for every pool whose states changed since last published. */
  private async follow (): Promise<void> {
    const byZone = new Map<string, TrafficPool[]>()
    for (const job of this.jobs.values()) {
      const pools = byZone.get(job.pool.zoneId) ?? []
      if (!pools.includes(job.pool)) pools.push(job.pool)
      byZone.set(job.pool.zoneId, pools)
    }
    for (const [zoneId, pools] of byZone) {
      const rows = await this.store.traffic.health(zoneId)
      for (const pool of pools) {
        const states = new Map<string, PoolRecordHealth>(probedRecords(pool.profile, pool.rdataText).map(r => [r.record, 'UP']))
        for (const r of rows) if (r.ownerKey === pool.ownerKey && r.rrtype === pool.rrtype && states.has(r.record)) states.set(r.record, r.state)
        this.publishIfChanged(pool, states)
      }
    }
  }

  /** The current health of every probed pool of a zone (what the DNS index reads when it loads the zone). */
  async poolStates (zoneId: string): Promise<PoolRecordStates[]> {
    return poolStatesOf(zoneId, await this.store.traffic.health(zoneId))
  }

  /** Run on a timer (every second) until {@link stop}. */
  start (): void {
    if (this.timer !== undefined || this.stopped) return
    this.timer = setInterval(() => {
      this.tick().catch((err: unknown) => this.settings.logger?.warn({ err }, 'probe schedule failed'))
    }, TICK_MS)
    this.timer.unref()
  }

  /** Stop the timer and the runs under way (their results are not recorded). */
  async stop (): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    this.timer = undefined
    this.abort.abort()
    for (const q of this.queue.splice(0)) q.done()
    await Promise.all([...this.inFlight])
    await Promise.all([...this.evaluating.values()])
    clearTimeout(this.writeTimer)
    this.writeTimer = undefined
    // The runs finished before the stop are kept.
    await this.writeRuns().catch((err: unknown) => this.settings.logger?.warn({ err }, 'probe results not written'))
  }
}

/** Group a zone's record health rows by pool, in the shape the DNS answer path reads. */
export function poolStatesOf (zoneId: string, rows: ReadonlyArray<{ ownerName: string, rrtype: number, record: string, state: PoolRecordHealth }>): PoolRecordStates[] {
  const byPool = new Map<string, PoolRecordStates & { health: Map<string, PoolRecordHealth> }>()
  for (const r of rows) {
    const owner = r.ownerName.toLowerCase()
    const key = `${owner}\u0000${r.rrtype}`
    let pool = byPool.get(key)
    if (pool === undefined) {
      pool = { zoneId, owner, type: r.rrtype, health: new Map() }
      byPool.set(key, pool)
    }
    pool.health.set(r.record, r.state)
  }
  return [...byPool.values()]
}
