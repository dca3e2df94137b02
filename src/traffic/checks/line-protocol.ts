import type { Socket } from 'node:net'
import { openTcp } from './tcp.ts'
import { deadline, errorText, type CheckContext, type Deadline } from './types.ts'

/** Longest reply read from a line protocol server. */
const MAX_REPLY = 16 * 1024

/**
 * Reads the replies of a line protocol (SMTP RFC 5321 §4.2, FTP RFC 959 §4.2): a reply is lines
 * `NNN-text` ending with a line `NNN text`; resolves with its code.
 */
export class ReplyReader {
  private buffer = ''
  private readonly waiting: Array<{ resolve: (code: number) => void, reject: (err: Error) => void }> = []
  private readonly codes: number[] = []
  private failure: Error | undefined

  constructor (socket: Socket) {
    socket.setEncoding('latin1')
    socket.on('data', (text: string) => {
      this.buffer += text
      if (this.buffer.length > MAX_REPLY) {
        this.fail(new Error('reply too long'))
        return
      }
      let nl: number
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl).replace(/\r$/, '')
        this.buffer = this.buffer.slice(nl + 1)
        const m = /^(\d{3})( |$)/.exec(line)
        if (m !== null) this.push(Number(m[1]))
      }
    })
    socket.on('error', (err) => this.fail(err))
    socket.on('close', () => this.fail(new Error('connection closed')))
  }

  private push (code: number): void {
    const w = this.waiting.shift()
    if (w !== undefined) w.resolve(code)
    else this.codes.push(code)
  }

  private fail (err: Error): void {
    this.failure ??= err
    for (const w of this.waiting.splice(0)) w.reject(err)
  }

  /** The next reply's code. */
  async next (): Promise<number> {
    const code = this.codes.shift()
    if (code !== undefined) return code
    if (this.failure !== undefined) throw this.failure
    return await new Promise<number>((resolve, reject) => this.waiting.push({ resolve, reject }))
  }
}

/** Await `p` unless `signal` aborts first. */
export async function within<T> (p: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted()
  return await new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
    signal.addEventListener('abort', onAbort, { once: true })
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** A line protocol session (SMTP, FTP): its connection, its replies, and the run's time limit. */
export interface LineSession {
  socket: Socket
  replies: ReplyReader
  /** The whole run's limit (`runMs`); `close` disposes of it. */
  run: Deadline
  close: () => void
}

/**
 * Connect to the pool record's `port` within `connectMs` (and the run's `runMs`); the failure's
 * one-line description when the connection is not made.
 */
export async function openSession (check: { port: number, connectMs: number, runMs: number }, ctx: CheckContext): Promise<LineSession | { failure: string }> {
  const run = deadline(check.runMs, ctx.signal)
  const connecting = deadline(check.connectMs, run.signal)
  let socket: Socket
  try {
    socket = await openTcp(ctx.address, check.port, connecting.signal)
  } catch (err) {
    run.dispose()
    return { failure: `port ${check.port}: ${errorText(err)}` }
  } finally {
    connecting.dispose()
  }
  return {
    socket,
    replies: new ReplyReader(socket),
    run,
    close: () => {
      socket.destroy()
      run.dispose()
    }
  }
}
