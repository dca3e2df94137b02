import { msg, notApplicable, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/** RFC 1035 §3.3.13, RFC 1996 §2.1, RFC 2136 §4: MNAME names the primary, one of the zone's name servers. */
export const soaMname: HealthCheck = {
  category: 'SOA',
  name: 'SOA MNAME is one of the zone\'s name servers',
  description: 'The SOA MNAME names the zone\'s primary name server; NOTIFY and dynamic updates are sent to it, so it should be among the NS records (RFC 1035 §3.3.13, RFC 1996 §2.1, RFC 2136 §4).',
  run (o) {
    if (o.soa === undefined) return notApplicable(`The zone '${o.zone}' has no SOA record.`)
    return o.ns.includes(o.soa.mname)
      ? outcome([msg('OK', `The SOA MNAME '${o.soa.mname}' of the zone '${o.zone}' is one of its name servers.`)])
      : outcome([msg('BEST_PRACTICE', `The SOA MNAME '${o.soa.mname}' of the zone '${o.zone}' is not one of its name servers.`)], 'Set the SOA MNAME to the primary name server, one of the NS records.')
  }
}
