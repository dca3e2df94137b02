import { AsyncResource } from 'node:async_hooks'
import { isZonalError } from '../errors/catalog.ts'
import type { TaskRow } from '../store/schema.ts'
import type { Store, TaskResultFile } from '../store/store.ts'

/** What a job gets: its task row, the parsed payload, the store and a progress reporter. */
export interface TaskContext {
  task: TaskRow
  /** The task's JSON payload, parsed (undefined when it has none). */
  payload: unknown
  store: Store
  /**
   * Show progress in the task message (`fraction` 0–1) and extend the lease. A worker that lost
   * its task (its lease went to another worker) gets `signal` aborted.
   */
  reportProgress (message: string, fraction: number): Promise<void>
  /** Aborted when this worker no longer holds the task; a long job should stop then. */
  signal: AbortSignal
}

/** What a job produced. */
export interface TaskOutcome {
  /** The task message once COMPLETE, e.g. "example.org. export completed.". */
  message: string
  /** The file `GET /tasks/{id}/result` serves; none when the job has no data. */
  result?: TaskResultFile | null
  /** Writes that must commit with the completion (audit records), in its transaction. */
  onComplete?: (tx: Store) => Promise<void>
}

/**
 * A job. Resolve with the outcome, or throw: a {@link ZonalError}'s message becomes the task's
 * ERROR message; any other error becomes "System Error" and a log line.
 */
export type TaskHandler = (ctx: TaskContext) => Promise<TaskOutcome>

/** The logger calls the runner makes (a pino logger fits). */
export interface TaskLogger {
  error (obj: object, msg: string): void
  warn (obj: object, msg: string): void
  info? (obj: object, msg: string): void
}

export interface TaskRunnerOptions {
  /** This process's name in `locked_by` (each claim adds a sequence number). */
  workerId: string
  /** Jobs run at once. Default 2. */
  concurrency?: number
  /** How often to look for new tasks, in ms. Default 250. */
  pollMs?: number
  /** Lease of a claimed task, renewed by a heartbeat every third of it. Default 60 s. */
  leaseSeconds?: number
  /** Runs of a task whose worker stopped before it ends ERROR. Default 3. */
  maxAttempts?: number
  /** Finished tasks are deleted this long after they finished. Default 7 days. */
  retentionSeconds?: number
  /** How often to recover expired leases and apply the retention, in ms. Default min(30 s, lease / 2). */
  maintenanceMs?: number
  /** Audit records are deleted this long after their change; 0 (the default) keeps them. */
  auditRetentionSeconds?: number
  logger?: TaskLogger
}

/** Written to standard error as one JSON line per event when no logger is given. */
const stderrLogger: TaskLogger = {
  error: (obj, msg) => { process.stderr.write(JSON.stringify({ level: 'error', msg, ...errorFields(obj) }) + '\n') },
  warn: (obj, msg) => { process.stderr.write(JSON.stringify({ level: 'warn', msg, ...errorFields(obj) }) + '\n') }
}

function errorFields (obj: object): object {
  const err = (obj as { err?: unknown }).err
  return err instanceof Error ? { ...obj, err: { message: err.message, stack: err.stack } } : obj
}

/**
 * The durable task runner (STYLE.md §4.5): claims PENDING tasks from the store (several
 * runners, in one process or on many nodes, share the work), runs each kind's handler and
 * records the outcome as data: COMPLETE with the result, or ERROR with a message. A handler that
 * throws never stops the runner. A heartbeat keeps the lease of a running job; when a process
 * dies its leases expire and the periodic recovery puts the task back to PENDING (ERROR once
 * `maxAttempts` runs were cut short). Finished tasks are deleted after the retention, and audit
 * records after theirs when one is set.
 */
export class TaskRunner {
  private readonly concurrency: number
  private readonly pollMs: number
  private readonly leaseSeconds: number
  private readonly maxAttempts: number
  private readonly retentionSeconds: number
  private readonly auditRetentionSeconds: number
  private readonly maintenanceMs: number
  private readonly logger: TaskLogger
  private readonly running = new Set<Promise<void>>()
  private started = false
  private stopping = false
  private filling: Promise<void> | undefined
  private maintaining: Promise<void> | undefined
  private again = false
  private claims = 0
  private timers: NodeJS.Timeout[] = []
  private readonly handlers: Record<string, TaskHandler>
  /** {@link wake}'s work, bound to the async context the runner was made in. */
  private readonly wakeInOwnContext: () => void

  private readonly store: Store
  private readonly options: TaskRunnerOptions

