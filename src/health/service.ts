import type { QueryServer } from '../dns/client/query.ts'
import type { Store } from '../store/store.ts'
import { observeZone } from './observe.ts'
import { Pacer } from '../dns/client/pacer.ts'
import { runChecks } from './run.ts'
import { countStatuses, type StatusCounts } from './score.ts'
import type { CategoryResults } from './types.ts'

/** Report versions kept per zone (the real API keeps the current and the previous run). */
export const VERSIONS_KEPT = 2

export interface HealthSettings {
  /** Recursive resolvers (`ZONAL_RESOLVERS`); none: the checks needing the DNS are NOT_APPLICABLE. */
  resolvers: QueryServer[]
  /** The port nameservers are asked on (`ZONAL_HEALTH_NS_PORT`). */
  nsPort: number
  /** Checks run at once by this process (`ZONAL_HEALTH_CONCURRENCY`). */
  concurrency: number
  /** Queries a second to any one server (`ZONAL_HEALTH_QPS`). */
  perServerQps: number
  /** Every zone is checked again this long after its last check (`ZONAL_HEALTH_INTERVAL`); 0: no schedule. */
  intervalMs: number
  /** A changed zone is checked this long after its last change (debounce); 0: not on change. */
  changeDelayMs: number
  /** Per-query timeout. */
  queryTimeoutMs?: number
  logger?: { warn (obj: object, msg: string): void, info? (obj: object, msg: string): void }
}

/** Results counted per category: what the health status reports read. */
export function countsOf (checks: CategoryResults[]): Record<string, StatusCounts> {
  return Object.fromEntries(checks.map(c => [c.category, countStatuses(c.results.map(r => r.status))]))
}

/** A version for a check starting at `at`: its time as 'YYYY-MM-DDTHH:mm:ss.sssZ'. */
export function versionAt (at: Date): string {
  return at.toISOString()
}

/**
 * Runs DNS health checks in this process: on request (`start`), on a schedule for every zone,
 * and after a zone changes. Checks wait in a queue and run `concurrency` at a time; queries to
 * any one server are paced (`perServerQps`). Each check's report is written to the store as it
 * starts (IN_PROGRESS) and when it ends (COMPLETED, or FAILED with the reason).
 */
export class HealthChecker {
  private readonly store: Store
  private readonly settings: HealthSettings
  private readonly pacer: Pacer
  private readonly queue: Array<{ zoneId: string, version: string }> = []
  /** Zones queued or running, by id. */
  private readonly pending = new Set<string>()
  private readonly running = new Set<Promise<void>>()
  private readonly changed = new Map<string, NodeJS.Timeout>()
  private timer: NodeJS.Timeout | undefined
  private stopWatching: (() => Promise<void>) | undefined
  private stopped = false
  private readonly abort = new AbortController()

  constructor (store: Store, settings: HealthSettings) {
    this.store = store
    this.settings = settings
    this.pacer = new Pacer(settings.perServerQps)
  }

  /**
   * Start a check of the zone now (its row IN_PROGRESS at once) and return its version. A zone
   * whose check is already waiting or running gets a new version all the same (the request
   * asked for one); the queue runs it after the earlier one.
   */
  async start (zoneId: string, at = new Date()): Promise<string> {
    let time = at.getTime()
    // Two checks of one zone in the same millisecond get distinct versions.
    while (!await this.store.healthChecks.start(zoneId, versionAt(new Date(time)), VERSIONS_KEPT)) time++
    const version = versionAt(new Date(time))
    this.enqueue(zoneId, version)
    return version
  }

  private enqueue (zoneId: string, version: string): void {
    this.pending.add(zoneId)
    this.queue.push({ zoneId, version })
    this.fill()
  }

  private fill (): void {
    while (!this.stopped && this.running.size < this.settings.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!
      const run = this.run(job.zoneId, job.version).finally(() => {
        this.running.delete(run)
        if (!this.queue.some(j => j.zoneId === job.zoneId)) this.pending.delete(job.zoneId)
        this.fill()
      })
      this.running.add(run)
    }
  }

