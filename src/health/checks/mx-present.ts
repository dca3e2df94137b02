import { msg, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/**
 * RFC 5321 §5.1 (MX, and the implicit MX when there is none), RFC 7505 §3 (null MX: one MX of
 * preference 0 and exchange ".", alone).
 */
export const mxPresent: HealthCheck = {
  category: 'MX',
  name: 'Zone has MX records',
  description: 'MX records name the hosts that accept mail for the domain (RFC 5321 §5.1); a domain that takes no mail says so with a single null MX, "0 ." (RFC 7505).',
  run (o) {
    const nulls = o.mx.filter(m => m.exchange === '.')
    if (o.mx.length === 0) {
      return outcome([msg('INFO', `The zone '${o.zone}' has no MX record: mail for it goes to the address of its apex, if it has one (RFC 5321 §5.1).`)],
        'Publish MX records, or a null MX ("0 .", RFC 7505) if the domain receives no mail.')
    }
    if (nulls.length === 0) return outcome([msg('OK', `The zone '${o.zone}' has '${o.mx.length}' MX record${o.mx.length === 1 ? '' : 's'}.`)])
    if (o.mx.length > 1) {
      return outcome([msg('ERROR', `The zone '${o.zone}' has a null MX among ${o.mx.length} MX records; a null MX must be the only one (RFC 7505 §3).`)],
        'Remove either the null MX or the other MX records.')
    }
    if (nulls[0]!.preference !== 0) {
      return outcome([msg('ERROR', `The null MX of the zone '${o.zone}' has preference ${nulls[0]!.preference}; it must be 0 (RFC 7505 §3).`)], 'Write the null MX as "0 .".')
    }
    return outcome([msg('OK', `The zone '${o.zone}' has a null MX: it accepts no mail (RFC 7505).`)])
  }
}