  constructor (
    store: Store,
    handlers: Readonly<Record<string, TaskHandler>>,
    options: TaskRunnerOptions
  ) {
    this.store = store
    this.options = options
    this.handlers = { ...handlers }
    this.wakeInOwnContext = AsyncResource.bind(() => this.fillNow())
    this.concurrency = Math.max(1, options.concurrency ?? 2)
    this.pollMs = options.pollMs ?? 250
    this.leaseSeconds = options.leaseSeconds ?? 60
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3)
    this.retentionSeconds = options.retentionSeconds ?? 7 * 86400
    this.auditRetentionSeconds = options.auditRetentionSeconds ?? 0
    this.maintenanceMs = options.maintenanceMs ?? Math.min(30_000, this.leaseSeconds * 500)
    this.logger = options.logger ?? stderrLogger
  }

  /** Start polling; recovers expired leases at once. Calling it twice does nothing. */
  start (): void {
    if (this.started) return
    this.started = true
    this.timers = [
      setInterval(() => this.wake(), this.pollMs),
      setInterval(() => this.maintainOnce(), this.maintenanceMs)
    ]
    for (const t of this.timers) t.unref()
    this.maintainOnce()
    this.wake()
  }

  /**
   * Add the handler of a task kind the runner was made without: jobs that need the HTTP app
   * (`POST /batch?async=true` registers its own when the app is built).
   */
  register (kind: string, handler: TaskHandler): void {
    this.handlers[kind] = handler
  }

  /**
   * Look for work now (after a task was created), instead of at the next poll. The claims and
   * jobs run in the runner's own async context, never in the caller's: a route waking the runner
   * inside an ambient transaction (a batch) must not have the runner's queries join it.
   */
  wake (): void {
    this.wakeInOwnContext()
  }

  private fillNow (): void {
    if (!this.started || this.stopping) return
    if (this.filling !== undefined) {
      this.again = true
      return
    }
    this.filling = this.fill().finally(() => {
      this.filling = undefined
      if (this.again) {
        this.again = false
        this.fillNow()
      }
    })
  }

  /** Stop claiming and wait for the running jobs to finish. */
  async stop (): Promise<void> {
    this.stopping = true
    for (const t of this.timers) clearInterval(t)
    this.timers = []
    await this.filling
    await this.maintaining
    await Promise.allSettled([...this.running])
  }

  /** Jobs running now. */
  get active (): number {
    return this.running.size
  }

  private async fill (): Promise<void> {
    while (!this.stopping && this.running.size < this.concurrency) {
      const lock = `${this.options.workerId}#${++this.claims}`
      let task: TaskRow | undefined
      try {
        task = await this.store.tasks.claim(lock, this.leaseSeconds)
      } catch (err) {
        this.logger.warn({ err }, 'task claim failed')
        return
      }
      if (task === undefined) return
      const job: Promise<void> = this.run(task, lock).finally(() => {
        this.running.delete(job)
        this.wake()
      })
      this.running.add(job)
    }
  }

  private async run (task: TaskRow, lock: string): Promise<void> {
    const { store, leaseSeconds } = this
    const lost = new AbortController()
    const keep = (ok: boolean): void => { if (!ok) lost.abort(new Error('task lease lost')) }
    const heartbeat = setInterval(() => {
      store.tasks.heartbeat(task.id, lock, leaseSeconds).then(keep, (err: unknown) => this.logger.warn({ err, taskId: task.id }, 'task heartbeat failed'))
    }, Math.max(10, leaseSeconds * 1000 / 3))
    heartbeat.unref()
    try {
      const handler = this.handlers[task.kind]
      if (handler === undefined) {
        this.logger.error({ taskId: task.id, kind: task.kind }, 'no handler for this task kind')
        await store.tasks.fail(task.id, lock, `Task failed: this server cannot run tasks of kind "${task.kind}"`)
        return
      }
      const outcome = await handler({
        task,
        payload: task.payload === null ? undefined : JSON.parse(task.payload),
        store,
        signal: lost.signal,
        reportProgress: async (message, fraction) => {
          keep(await store.tasks.progress(task.id, lock, message, fraction * 100, leaseSeconds))
        }
      })
      clearInterval(heartbeat)
      await store.transaction(async (tx) => {
        const held = await tx.tasks.complete(task.id, lock, outcome.result ?? null, outcome.message)
        if (held && outcome.onComplete !== undefined) await outcome.onComplete(tx)
      })
    } catch (err) {
      clearInterval(heartbeat)
      let message = 'System Error'
      if (isZonalError(err)) message = err.message
      else this.logger.error({ err, taskId: task.id, kind: task.kind }, 'task failed with an unexpected error')
      await store.tasks.fail(task.id, lock, message).catch((failErr: unknown) => {
        // The lease will expire and the recovery retries the task.
        this.logger.error({ err: failErr, taskId: task.id }, 'could not record the task failure')
      })
    } finally {
      clearInterval(heartbeat)
    }
  }

  private maintainOnce (): void {
    if (this.maintaining !== undefined || this.stopping) return
    this.maintaining = this.maintain().finally(() => { this.maintaining = undefined })
  }

  private async maintain (): Promise<void> {
    try {
      const recovered = await this.store.tasks.recoverExpired(this.maxAttempts)
      if (recovered.requeued + recovered.failed > 0) {
        this.logger.warn({ ...recovered }, 'recovered tasks whose worker stopped')
        this.wake()
      }
      const cutoff = new Date(Date.now() - this.retentionSeconds * 1000).toISOString()
      await this.store.tasks.deleteFinishedBefore(cutoff)
      if (this.auditRetentionSeconds > 0) {
        const before = new Date(Date.now() - this.auditRetentionSeconds * 1000).toISOString()
        const deleted = await this.store.audit.deleteBefore(before)
        if (deleted > 0) this.logger.info?.({ deleted, before }, 'deleted audit records past their retention')
      }
      // Report requests carry their own expiry (60 days after the request).
      const expired = await this.store.reportRequests.deleteExpired(new Date().toISOString())
      if (expired > 0) this.logger.info?.({ deleted: expired }, 'deleted report requests past their retention')
    } catch (err) {
      this.logger.warn({ err }, 'task maintenance failed')
    }
  }
}