  /** Run one check and record its outcome; never throws. */
  private async run (zoneId: string, version: string): Promise<void> {
    let end: Parameters<Store['healthChecks']['finish']>[2]
    try {
      const zone = await this.store.zones.findById(zoneId)
      if (zone === undefined) return
      const observation = await observeZone(this.store, zone, {
        resolvers: this.settings.resolvers,
        nsPort: this.settings.nsPort,
        pace: async (address) => await this.pacer.wait(address),
        signal: this.abort.signal,
        ...(this.settings.queryTimeoutMs === undefined ? {} : { timeoutMs: this.settings.queryTimeoutMs })
      })
      const checks = runChecks(observation)
      const parent = observation.network?.parent
      end = { state: 'COMPLETED', checks: JSON.stringify(checks), counts: countsOf(checks), message: null, finishedAt: new Date().toISOString(), delegation: parent?.ok === true ? parent.ns : null }
    } catch (err) {
      const message = this.abort.signal.aborted ? 'The check was stopped: the service shut down.' : 'The check could not be completed.'
      if (!this.abort.signal.aborted) this.settings.logger?.warn({ err, zoneId, version }, 'health check failed')
      end = { state: 'FAILED', checks: null, counts: null, message, finishedAt: new Date().toISOString() }
    }
    try {
      await this.store.healthChecks.finish(zoneId, version, end)
    } catch (err) {
      this.settings.logger?.warn({ err, zoneId, version }, 'health check outcome not written')
    }
  }

  /** Queue the zones due for their scheduled check (never checked, or last checked an interval ago). */
  async checkDue (now = new Date()): Promise<number> {
    const room = Math.max(0, 1000 - this.queue.length)
    if (room === 0) return 0
    const due = await this.store.healthChecks.due(new Date(now.getTime() - this.settings.intervalMs).toISOString(), room)
    let queued = 0
    for (const zone of due) {
      if (this.pending.has(zone.id) || this.stopped) continue
      await this.start(zone.id, now)
      queued++
    }
    return queued
  }

  /**
   * Start the schedule (every zone checked once an interval, looked for every minute at most)
   * and the checks after changes (a zone changed is checked `changeDelayMs` after its last change).
   */
  async startSchedule (): Promise<void> {
    if (this.settings.intervalMs > 0) {
      const tick = (): void => {
        this.checkDue().catch((err: unknown) => this.settings.logger?.warn({ err }, 'scheduled health checks not queued'))
      }
      this.timer = setInterval(tick, Math.min(60_000, this.settings.intervalMs))
      this.timer.unref()
      tick()
    }
    if (this.settings.changeDelayMs > 0) {
      this.stopWatching = await this.store.watchZones((zoneId) => this.zoneChanged(zoneId), () => {})
    }
  }

  private zoneChanged (zoneId: string): void {
    if (this.stopped) return
    clearTimeout(this.changed.get(zoneId))
    const timer = setTimeout(() => {
      this.changed.delete(zoneId)
      this.checkChanged(zoneId).catch((err: unknown) => this.settings.logger?.warn({ err, zoneId }, 'health check after a change not queued'))
    }, this.settings.changeDelayMs)
    timer.unref()
    this.changed.set(zoneId, timer)
  }

  private async checkChanged (zoneId: string): Promise<void> {
    if (this.pending.has(zoneId) || this.stopped) return
    const zone = await this.store.zones.findById(zoneId)
    if (zone === undefined || zone.zone_type === 'SECONDARY' || zone.status !== 'ACTIVE') return
    await this.start(zoneId)
  }

  /** Resolves when no check is waiting or running (tests). */
  async idle (): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running])
  }

  /** Stop the schedule, drop what waits, cut running checks short (they end FAILED). */
  async stop (): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    for (const t of this.changed.values()) clearTimeout(t)
    this.changed.clear()
    await this.stopWatching?.()
    for (const job of this.queue.splice(0)) {
      await this.store.healthChecks.finish(job.zoneId, job.version, { state: 'FAILED', checks: null, counts: null, message: 'The check was stopped: the service shut down.', finishedAt: new Date().toISOString() }).catch(() => {})
    }
    this.abort.abort(new Error('health checks stopped'))
    await Promise.all([...this.running])
  }
}
