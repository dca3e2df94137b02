import { availableParallelism } from 'node:os'
import { Worker, type Transferable } from 'node:worker_threads'
import { ZonalError, type ErrorName } from '../errors/catalog.ts'

/** A call for a worker: the module to import, the function it exports, the arguments. */
export interface WorkerCall {
  id: number
  module: string
  fn: string
  args: unknown[]
}

/** What a worker answers: the function's value, or its error as plain data. */
export type WorkerReply =
  | { id: number, value: unknown }
  | { id: number, error: WorkerError }

/** An error crossing the thread boundary: a {@link ZonalError} keeps its code, params, details and message. */
export type WorkerError =
  | { zonal: { code: ErrorName, params: (string | number)[], details?: string[], message: string } }
  | { message: string, stack?: string }

/** The error of a worker as the caller sees it: the same ZonalError, or an Error with its message and stack. */
export function errorFromWorker (e: WorkerError): Error {
  if ('zonal' in e) {
    const err = new ZonalError(e.zonal.code, ...e.zonal.params)
    if (e.zonal.details !== undefined) err.details = e.zonal.details
    err.message = e.zonal.message
    return err
  }
  const err = new Error(e.message)
  if (e.stack !== undefined) err.stack = e.stack
  return err
}

/** An error as plain data, for {@link errorFromWorker} on the other side. */
export function errorForCaller (err: unknown): WorkerError {
  if (err instanceof ZonalError) {
    return { zonal: { code: err.code, params: [...err.params], ...(err.details === undefined ? {} : { details: [...err.details] }), message: err.message } }
  }
  return err instanceof Error ? { message: err.message, stack: err.stack } : { message: String(err) }
}

interface Job {
  call: WorkerCall
  transfer: Transferable[]
  resolve: (value: unknown) => void
  reject: (err: Error) => void
}

interface Slot {
  worker: Worker
  job: Job | undefined
  /** Stops the worker once it has been idle {@link WorkerPool} `idleMs`. */
  retire: NodeJS.Timeout | undefined
}

/**
 * How long a worker may stay idle before it is looked at, and the heap (used, garbage included)
 * from which it is then stopped. A thread's heap keeps what a large job left (the parse of a
 * 262,144-record upload left about 250 MB in it) until its next collection, which an idle thread
 * never has: stopping it gives all of it back. A worker after small jobs is kept (starting one
 * and importing its module again costs 100–200 ms).
 */
export const WORKER_IDLE_MS = 2000
export const WORKER_RETIRE_HEAP_BYTES = 64 * 1024 * 1024

const ENTRY = new URL('./worker-entry.ts', import.meta.url)

/**
 * A small pool of worker threads for CPU-heavy pure work (zone-file parsing and checks, zone
 * text, compression), so the event loop that serves the API and DNS keeps answering. A call
 * names a module and one of its exported functions ({@link offloaded}); the worker imports the
 * module (once) and runs the function with the arguments, which cross the thread boundary by
 * structured clone (transfer the `ArrayBuffer`s of large byte arrays). Workers start on first use
 * and do not keep the process alive while idle; one idle for `idleMs` with more than
 * `retireHeapBytes` of heap is stopped (its memory goes back to the system) and started again
 * by a later call. A worker that dies fails its call
 * and is replaced by the next call.
 */
export class WorkerPool {
  private readonly size: number
  private readonly idleMs: number
  private readonly retireHeapBytes: number
  private readonly slots: Slot[] = []
  private readonly queue: Job[] = []
  private nextId = 1
  private closed = false

  /**
   * @param size workers at most (default: one less than the cores, at least 1, at most 2).
   * @param idleMs how long a worker may stay idle before it is looked at ({@link WORKER_IDLE_MS}).
   * @param retireHeapBytes the heap from which an idle worker is stopped ({@link WORKER_RETIRE_HEAP_BYTES}).
   */
  constructor (size = Math.max(1, Math.min(2, availableParallelism() - 1)), idleMs = WORKER_IDLE_MS, retireHeapBytes = WORKER_RETIRE_HEAP_BYTES) {
    this.size = size
    this.idleMs = idleMs
    this.retireHeapBytes = retireHeapBytes
  }

  /** Worker threads running now (busy or idle). */
  get threads (): number {
    return this.slots.length
  }

