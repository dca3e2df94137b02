import { ZonalError } from '../../errors/catalog.ts'
import type { DnssecPolicy } from '../../store/store.ts'

/** The signing algorithms a zone may use (RFC 8624 §3.1: MUST/RECOMMENDED to sign with). */
export const ALGORITHMS = ['ECDSAP256SHA256', 'ED25519', 'RSASHA256'] as const
/** The denial of existence a zone may use (RFC 4034 §4 NSEC; RFC 5155 NSEC3, with opt-out or not). */
export const SECURITY_TYPES = ['NSEC', 'NSEC3', 'NSEC3_OPT_OUT'] as const

/** Key sizes: P-256 and Ed25519 are 256 bits; RSA keys 2048 (RFC 8624 §3.1 and NIST SP 800-57). */
const BITS: Record<string, number> = { ECDSAP256SHA256: 256, ED25519: 256, RSASHA256: 2048 }

/**
 * The policy of a zone signed without `dnssecPolicy`: what the real API calls the account-level
 * DNSSEC settings (Zonal has no account settings for it; docs/decisions.md "DNSSEC").
 * NSEC3 with 0 extra iterations and no salt when chosen (RFC 9276 §3.1).
 */
export const DEFAULT_POLICY: DnssecPolicy = {
  algorithm: 'ECDSAP256SHA256',
  kskBits: 256,
  zskBits: 256,
  securityType: 'NSEC',
  nsec3Iterations: 0,
  nsec3Salt: '',
  dnskeyTtl: 3600,
  rrsigValidityDays: 14,
  zskRolloverDays: 90,
  kskRolloverDays: 365,
  overrides: []
}

/** One `dnssecPolicy` field: its name in the API (and the other spelling clients use), where it goes, its range. */
interface Field {
  api: string
  alias?: string
  key: keyof Omit<DnssecPolicy, 'overrides' | 'kskBits' | 'zskBits' | 'nsec3Iterations' | 'nsec3Salt'>
  range?: [number, number]
  values?: readonly string[]
}

/** The fields of `dnssecPolicy` and their documented ranges (Zone DNSSEC APIs, "dnssecPolicy DTO for Override"). */
const FIELDS: readonly Field[] = [
  { api: 'dnsKeyTtl', alias: 'dnskeyTtl', key: 'dnskeyTtl', range: [300, 172800] },
  { api: 'rrsigValidity', key: 'rrsigValidityDays', range: [5, 30] },
  { api: 'zskRolloverFrequency', key: 'zskRolloverDays', range: [30, 120] },
  { api: 'kskRolloverFrequency', key: 'kskRolloverDays', range: [365, 1826] },
  { api: 'algorithm', key: 'algorithm', values: ALGORITHMS },
  { api: 'securityType', key: 'securityType', values: SECURITY_TYPES }
]

const bad = (field: string, why: string): ZonalError => new ZonalError('DNSSEC_POLICY_INVALID', field, why)

/** The overrides a `dnssecPolicy` object sets, validated; each problem a 400 naming the field. */
function overridesOf (input: unknown): Partial<DnssecPolicy> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ZonalError('INVALID_INPUT', 'dnssecPolicy must be an object')
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    const f = FIELDS.find(x => x.api === name || x.alias === name)
    if (f === undefined) throw bad(name, `is not a field of dnssecPolicy (one of ${FIELDS.map(x => x.api).join(', ')})`)
    if (value === null) continue
    if (f.range !== undefined) {
      if (typeof value !== 'number' || !Number.isInteger(value)) throw bad(f.api, 'must be an integer')
      if (value < f.range[0] || value > f.range[1]) throw bad(f.api, `must be between ${f.range[0]} and ${f.range[1]}`)
    } else if (typeof value !== 'string' || !(f.values ?? []).includes(value)) {
      throw bad(f.api, `must be one of ${(f.values ?? []).join(', ')}`)
    }
    out[f.key] = value
  }
  return out as Partial<DnssecPolicy>
}

/** The policy of a zone with these overrides on the defaults (key sizes from the algorithm). */
export function policyWith (overrides: Partial<DnssecPolicy>): DnssecPolicy {
  const p: DnssecPolicy = { ...DEFAULT_POLICY, ...overrides, overrides: Object.keys(overrides).sort() }
  const bits = BITS[p.algorithm] ?? 256
  return { ...p, kskBits: bits, zskBits: bits }
}

/** The overrides a stored policy holds (its fields named in `overrides`). */
export function overridesIn (policy: DnssecPolicy): Partial<DnssecPolicy> {
  const out: Record<string, unknown> = {}
  for (const k of policy.overrides) out[k] = policy[k as keyof DnssecPolicy]
  return out as Partial<DnssecPolicy>
}

/**
 * The policy a request asks for, from its body's `dnssecPolicy` and the zone's current policy:
 * POST (sign) applies the given fields to the defaults; PUT replaces the zone's overrides with
 * the given ones (`{}` returns to the defaults, as the real API documents) and keeps them when
 * the body has no `dnssecPolicy` (the Python client's `resign_zone` PUTs `{}`); PATCH changes
 * only the fields given. A field given as null is left out.
 *
 * @throws ZonalError INVALID_INPUT (53005: not an object), DNSSEC_POLICY_INVALID (53005, naming the field)
 */
export function requestedPolicy (body: unknown, mode: 'POST' | 'PUT' | 'PATCH', current: DnssecPolicy | undefined): DnssecPolicy {
  const given = typeof body === 'object' && body !== null ? (body as { dnssecPolicy?: unknown }).dnssecPolicy : undefined
  const kept = current === undefined ? {} : overridesIn(current)
  if (given === undefined) return policyWith(mode === 'POST' ? {} : kept)
  const overrides = overridesOf(given)
  return policyWith(mode === 'PATCH' ? { ...kept, ...overrides } : overrides)
}

/** Whether two policies need new keys (another algorithm) or a new denial chain (another type). */
export function policyChange (from: DnssecPolicy, to: DnssecPolicy): { newKeys: boolean, newChain: boolean } {
  return {
    newKeys: from.algorithm !== to.algorithm || from.kskBits !== to.kskBits || from.zskBits !== to.zskBits,
    newChain: from.securityType !== to.securityType || from.nsec3Iterations !== to.nsec3Iterations || from.nsec3Salt !== to.nsec3Salt
  }
}
