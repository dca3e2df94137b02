import { msg, NO_RESOLVERS, notApplicable, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/** An exchange written as an IPv4 address (`192.0.2.1.`): a name, not an address. */
export function looksLikeAddress (name: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}\.?$/.test(name) || /^[0-9a-f:]+:[0-9a-f:]*\.?$/i.test(name)
}

/**
 * RFC 5321 §5.1 (the exchange resolved to addresses), RFC 2181 §10.3 (an MX must not name an
 * alias), RFC 1035 §3.3.9 (the exchange is a domain name, not an address).
 */
export const mxTargets: HealthCheck = {
  category: 'MX',
  name: 'MX targets resolve to addresses and are not aliases',
  description: 'Each MX exchange must be a host name with addresses (RFC 5321 §5.1); it must not be a CNAME (RFC 2181 §10.3) nor an IP address (RFC 1035 §3.3.9).',
  run (o) {
    const targets = [...new Set(o.mx.filter(m => m.exchange !== '.').map(m => m.exchange))]
    if (targets.length === 0) return notApplicable(`The zone '${o.zone}' has no MX exchange to check.`)
    return outcome(targets.map((t) => {
      if (looksLikeAddress(t)) return msg('ERROR', `MX target '${t}' is an IP address, not a host name.`)
      if (o.network === undefined) return msg('INFO', `MX target '${t}': ${NO_RESOLVERS}`)
      const r = o.network.mxTargets[t]
      if (r === undefined || !r.ok) return msg('ERROR', `MX target '${t}' does not resolve: ${r?.ok === false ? r.error : 'not looked up'}.`)
      if (r.cname !== undefined) return msg('ERROR', `MX target '${t}' is a CNAME (to '${r.cname}'); an MX must name a host, not an alias.`)
      return msg('OK', `MX target '${t}' resolves to ${r.addresses.join(', ')}.`)
    }), 'Point each MX at a host name that has A or AAAA records of its own.')
  }
}
