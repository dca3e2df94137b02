import type { DnssecPolicy } from '../../store/store.ts'

/** A policy's settings as the audit log shows them (its own names; never key material). */
export function policyDocument (p: DnssecPolicy): Record<string, unknown> {
  return {
    algorithm: p.algorithm,
    securityType: p.securityType,
    dnskeyTtl: p.dnskeyTtl,
    rrsigValidityDays: p.rrsigValidityDays,
    zskRolloverDays: p.zskRolloverDays,
    kskRolloverDays: p.kskRolloverDays
  }
}
