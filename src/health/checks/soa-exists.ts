import { msg, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/** RFC 1035 §5.2, RFC 1034 §4.3.4: a zone has exactly one SOA record, at its apex. */
export const soaExists: HealthCheck = {
  category: 'SOA',
  name: 'SOA record exists for zone',
  description: 'Every zone starts with exactly one SOA record at its apex, which holds its serial and timers (RFC 1035 §5.2).',
  run (o) {
    return o.soa === undefined
      ? outcome([msg('ERROR', `The SOA record for zone '${o.zone}' does not exist.`)], 'Add an SOA record at the zone\'s apex.')
      : outcome([msg('OK', `The SOA record for zone '${o.zone}' exists.`)])
  }
}
