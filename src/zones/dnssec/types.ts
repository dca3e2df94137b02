import { RRType } from '../../zone/rrtype.ts'

/**
 * The types of the records signing adds to a zone (RFC 4034 §2–4, RFC 5155 §3–4): the service
 * writes them for a signed zone and hides them from the rrset API and exports of it.
 */
export const DNSSEC_TYPES: readonly number[] = [RRType.RRSIG, RRType.NSEC, RRType.DNSKEY, RRType.NSEC3, RRType.NSEC3PARAM]

const SET: ReadonlySet<number> = new Set(DNSSEC_TYPES)

/** Whether `type` is one of {@link DNSSEC_TYPES}. */
export function isDnssecType (type: number): boolean {
  return SET.has(type)
}
