import { PeriodicJob } from '../util/periodic-job.ts'

/** What one table's retention removed (as the store reports it). */
export interface PrunedTable {
  table: string
  firstKept: string
  deleted: number
  droppedPartitions: string[]
}

/** The upkeep the job asks of the storage (`store.analyticsData`, wired in `cli/serve.ts`). */
export interface AnalyticsUpkeep {
  /** Create the storage the next writes need (PostgreSQL: this month's and the next month's partitions). */
  preparePartitions (now: Date): Promise<string[]>
  /** Remove the rows older than each table's retention. */
  prune (now: Date): Promise<PrunedTable[]>
}

interface Logger {
  info (obj: object, msg: string): void
  warn (obj: object, msg: string): void
}

export interface AnalyticsRetentionOptions {
  /** How often the upkeep runs, milliseconds (a day by default). */
  intervalMs?: number
  logger: Logger
  /** The clock (tests). */
  now?: () => Date
}

const DAY_MS = 86_400_000

/**
 * The analytics tables' daily upkeep: at start and then every day, partitions created ahead and
 * rows past their retention removed (the tables and their limits are the store's
 * `analytics-tables.ts`). Runs are never concurrent in one process; several processes may run
 * it at once (the store serialises partition changes). A failed run is logged and retried at
 * the next.
 */
export class AnalyticsRetention extends PeriodicJob {
  private readonly upkeep: AnalyticsUpkeep
  private readonly opts: AnalyticsRetentionOptions

  constructor (upkeep: AnalyticsUpkeep, opts: AnalyticsRetentionOptions) {
    super(opts.intervalMs ?? DAY_MS)
    this.upkeep = upkeep
    this.opts = opts
  }

  protected async once (): Promise<void> {
    const now = this.opts.now?.() ?? new Date()
    try {
      const created = await this.upkeep.preparePartitions(now)
      if (created.length > 0) this.opts.logger.info({ created }, 'analytics partitions created')
      const pruned = (await this.upkeep.prune(now)).filter(p => p.deleted > 0 || p.droppedPartitions.length > 0)
      if (pruned.length > 0) this.opts.logger.info({ pruned }, 'analytics rows past their retention removed')
    } catch (err) {
      this.opts.logger.warn({ err }, 'analytics retention failed (tried again at the next run)')
    }
  }
}
