import { openSession, within } from './line-protocol.ts'
import { errorText, type CheckContext, type CheckOutcome } from './types.ts'

/** Whether a text is safe on an FTP command line (no line breaks). */
function oneLine (text: string): string {
  return text.replace(/[\r\n]/g, '')
}

/**
 * An FTP probe (RFC 959) over the control connection only: a 220 greeting, `USER`/`PASS` (anonymous
 * when no user name is set) accepted, and when a path is set, `SIZE path` (RFC 3659) answered 213
 * (the file exists); then `QUIT`. No data connection is opened.
 */
export async function runFtp (check: { port: number, username: string, password: string, path: string, connectMs: number, runMs: number }, ctx: CheckContext): Promise<CheckOutcome> {
  const started = performance.now()
  const done = (ok: boolean, message: string): CheckOutcome => ({ ok, message, durationMs: performance.now() - started })
  const session = await openSession(check, ctx)
  if ('failure' in session) return done(false, session.failure)
  const { socket, replies, run } = session
  try {
    const greeting = await within(replies.next(), run.signal)
    if (greeting !== 220) return done(false, `greeting ${greeting}, expected 220`)
    socket.write(`USER ${oneLine(check.username === '' ? 'anonymous' : check.username)}\r\n`)
    let code = await within(replies.next(), run.signal)
    if (code === 331) {
      socket.write(`PASS ${oneLine(check.password)}\r\n`)
      code = await within(replies.next(), run.signal)
    }
    if (code !== 230) return done(false, `login answered ${code}, expected 230`)
    if (check.path !== '') {
      socket.write(`SIZE ${oneLine(check.path)}\r\n`)
      const size = await within(replies.next(), run.signal)
      if (size !== 213) return done(false, `SIZE ${check.path} answered ${size}, expected 213`)
    }
    socket.write('QUIT\r\n')
    return done(true, check.path === '' ? 'logged in' : `logged in, ${check.path} found`)
  } catch (err) {
    return done(false, errorText(err))
  } finally {
    session.close()
  }
}
