import { DNSSEC_TYPES as SIGNER_TYPES } from '../../zone/dnssec/zone-cuts.ts'

/**
 * The types of the records signing adds to a zone (RFC 4034 §2–4, RFC 5155 §3–4), the signer's
 * own list: the service writes them for a signed zone and hides them from the rrset API and
 * exports of it.
 */
export const DNSSEC_TYPES: readonly number[] = [...SIGNER_TYPES]

/** Whether `type` is one of {@link DNSSEC_TYPES}. */
export function isDnssecType (type: number): boolean {
  return SIGNER_TYPES.has(type)
}

/**
 * Pools a signed zone cannot hold: each answers a part of its rrset chosen per query (SiteBacker,
 * Traffic Controller, directional, simple failover and load balancing), which no signature over
 * the rrset covers. The real API refuses to sign zones with SB, TC or DIR pools ("advanced
 * services do not currently allow for signed zones"); SF and SLB answer subsets too. RD pools
 * answer every record (in an order), so they stay.
 */
export const UNSIGNABLE_POOLS: ReadonlySet<string> = new Set(['SB_POOLS', 'TC_POOLS', 'DIR_POOLS', 'SF_POOLS', 'SLB_POOLS'])