  /**
   * Run `module`'s export `fn` with `args` in a worker; resolves to its value (awaited there), or
   * rejects with its error ({@link errorFromWorker}: a ZonalError comes back as the same code and
   * message). `transfer` lists buffers of `args` handed over instead of copied.
   */
  async run (module: string, fn: string, args: unknown[], transfer: Transferable[] = []): Promise<unknown> {
    if (this.closed) throw new Error('worker pool closed')
    return await new Promise((resolve, reject) => {
      this.queue.push({ call: { id: this.nextId++, module, fn, args }, transfer, resolve, reject })
      this.dispatch()
    })
  }

  /** Stop every worker; calls still queued or running fail. */
  async close (): Promise<void> {
    this.closed = true
    for (const job of this.queue.splice(0)) job.reject(new Error('worker pool closed'))
    await Promise.all(this.slots.splice(0).map(async s => {
      clearTimeout(s.retire)
      s.job?.reject(new Error('worker pool closed'))
      await s.worker.terminate()
    }))
  }

  private dispatch (): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find(s => s.job === undefined)
      if (slot === undefined && this.slots.length < this.size) slot = this.spawn()
      if (slot === undefined) return
      const job = this.queue.shift()!
      slot.job = job
      clearTimeout(slot.retire)
      slot.retire = undefined
      slot.worker.ref()
      slot.worker.postMessage(job.call, job.transfer)
    }
  }

  private spawn (): Slot {
    const worker = new Worker(ENTRY)
    const slot: Slot = { worker, job: undefined, retire: undefined }
    worker.on('message', (reply: WorkerReply) => {
      const job = slot.job
      if (job === undefined || job.call.id !== reply.id) return
      slot.job = undefined
      worker.unref()
      if ('error' in reply) job.reject(errorFromWorker(reply.error))
      else job.resolve(reply.value)
      this.dispatch()
      if (slot.job === undefined) this.retireLater(slot)
    })
    const lost = (err: Error): void => {
      clearTimeout(slot.retire)
      const i = this.slots.indexOf(slot)
      if (i < 0) return
      this.slots.splice(i, 1)
      slot.job?.reject(err)
      slot.job = undefined
      if (!this.closed) this.dispatch()
    }
    worker.on('error', lost)
    worker.on('exit', (code) => { lost(new Error(`worker thread stopped (exit code ${code})`)) })
    worker.unref()
    this.slots.push(slot)
    return slot
  }

  /** Stop a worker idle for `idleMs` whose heap is large, unless a call comes first. */
  private retireLater (slot: Slot): void {
    clearTimeout(slot.retire)
    slot.retire = setTimeout(() => {
      slot.retire = undefined
      if (slot.job !== undefined || !this.slots.includes(slot)) return
      slot.worker.getHeapStatistics().then((heap) => {
        const i = this.slots.indexOf(slot)
        if (slot.job !== undefined || slot.retire !== undefined || i < 0 || heap.used_heap_size < this.retireHeapBytes) return
        // Out of the pool at once: a call made while it stops gets another worker.
        this.slots.splice(i, 1)
        slot.worker.terminate().catch(() => {})
      }, () => {})
    }, this.idleMs)
    slot.retire.unref()
  }
}

let shared: WorkerPool | undefined

/** The process's pool (created on first use). */
export function sharedPool (): WorkerPool {
  shared ??= new WorkerPool()
  return shared
}

/** Stop the process's pool, if one was made (the service's close). A later call makes a new one. */
export async function closeSharedPool (): Promise<void> {
  const pool = shared
  shared = undefined
  await pool?.close()
}

/** The value of `F`'s promise, or of `F`. */
type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>

/**
 * `F` (an export named `fn` of `module`, a file URL) as an async function that runs in the shared
 * worker pool. Its arguments and value must survive structured cloning (plain data, typed
 * arrays); byte arrays that own their whole buffer are transferred back rather than copied.
 *
 * @example
 * const parse = offloaded<typeof import('./upload-records.ts').packUpload>(new URL('./upload-records.ts', import.meta.url), 'packUpload')
 */
export function offloaded<F extends (...args: never[]) => unknown> (module: URL, fn: string): (...args: Parameters<F>) => Promise<Result<F>> {
  return async (...args: Parameters<F>): Promise<Result<F>> => {
    const value: unknown = await sharedPool().run(module.href, fn, args)
    return value as Result<F>
  }
}
