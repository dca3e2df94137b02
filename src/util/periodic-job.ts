/**
 * A job run at start and then every `intervalMs` in the background: runs never overlap in one
 * process (a run waits for the one under way), `run()` starts one at once (tests, a forced run),
 * `stop()` ends the schedule and waits for the run under way. `once` must not reject: a job logs
 * its failure and is run again at the next interval.
 */
export abstract class PeriodicJob {
  private readonly intervalMs: number
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> = Promise.resolve()

  constructor (intervalMs: number) {
    this.intervalMs = intervalMs
  }

  /** One run of the job; logs its own failures. */
  protected abstract once (): Promise<void>

  /** Run now (in the background) and then every interval. */
  start (): void {
    if (this.timer !== undefined) return
    this.timer = setInterval(() => { this.run().catch(() => {}) }, this.intervalMs)
    this.timer.unref()
    this.run().catch(() => {})
  }

  /** One run after the one under way, if any; never rejects (a failure is logged). */
  async run (): Promise<void> {
    this.running = this.running.then(async () => await this.once())
    await this.running
  }

  /** Stop the runs and wait for the one under way. */
  async stop (): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.running
  }
}
