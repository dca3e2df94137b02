import { msg, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/** RFC 1034 §3.6.2, RFC 2181 §10.1: a CNAME cannot stand beside other data, so never at an apex (which has SOA and NS). */
export const domainApexCname: HealthCheck = {
  category: 'DOMAIN',
  name: 'No CNAME at the apex',
  description: 'A CNAME may not share its name with other records, and a zone\'s apex always has SOA and NS records: a CNAME there breaks the zone (RFC 1034 §3.6.2, RFC 2181 §10.1).',
  run (o) {
    return o.apexCname === undefined
      ? outcome([msg('OK', `The zone '${o.zone}' does not have a CNAME record at apex.`)])
      : outcome([msg('ERROR', `The zone '${o.zone}' has a CNAME record at apex (to '${o.apexCname}').`)], 'Remove the CNAME at the apex; use an A/AAAA record or an apex alias instead.')
  }
}
