import { msg, NO_RESOLVERS, notApplicable, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/** RFC 1034 §4.2.2: a zone is reached only through the NS records its parent holds for it (Zonemaster DELEGATION, BASIC01). */
export const domainDelegation: HealthCheck = {
  category: 'DOMAIN',
  name: 'Zone is delegated from its parent',
  description: 'Resolvers find a zone through the NS records of its delegation in the parent zone; without them the zone cannot be reached (RFC 1034 §4.2.2).',
  run (o) {
    if (o.network === undefined) return notApplicable(NO_RESOLVERS)
    const p = o.network.parent
    if (!p.ok) {
      return outcome([msg('ERROR', `The delegation of '${o.zone}' was not found${p.parent === undefined ? '' : ` in the parent zone '${p.parent}'`}: ${p.error}.`)],
        'Register the domain and set its name servers at the registrar (the parent zone).')
    }
    return outcome([msg('OK', `The parent zone '${p.parent}' delegates '${o.zone}' to ${p.ns.map(n => `'${n}'`).join(', ')}.`)])
  }
}
