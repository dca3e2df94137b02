import { msg, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/** RFC 1034 §4.1, RFC 2182 §5: a zone needs at least two nameservers (DELEGATION01 in Zonemaster). */
export const nsCount: HealthCheck = {
  category: 'NS',
  name: 'Zone has at least two name servers',
  description: 'A zone needs at least two name servers, so that it stays reachable when one fails (RFC 1034 §4.1, RFC 2182 §5).',
  run (o) {
    const n = o.ns.length
    if (n >= 2) return outcome([msg('OK', `The zone '${o.zone}' has ${n} name servers.`)])
    return outcome([msg('ERROR', `The zone '${o.zone}' has ${n === 0 ? 'no name server' : `only one name server ('${o.ns[0]}')`}; at least two are required.`)],
      'Add NS records for at least two name servers, preferably on different networks.')
  }
}
