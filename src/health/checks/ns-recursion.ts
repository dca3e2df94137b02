import { Rcode } from '../../dns/wire/constants.ts'
import { msg, NO_RESOLVERS, notApplicable, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/**
 * RFC 5358 §4, RFC 1034 §4.3.1 (RA): authoritative servers should not offer recursion to anyone
 * (open resolvers are used for amplification attacks; Zonemaster NAMESERVER03 "is a recursor").
 */
export const nsRecursion: HealthCheck = {
  category: 'NS',
  name: 'Name servers do not announce open recursion',
  description: 'Authoritative name servers should not resolve names for anyone who asks: open recursion is abused for reflection and cache poisoning (RFC 5358 §4).',
  run (o) {
    if (o.network === undefined) return notApplicable(NO_RESOLVERS)
    const asked = o.network.servers.filter(s => s.recursion.answered)
    if (asked.length === 0) return notApplicable(`No name server of '${o.zone}' answered the recursion probe.`)
    return outcome(asked.map((s) => {
      const p = s.recursion
      const open = p.answered && p.ra && (p.rcode === Rcode.NOERROR || p.rcode === Rcode.NXDOMAIN)
      return open
        ? msg('WARNING', `Nameserver '${s.ns}' (${s.address}) allows open recursion.`)
        : msg('OK', `Nameserver '${s.ns}' (${s.address}) does not allow open recursion.`)
    }), 'Turn recursion off on authoritative servers, or limit it to your own clients.')
  }
}
