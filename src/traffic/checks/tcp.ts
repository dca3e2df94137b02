import { connect, type Socket } from 'node:net'
import { deadline, errorText, type CheckContext, type CheckOutcome } from './types.ts'

/** Open a TCP connection to `host:port` within `signal`; rejects on refusal or timeout. */
export async function openTcp (host: string, port: number, signal: AbortSignal): Promise<Socket> {
  return await new Promise<Socket>((resolve, reject) => {
    const socket = connect({ host, port, signal })
    socket.once('connect', () => resolve(socket))
    socket.once('error', (err) => {
      socket.destroy()
      reject(err)
    })
  })
}

/** A TCP probe: it passes when a connection to the port opens in time (closed at once). */
export async function runTcp (check: { port: number, controlIP: string | null, connectMs: number }, ctx: CheckContext): Promise<CheckOutcome> {
  const started = performance.now()
  const host = check.controlIP ?? ctx.address
  const connecting = deadline(check.connectMs, ctx.signal)
  try {
    const socket = await openTcp(host, check.port, connecting.signal)
    socket.destroy()
    return { ok: true, message: `connected to port ${check.port}`, durationMs: performance.now() - started }
  } catch (err) {
    return { ok: false, message: `port ${check.port}: ${errorText(err)}`, durationMs: performance.now() - started }
  } finally {
    connecting.dispose()
  }
}
