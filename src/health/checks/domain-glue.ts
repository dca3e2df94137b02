import { isSubdomain, parseName } from '../../zone/name.ts'
import { msg, NO_RESOLVERS, notApplicable, outcome } from '../status.ts'
import type { HealthCheck, HealthMessage } from '../types.ts'

/**
 * RFC 1034 §4.2.1, RFC 9471 §2: a name server named inside the zone it serves needs glue (its
 * addresses) in the parent's referral, and the glue must match the addresses the zone gives it
 * (Zonemaster DELEGATION/CONSISTENCY: glue consistency).
 */
export const domainGlue: HealthCheck = {
  category: 'DOMAIN',
  name: 'Glue records are present and consistent',
  description: 'Name servers inside the zone they serve can only be found through glue: address records the parent sends with the referral; they must match the addresses the zone itself gives (RFC 1034 §4.2.1, RFC 9471).',
  run (o) {
    if (o.network === undefined) return notApplicable(NO_RESOLVERS)
    const p = o.network.parent
    if (!p.ok) return notApplicable(`The delegation of '${o.zone}' was not found at its parent.`)
    const zone = parseName(o.zone)
    const messages: HealthMessage[] = []
    for (const ns of p.ns) {
      const inside = isSubdomain(parseName(ns), zone)
      const glue = [...(p.glue[ns] ?? [])].sort()
      if (glue.length === 0) {
        if (inside) messages.push(msg('ERROR', `Nameserver '${ns}' is inside the zone but the parent gives no glue for it.`))
        continue
      }
      const resolved = o.network.nsAddresses[ns]
      if (resolved === undefined || !resolved.ok) continue
      const addresses = [...resolved.addresses].sort()
      const same = glue.length === addresses.length && glue.every((a, i) => a === addresses[i])
      messages.push(same
        ? msg('OK', `Glue for '${ns}' (${glue.join(', ')}) matches its addresses.`)
        : msg('ERROR', `Glue for '${ns}' (${glue.join(', ')}) differs from its addresses (${addresses.join(', ')}).`))
    }
    if (messages.length === 0) return outcome([msg('OK', `No name server of '${o.zone}' needs glue.`)])
    return outcome(messages, 'Update the glue (host records) at the registrar to the name servers\' current addresses.')
  }
}
