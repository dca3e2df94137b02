import type { QueryBatch } from './query-batch.ts'
import type { QuerySink } from './query-sink.ts'

export interface FlushedCountsOptions {
  /** How often the counts are written, milliseconds. */
  flushMs: number
  /** Told of each failed write (the counts are kept and written with the next flush). */
  onError?: (err: unknown) => void
}

/**
 * A sink that aggregates in memory (state `S`) and writes what it counted every `flushMs`, one
 * write at a time. A failed write gives its state back (merged into what was counted since) for
 * the next flush; `close()` writes what is left.
 */
export abstract class FlushedCounts<S> implements QuerySink {
  protected readonly opts: FlushedCountsOptions
  private timer: NodeJS.Timeout | undefined
  /** The write in progress, so flushes never overlap. */
  private writing: Promise<void> = Promise.resolve()

  constructor (opts: FlushedCountsOptions) {
    this.opts = opts
  }

  abstract write (batch: QueryBatch): void
  /** Hand over what was counted and start afresh; undefined when nothing was. */
  protected abstract take (): S | undefined
  /** Write what `take` handed over (all or nothing); reject on failure. */
  protected abstract send (taken: S): Promise<void>
  /** Add back what a failed `send` did not write. */
  protected abstract restore (taken: S): void

  /** Start the periodic flush. */
  start (): void {
    if (this.timer !== undefined) return
    this.timer = setInterval(() => { this.flush().catch(() => {}) }, this.opts.flushMs)
    this.timer.unref()
  }

  /**
   * Write what was counted so far. On failure the counts are kept (merged into what was
   * counted meanwhile) for the next flush, and the error is rethrown.
   */
  async flush (): Promise<void> {
    const run = this.writing.then(async () => {
      const taken = this.take()
      if (taken === undefined) return
      try {
        await this.send(taken)
      } catch (err) {
        this.restore(taken)
        this.opts.onError?.(err)
        throw err
      }
    })
    this.writing = run.catch(() => {})
    await run
  }

  /** Stop the periodic flush and write what is left. */
  async close (): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.flush()
  }
}
