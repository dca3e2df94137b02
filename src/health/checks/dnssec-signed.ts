import { msg, outcome } from '../status.ts'
import type { HealthCheck } from '../types.ts'

/** RFC 4033 §3: whether the zone is signed (`dnssec-ds.ts` checks its DS at the parent). */
export const dnssecSigned: HealthCheck = {
  category: 'DNSSEC',
  name: 'Zone is signed',
  description: 'DNSSEC signs the zone\'s data so that resolvers can detect forged answers (RFC 4033).',
  run (o) {
    return o.dnssecStatus === 'SIGNED'
      ? outcome([msg('INFO', `Zone '${o.zone}' is signed.`)])
      : outcome([msg('INFO', `Zone '${o.zone}' is not signed!`)], 'Sign the zone with DNSSEC and publish its DS record at the parent.')
  }
}
