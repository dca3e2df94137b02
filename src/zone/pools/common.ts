import { ZonalError } from '../../errors/catalog.ts'
import { familyOf, invalid, ipAddress, MAX_TEXT, ProfileObject } from './fields.ts'
import { RRType } from '../rrtype.ts'
import type { PoolFieldsByKind, PoolKind, PoolMonitor } from './profile.ts'

export type { PoolKind } from './profile.ts'

/** What a pool type's validation gets. */
export interface PoolInput {
  /** The rrset's record type (1 = A, 28 = AAAA, …). */
  type: number
  /** The profile object, its `@context` already recognised. */
  profile: unknown
  rdata: readonly string[]
  /** Absolute owner name: the default description. */
  ownerName: string
}

/** One pool type: its `@context`, the record types it applies to, its fields and its comment. */
export interface PoolType<K extends PoolKind = PoolKind> {
  kind: K
  /** The schema name in the `@context` URI (`RDPool` → `http://schemas.ultradns.com/RDPool.jsonschema`). */
  schema: string
  /** Short name in the export comment (`RD pool …`). */
  label: string
  /** Record types the pool may hold. */
  rrtypes: ReadonlySet<number>
  /** How the 70004 error names `rrtypes` ("A or AAAA"). */
  rrtypeText: string
  /** Check and normalise the fields (without `@context`); throws ZonalError naming the field. */
  validate (input: PoolInput): PoolFieldsByKind[K]
  /** The settings the export comment shows, e.g. `order ROUND_ROBIN`. */
  summary (profile: PoolFieldsByKind[K]): string
}

/** Any one pool type (a union, so each keeps its own field types). */
export type AnyPoolType = { [K in PoolKind]: PoolType<K> }[PoolKind]

/** Record types of the traffic-steering pools: A and AAAA only (70004 otherwise). */
export const ADDRESS_TYPES: ReadonlySet<number> = new Set([RRType.A, RRType.AAAA])

export const ORDERS = ['FIXED', 'RANDOM', 'ROUND_ROBIN'] as const
export const FORCED_STATES = ['FORCED_ACTIVE', 'FORCED_INACTIVE', 'NOT_FORCED'] as const
export const SENSITIVITIES = ['HIGH', 'LOW'] as const

/**
 * The description of a pool: as given (an empty one kept), the owner name when absent (RD pools,
 * reference notes §7).
 */
export function descriptionOf (p: ProfileObject, key: string, ownerName: string): string {
  return p.string(key) ?? ownerName
}

/** Largest int32: the real API's Integer fields. */
export const INT32_MAX = 2147483647

/**
 * `monitor {method GET|POST, url, transmittedData?, searchString?}` of SF and SLB pools: the URL
 * probed from the monitoring regions.
 *
 * @throws ZonalError POOL_MONITOR_REQUIRED (100003), POOL_MONITOR_METHOD_REQUIRED (110002),
 *   POOL_MONITOR_URL_REQUIRED (110003), POOL_PROFILE_INVALID (a URL that is not http(s)),
 *   POOL_PROFILE_KEY_INVALID.
 */
export function monitorOf (p: ProfileObject): PoolMonitor {
  const m = p.object('monitor', ['method', 'url', 'transmittedData', 'searchString'])
  if (m === undefined) throw new ZonalError('POOL_MONITOR_REQUIRED', p.at('monitor'))
  if (!m.has('method')) throw new ZonalError('POOL_MONITOR_METHOD_REQUIRED', m.at('method'))
  const method = m.choice('method', ['GET', 'POST'] as const)!
  const url = m.string('url', 2048)
  if (url === undefined || url === '') throw new ZonalError('POOL_MONITOR_URL_REQUIRED', m.at('url'))
  if (!isHttpUrl(url)) throw invalid(`${m.at('url')} must be an http:// or https:// URL`)
  return {
    method,
    url,
    transmittedData: m.string('transmittedData', 8 * MAX_TEXT) ?? '',
    searchString: m.string('searchString') ?? ''
  }
}

function isHttpUrl (text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/**
 * The rdata of a backup (failover, all-fail) record: an address of the pool's family.
 *
 * @throws ZonalError POOL_FAILOVER_RDATA_REQUIRED (110001), POOL_PROFILE_INVALID (wrong family).
 */
export function backupRdataOf (r: ProfileObject, type: number): string {
  if (!r.has('rdata') || r.value.rdata === '') throw new ZonalError('POOL_FAILOVER_RDATA_REQUIRED', r.at('rdata'))
  return ipAddress(r.value.rdata, r.at('rdata'), familyOf(type))
}

/**
 * Check that the profile lists one `rdataInfo` entry per rdata.
 *
 * @throws ZonalError `code` with the two counts.
 */
export function checkInfoCount (code: 'SB_POOL_RDATA_INFO_COUNT' | 'TC_POOL_RDATA_INFO_COUNT' | 'SLB_POOL_RDATA_INFO_COUNT' | 'DIR_POOL_RDATA_INFO_COUNT', infos: readonly unknown[] | undefined, rdata: readonly string[]): void {
  const count = infos?.length ?? 0
  if (count !== rdata.length) throw new ZonalError(code, `profile.rdataInfo has ${count} entries for ${rdata.length} rdata`)
}
