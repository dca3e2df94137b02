import { msg, notApplicable, outcome } from '../status.ts'
import type { HealthCheck, MessageStatus, Observation, SoaView } from '../types.ts'

/**
 * The SOA timers against their best-practice ranges, one check each, as the real API reports
 * them ("SOA REFRESH is present and valid" …):
 * - REFRESH 1200–43200 s (RFC 1912 §2.2: 20 minutes to 12 hours);
 * - RETRY 180–7200 s and below REFRESH (RFC 1912 §2.2: a retry shorter than the refresh);
 * - EXPIRE 1209600–3628800 s (RFC 1912 §2.2: 2 to 4 weeks, RIPE-203's 1000 hours within 6 weeks);
 *   under a week, or not above REFRESH + RETRY, an ERROR: secondaries drop the zone at the first outage;
 * - MINIMUM, the negative-caching TTL, 300–86400 s (RFC 2308 §5: 1 to 3 hours advised, at most a day).
 */
interface TimerRule {
  field: 'refresh' | 'retry' | 'expire' | 'minimum'
  low: number
  high: number
  description: string
  /** A harder limit than the range: its message when broken. */
  error?: (soa: SoaView) => string | undefined
}

const RULES: TimerRule[] = [
  { field: 'refresh', low: 1200, high: 43200, description: 'How often secondaries check the primary for a new serial; RFC 1912 §2.2 advises 20 minutes to 12 hours (1200–43200 s).' },
  {
    field: 'retry',
    low: 180,
    high: 7200,
    description: 'How long a secondary waits to retry a failed refresh; it should be shorter than the refresh (RFC 1912 §2.2); 180–7200 s.',
    error: soa => soa.retry >= soa.refresh ? `is not shorter than the refresh value of '${soa.refresh}'` : undefined
  },
  {
    field: 'expire',
    low: 1209600,
    high: 3628800,
    description: 'How long secondaries keep serving the zone without reaching the primary; RFC 1912 §2.2 advises 2 to 4 weeks, RIPE-203 1000 hours (1209600–3628800 s).',
    error: soa => soa.expire < 604800 ? 'is under a week' : soa.expire <= soa.refresh + soa.retry ? 'is not longer than refresh and retry together' : undefined
  },
  { field: 'minimum', low: 300, high: 86400, description: 'The TTL of negative answers (RFC 2308 §4, §5: 1 to 3 hours advised, at most a day); 300–86400 s.' }
]

function timerCheck (rule: TimerRule): HealthCheck {
  const label = rule.field.toUpperCase()
  return {
    category: 'SOA',
    name: `SOA ${label} is present and valid`,
    description: rule.description,
    run (o: Observation) {
      if (o.soa === undefined) return notApplicable(`The zone '${o.zone}' has no SOA record.`)
      const value = o.soa[rule.field]
      const hard = rule.error?.(o.soa)
      const hint = `Set the SOA ${rule.field} between ${rule.low} and ${rule.high} seconds.`
      if (hard !== undefined) return outcome([msg('ERROR', `The SOA ${rule.field} value of '${value}' for zone '${o.zone}' ${hard}.`)], hint)
      const within = value >= rule.low && value <= rule.high
      const status: MessageStatus = within ? 'OK' : 'BEST_PRACTICE'
      return outcome([msg(status, `The SOA ${rule.field} value of '${value}' for the zone '${o.zone}' is ${within ? '' : 'not '}within the range of best practice (${rule.low}–${rule.high}).`)], within ? undefined : hint)
    }
  }
}

export const [soaRefresh, soaRetry, soaExpire, soaMinimum] = RULES.map(timerCheck) as [HealthCheck, HealthCheck, HealthCheck, HealthCheck]
