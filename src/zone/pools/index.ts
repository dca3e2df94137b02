import { ZonalError } from '../../errors/catalog.ts'
import type { AnyPoolType, PoolKind, PoolType } from './common.ts'
import { DIR_POOL } from './dir.ts'
import { RD_POOL } from './rd.ts'
import { SB_POOL } from './sb.ts'
import { SF_POOL } from './sf.ts'
import { SLB_POOL } from './slb.ts'
import { TC_POOL } from './tc.ts'
import type { PoolProfile } from './profile.ts'

export type { PoolKind } from './common.ts'
export type { PoolProfile } from './profile.ts'

/** The `@context` URIs of pool profiles start with this (reference notes §7). */
export const SCHEMA_BASE = 'http://schemas.ultradns.com/'

/** Every pool type this service stores, one module each. */
export const POOL_TYPES: readonly AnyPoolType[] = [RD_POOL, SB_POOL, TC_POOL, SF_POOL, SLB_POOL, DIR_POOL]

const BY_CONTEXT = new Map(POOL_TYPES.map(t => [contextOf(t), t]))
const BY_KIND = new Map<PoolKind, AnyPoolType>(POOL_TYPES.map(t => [t.kind, t]))

/** The `@context` URI of a pool type, e.g. `http://schemas.ultradns.com/RDPool.jsonschema`. */
export function contextOf (pool: Pick<PoolType, 'schema'>): string {
  return `${SCHEMA_BASE}${pool.schema}.jsonschema`
}

/**
 * Validate and normalise the profile of an rrset: its `@context` names the pool type, the record
 * type must suit it, and its fields are checked with their defaults filled. The stored profile
 * holds `@context` first, then the pool's fields in a fixed order; fields the server computes
 * (`status`, `availableToServe`, `serving`, per-record `type`) are accepted and dropped.
 *
 * @param type the rrset's record type.
 * @param rdata the rrset's rdata as record text (`zone/record-text.ts`; counts and families are checked).
 * @param ownerName absolute owner name: the default description.
 * @throws ZonalError POOL_PROFILE_INVALID (110004, not an object, wrong shapes; ARPool is not
 *   supported), POOL_PROFILE_KEY_INVALID (70008, missing or unknown `@context`, unknown fields),
 *   POOL_PROFILE_RR_TYPE (70004), POOL_ORDER_INVALID (70007), and each pool type's own codes
 *   (110007/110009/90001/90007 rdataInfo counts, 110008 priority, 110015 weight, 1000xx SF,
 *   90006 SLB, 110001–110003 backup record and monitor).
 */
export function validateProfile (type: number, profile: unknown, rdata: readonly string[], ownerName: string): { profile: PoolProfile, kind: PoolKind } {
  if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) {
    throw new ZonalError('POOL_PROFILE_INVALID', 'profile must be an object')
  }
  const context = (profile as Record<string, unknown>)['@context']
  if (context === undefined || context === null) throw new ZonalError('POOL_PROFILE_KEY_INVALID', 'profile.@context is required')
  if (typeof context === 'string' && context === `${SCHEMA_BASE}ARPool.jsonschema`) {
    throw new ZonalError('POOL_PROFILE_INVALID', 'profile.@context: ARPool (adaptive response) pools are not supported by this server')
  }
  const pool = typeof context === 'string' ? BY_CONTEXT.get(context) : undefined
  if (pool === undefined) {
    throw new ZonalError('POOL_PROFILE_KEY_INVALID', `profile.@context must be one of ${POOL_TYPES.map(contextOf).join(', ')}`)
  }
  if (!pool.rrtypes.has(type)) throw new ZonalError('POOL_PROFILE_RR_TYPE', pool.rrtypeText)
  const input = { type, profile, rdata, ownerName }
  const valid = { kind: pool.kind, ...pool.validate(input) } as PoolProfile
  return { profile: valid, kind: pool.kind }
}

/** The pool kind a profile document's `@context` names; undefined for anything else. */
export function poolKindOfContext (context: unknown): PoolKind | undefined {
  return typeof context === 'string' ? BY_CONTEXT.get(context)?.kind : undefined
}

/**
 * A profile as clients write and read it (the rrset DTO's `profile`, JSON Patch paths, audit
 * details): `@context` first, then the pool's fields.
 */
export function profileDocument (profile: PoolProfile): Record<string, unknown> {
  const { kind, ...fields } = profile
  return { '@context': contextOf(BY_KIND.get(kind)!), ...fields }
}

/**
 * The text of the comment line the export writes above a pool's records:
 * `RD pool www.example.org. (order ROUND_ROBIN)`, then `: <description>` when the description is
 * not the owner name. Line breaks and other control characters become spaces, so the comment
 * stays one line.
 */
export function poolComment (profile: PoolProfile, ownerName: string): string {
  const pool = BY_KIND.get(profile.kind)
  if (pool === undefined) return oneLine(`Pool ${ownerName}`)
  const description = profile.kind === 'SF_POOLS' ? profile.poolDescription : profile.description
  const named = typeof description === 'string' && description.trim() !== '' && description !== ownerName ? `: ${description}` : ''
  // Settings a profile does not carry (profiles stored by older versions) are left out of the summary.
  const summary = (pool.summary as (p: PoolProfile) => string)(profile).split(', ').filter(part => !part.endsWith(' undefined')).join(', ')
  return oneLine(`${pool.label} pool ${ownerName}${summary === '' ? '' : ` (${summary})`}${named}`)
}

function oneLine (text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
}
