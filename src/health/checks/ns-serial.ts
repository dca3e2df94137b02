import { msg, NO_RESOLVERS, notApplicable, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/** RFC 1034 §4.3.5, RFC 1996: every name server serves the same version of the zone (Zonemaster CONSISTENCY01). */
export const nsSerial: HealthCheck = {
  category: 'NS',
  name: 'Name servers have the same SOA serial',
  description: 'All name servers should serve the same version of the zone, seen in the SOA serial; different serials mean a secondary has not caught up (RFC 1034 §4.3.5, RFC 1996).',
  run (o) {
    if (o.network === undefined) return notApplicable(NO_RESOLVERS)
    const serials = new Map<number, string[]>()
    for (const s of o.network.servers) {
      const p = s.udp.answered ? s.udp : s.tcp
      if (!p.answered || !p.aa || p.serial === undefined) continue
      serials.set(p.serial, [...(serials.get(p.serial) ?? []), `${s.ns} (${s.address})`])
    }
    if (serials.size === 0) return notApplicable(`No name server of '${o.zone}' gave its SOA serial.`)
    if (serials.size === 1) {
      const [serial] = serials.keys()
      return outcome([msg('OK', `All name servers answer SOA serial ${serial!} for the zone '${o.zone}'.`)])
    }
    return outcome([...serials].map(([serial, servers]) => msg('WARNING', `SOA serial ${serial} from ${servers.join(', ')}.`)),
      'Check that zone transfers (NOTIFY, AXFR/IXFR) reach every secondary name server.')
  }
}
