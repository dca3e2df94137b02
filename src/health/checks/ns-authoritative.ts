import { Rcode } from '../../dns/wire/constants.ts'
import { msg, NO_RESOLVERS, notApplicable, outcome } from '../status.ts'
import type { HealthCheck, HealthMessage } from '../types.ts'
import { rcodeName } from './rcode-name.ts'

/**
 * RFC 1034 §4.3.1, RFC 1035 §4.1.1 (AA): every name server of the zone answers its SOA
 * authoritatively; one that does not is a lame delegation (RFC 1912 §2.8; Zonemaster DELEGATION04).
 */
export const nsAuthoritative: HealthCheck = {
  category: 'NS',
  name: 'Name servers answer authoritatively',
  description: 'Every name server of the zone must answer for it authoritatively (AA bit set); a server that does not is a lame delegation (RFC 1034 §4.3.1, RFC 1912 §2.8).',
  run (o) {
    if (o.network === undefined) return notApplicable(NO_RESOLVERS)
    const answered = o.network.servers.filter(s => s.udp.answered || s.tcp.answered)
    if (answered.length === 0) return notApplicable(`No name server of '${o.zone}' answered.`)
    const messages: HealthMessage[] = []
    for (const s of answered) {
      const p = s.udp.answered ? s.udp : s.tcp
      if (!p.answered) continue
      if (p.aa && p.rcode === Rcode.NOERROR) messages.push(msg('OK', `Nameserver '${s.ns}' (${s.address}) answers authoritatively.`))
      else messages.push(msg('ERROR', `Nameserver '${s.ns}' (${s.address}) does not answer authoritatively for '${o.zone}' (${p.aa ? '' : 'AA not set, '}rcode ${rcodeName(p.rcode)}): lame delegation.`))
    }
    return outcome(messages, 'Serve the zone on every name server it names, or remove the servers that do not serve it from the NS records and from the parent\'s delegation.')
  }
}
