import { runDns } from './dns.ts'
import { runFtp } from './ftp.ts'
import { runHttp } from './http.ts'
import { runSmtp } from './smtp.ts'
import { runTcp } from './tcp.ts'
import type { CheckContext, CheckOutcome, ProbeCheck } from './types.ts'

export type { CheckContext, CheckOutcome, HttpTransaction, ProbeCheck } from './types.ts'

/** Run one check against one pool record; never throws (a failure is an outcome). */
export async function runCheck (check: ProbeCheck, ctx: CheckContext): Promise<CheckOutcome> {
  switch (check.kind) {
    case 'HTTP': return await runHttp(check, ctx)
    case 'TCP': return await runTcp(check, ctx)
    case 'DNS': return await runDns(check, ctx)
    case 'SMTP': return await runSmtp(check, ctx)
    case 'FTP': return await runFtp(check, ctx)
    default: {
      const never: never = check
      return { ok: false, message: `unknown check ${String((never as { kind: unknown }).kind)}`, durationMs: 0 }
    }
  }
}
