import type { Store } from '../store/store.ts'

export interface FollowerLogger {
  error (obj: object, msg: string): void
}

/** The two passes a follower runs: every zone's version compared, or some zones brought up to date. */
export interface FollowerPasses {
  all (): Promise<void>
  some (zoneIds: string[]): Promise<void>
}

/**
 * What follows the store's zones for an in-memory copy (the DNS index, the forwarding server's
 * table) shares: the zones the store reports changed (`Store.watchZones`: this process's commits
 * at once, other processes' through PostgreSQL LISTEN/NOTIFY or SQLite's data version) are
 * brought up to date one pass at a time (requests made meanwhile are taken together by the next
 * pass), and every `fullSyncMs` every zone's version is compared as well, so a missed
 * notification is caught up. Without notifications, versions are compared every 500 ms at most.
 */
export class ZoneFollower {
  private readonly pending = new Set<string>()
  private fullWanted = false
  private queued = false
  private work: Promise<void> = Promise.resolve()
  private timer: NodeJS.Timeout | undefined
  private stopWatch: (() => Promise<void>) | undefined
  private stoppedFlag = false
  private fullSyncMs: number

  private readonly store: Store
  private readonly logger: FollowerLogger
  /** What follows, for the log (`zone sync`, `web forward sync`). */
  private readonly what: string
  private readonly passes: FollowerPasses

  constructor (store: Store, logger: FollowerLogger, what: string, passes: FollowerPasses, fullSyncMs = 5000) {
    this.store = store
    this.logger = logger
    this.what = what
    this.passes = passes
    this.fullSyncMs = fullSyncMs
  }

  /** Whether `stop` was called: long passes end early. */
  get stopped (): boolean {
    return this.stoppedFlag
  }

  /**
   * Start watching, run the first load (`first`, else a pass over every zone) and resolve when it
   * is done, passes it asked for again (a zone changed while it loaded) included.
   */
  async start (first?: () => Promise<void>): Promise<void> {
    try {
      this.stopWatch = await this.store.watchZones(id => this.request(id), () => this.requestAll())
    } catch (err) {
      this.logger.error({ err }, `zone change notifications unavailable; polling zone versions (${this.what})`)
      this.fullSyncMs = Math.min(this.fullSyncMs, 500)
    }
    if (first === undefined) this.requestAll()
    else this.work = this.work.then(first).catch((err: unknown) => this.logger.error({ err }, `${this.what}: first load failed`))
    await this.settled()
    this.schedule()
  }

  async stop (): Promise<void> {
    this.stoppedFlag = true
    if (this.timer !== undefined) clearTimeout(this.timer)
    await this.stopWatch?.()
    await this.work
  }

  /** Bring one zone up to date soon. */
  request (zoneId: string): void {
    this.pending.add(zoneId)
    this.queue()
  }

  /** Compare every zone's version soon. */
  requestAll (): void {
    this.fullWanted = true
    this.queue()
  }

  /** Resolves when the work asked for so far is done. */
  async settled (): Promise<void> {
    do await this.work
    while (this.queued)
  }

  private queue (): void {
    if (this.queued || this.stoppedFlag) return
    this.queued = true
    this.work = this.work.then(async () => {
      this.queued = false
      const all = this.fullWanted
      const ids = [...this.pending]
      this.fullWanted = false
      this.pending.clear()
      if (all) await this.passes.all()
      else if (ids.length > 0) await this.passes.some(ids)
    }).catch((err: unknown) => this.logger.error({ err }, `${this.what} failed`))
  }

  private schedule (): void {
    if (this.stoppedFlag) return
    this.timer = setTimeout(() => {
      this.requestAll()
      this.work.finally(() => this.schedule()).catch(() => {})
    }, this.fullSyncMs)
    this.timer.unref()
  }
}
