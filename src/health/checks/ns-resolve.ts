import { msg, NO_RESOLVERS, notApplicable, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/** RFC 1034 §4.2.1, RFC 1912 §2.3: each NS name must lead to an address (Zonemaster ADDRESS03, DELEGATION05). */
export const nsResolve: HealthCheck = {
  category: 'NS',
  name: 'Name server names resolve',
  description: 'Each name server named by the zone must resolve to at least one address, or resolvers cannot reach it (RFC 1034 §4.2.1, RFC 1912 §2.3).',
  run (o) {
    if (o.network === undefined) return notApplicable(NO_RESOLVERS)
    if (o.ns.length === 0) return notApplicable(`The zone '${o.zone}' names no name server.`)
    return outcome(o.ns.map((ns) => {
      const r = o.network!.nsAddresses[ns]
      if (r === undefined || !r.ok) return msg('ERROR', `Nameserver '${ns}' does not resolve: ${r?.ok === false ? r.error : 'not looked up'}.`)
      if (r.cname !== undefined) return msg('ERROR', `Nameserver '${ns}' is an alias (CNAME to '${r.cname}'); NS records must name the server itself (RFC 2181 §10.3).`)
      return msg('OK', `Nameserver '${ns}' resolves to ${r.addresses.join(', ')}.`)
    }), 'Publish A (and AAAA) records for every name server, with glue at the parent for names inside the zone.')
  }
}
