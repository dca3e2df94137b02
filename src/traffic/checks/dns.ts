import { query } from '../../dns/client/query.ts'
import { parseName } from '../../zone/name.ts'
import { formatRdata } from '../../zone/rdata/index.ts'
import { deadline, errorText, type CheckContext, type CheckOutcome } from './types.ts'

const RCODE_NAMES: Record<number, string> = { 0: 'NOERROR', 1: 'FORMERR', 2: 'SERVFAIL', 3: 'NXDOMAIN', 4: 'NOTIMP', 5: 'REFUSED' }

/** Whether an answer's rdata text matches `fail` (exactly, any case; several fields: a part). */
function matchesFail (text: string, fail: string): boolean {
  const a = text.toLowerCase().replace(/\.$/, '')
  const f = fail.toLowerCase().replace(/\.$/, '')
  return a === f || (a.includes(' ') && a.includes(f))
}

/**
 * A DNS probe: ask the pool record's address (over UDP, then TCP when truncated; TCP only when
 * asked) for `qname`/`qtype`. It passes when an answer comes in time with NOERROR or NXDOMAIN
 * (the server serves) and no answer record matches the failure response (`limits.response.fail`).
 */
export async function runDns (check: { port: number, tcpOnly: boolean, qtype: number, qname: string, failResponse: string, runMs: number }, ctx: CheckContext): Promise<CheckOutcome> {
  const started = performance.now()
  const done = (ok: boolean, message: string): CheckOutcome => ({ ok, message, durationMs: performance.now() - started })
  const run = deadline(check.runMs, ctx.signal)
  const server = { host: ctx.address, port: check.port }
  try {
    const name = parseName(check.qname === '' ? '.' : check.qname.endsWith('.') ? check.qname : `${check.qname}.`)
    const opts = { signal: run.signal, timeoutMs: check.runMs, retries: 0 }
    let m = await query(server, name, check.qtype, { ...opts, transport: check.tcpOnly ? 'tcp' : 'udp' })
    if (m.tc && !check.tcpOnly) m = await query(server, name, check.qtype, { ...opts, transport: 'tcp' })
    if (m.rcode !== 0 && m.rcode !== 3) return done(false, `answered ${RCODE_NAMES[m.rcode] ?? `rcode ${m.rcode}`}`)
    if (check.failResponse !== '') {
      for (const rr of m.answers) {
        const text = formatRdata(rr.type, rr.rdata)
        if (matchesFail(text, check.failResponse)) return done(false, `answered ${text}, the failure response`)
      }
    }
    return done(true, `answered ${RCODE_NAMES[m.rcode]!} with ${m.answers.length} record(s)`)
  } catch (err) {
    return done(false, errorText(err))
  } finally {
    run.dispose()
  }
}
