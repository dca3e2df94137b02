// The worker thread of `worker-pool.ts`: runs the calls it is sent, one at a time.
import { enableCompileCache } from 'node:module'
import { setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import { errorForCaller, type WorkerCall, type WorkerReply } from './worker-pool.ts'

// The modules the calls name are imported later, from Node's compile cache (see main.ts).
enableCompileCache()

// Background work gives way: this thread runs at a lower priority (nice 10) than the DNS workers
// and the API's thread (on Linux the nice value is a thread's own; elsewhere, where it is the
// process's, the call is skipped).
if (process.platform === 'linux') {
  try {
    setPriority(0, 10)
  } catch {
    // Not allowed here: the thread runs at the process's priority.
  }
}

const modules = new Map<string, Promise<Record<string, unknown>>>()

/** The `ArrayBuffer`s of byte arrays in `value` (two levels deep) that they alone cover: handed over, not copied. */
function transferables (value: unknown, depth = 0, out = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    const buffer = value.buffer
    if (buffer instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === buffer.byteLength) out.add(buffer)
  } else if (depth < 2 && typeof value === 'object' && value !== null) {
    for (const v of Array.isArray(value) ? value : Object.values(value)) transferables(v, depth + 1, out)
  }
  return [...out]
}

async function answer (call: WorkerCall): Promise<void> {
  let reply: WorkerReply
  let transfer: ArrayBuffer[] = []
  try {
    let loading = modules.get(call.module)
    if (loading === undefined) {
      loading = import(call.module) as Promise<Record<string, unknown>>
      modules.set(call.module, loading)
    }
    const fn = (await loading)[call.fn]
    if (typeof fn !== 'function') throw new Error(`${call.module} has no function ${call.fn}`)
    const value: unknown = await (fn as (...args: unknown[]) => unknown)(...call.args)
    transfer = transferables(value)
    reply = { id: call.id, value }
  } catch (err) {
    reply = { id: call.id, error: errorForCaller(err) }
  }
  try {
    parentPort!.postMessage(reply, transfer)
  } catch (err) {
    // A value that cannot be cloned: the caller gets the error rather than waiting forever.
    parentPort!.postMessage({ id: call.id, error: errorForCaller(err) } satisfies WorkerReply)
  }
}

parentPort!.on('message', (call: WorkerCall) => { answer(call).catch(() => {}) })
