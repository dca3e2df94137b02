import { msg, NO_RESOLVERS, notApplicable, outcome } from '../status.ts'
import type { HealthCheck, HealthMessage } from '../types.ts'

/** RFC 1035 §4.2, RFC 7766 §5: every name server answers over UDP and over TCP (Zonemaster CONNECTIVITY01, 02). */
export const nsRespond: HealthCheck = {
  category: 'NS',
  name: 'All name servers respond',
  description: 'Every address of every name server must answer queries over UDP and over TCP; TCP is required for large answers and truncated ones (RFC 1035 §4.2, RFC 7766 §5).',
  run (o) {
    if (o.network === undefined) return notApplicable(NO_RESOLVERS)
    if (o.network.servers.length === 0) return notApplicable(`No address of a name server of '${o.zone}' was found to ask.`)
    const messages: HealthMessage[] = []
    for (const s of o.network.servers) {
      const failed: Array<[string, string]> = []
      if (!s.udp.answered) failed.push(['UDP', s.udp.error])
      if (!s.tcp.answered) failed.push(['TCP', s.tcp.error])
      if (failed.length === 0) messages.push(msg('OK', `Nameserver '${s.ns}' (${s.address}) responded over UDP and TCP.`))
      for (const [transport, error] of failed) messages.push(msg('ERROR', `Nameserver '${s.ns}' (${s.address}) did not respond over ${transport}: ${error}.`))
    }
    return outcome(messages, 'Make sure every name server answers on port 53 over both UDP and TCP.')
  }
}
