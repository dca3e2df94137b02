import { PeriodicJob } from '../util/periodic-job.ts'

/** What the job asks of the storage (`store.usage`). */
export interface UsageDayCloser {
  closeDays (now: Date): Promise<string[]>
}

interface Logger {
  info (obj: object, msg: string): void
  warn (obj: object, msg: string): void
}

export interface UsageDaysOptions {
  /** How often it runs, milliseconds (an hour by default). */
  intervalMs?: number
  logger: Logger
  /** The clock (tests). */
  now?: () => Date
}

const HOUR_MS = 3_600_000

/**
 * The usage summary's daily snapshot (`store.usage.closeDays`): at start and then every hour,
 * every account gets today's row (the values of its last change carried over, so a day without
 * changes has its peaks) and the days just ended are closed with their query responses (the
 * last two, so counts a node flushed late are taken). Idempotent: every node may run it. A
 * failed run is logged and done again at the next.
 */
export class UsageDays extends PeriodicJob {
  private readonly store: UsageDayCloser
  private readonly opts: UsageDaysOptions

  constructor (store: UsageDayCloser, opts: UsageDaysOptions) {
    super(opts.intervalMs ?? HOUR_MS)
    this.store = store
    this.opts = opts
  }

  protected async once (): Promise<void> {
    try {
      const closed = await this.store.closeDays(this.opts.now?.() ?? new Date())
      this.opts.logger.info({ closed }, 'usage days closed')
    } catch (err) {
      this.opts.logger.warn({ err }, 'usage days could not be closed (tried again at the next run)')
    }
  }
}
