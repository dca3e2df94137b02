import { openSession, within } from './line-protocol.ts'
import { errorText, type CheckContext, type CheckOutcome } from './types.ts'

/**
 * An SMTP probe (RFC 5321): connect, a 220 greeting, `EHLO` answered 250, then `QUIT`. No mail
 * is sent.
 */
export async function runSmtp (check: { port: number, connectMs: number, runMs: number }, ctx: CheckContext): Promise<CheckOutcome> {
  const started = performance.now()
  const done = (ok: boolean, message: string): CheckOutcome => ({ ok, message, durationMs: performance.now() - started })
  const session = await openSession(check, ctx)
  if ('failure' in session) return done(false, session.failure)
  const { socket, replies, run } = session
  try {
    const greeting = await within(replies.next(), run.signal)
    if (greeting !== 220) return done(false, `greeting ${greeting}, expected 220`)
    socket.write('EHLO zonal-probe\r\n')
    const ehlo = await within(replies.next(), run.signal)
    if (ehlo !== 250) return done(false, `EHLO answered ${ehlo}, expected 250`)
    socket.write('QUIT\r\n')
    return done(true, 'greeting 220, EHLO 250')
  } catch (err) {
    return done(false, errorText(err))
  } finally {
    session.close()
  }
}
