import type { WireName } from '../zone/name.ts'
import type { TsigKey } from '../dns/wire/tsig.ts'
import type { TransferredZone } from './secondary-transfer.ts'
import type { Actor } from '../audit/recorder.ts'
import type { Principal } from '../auth/principal.ts'
import type { Permission } from '../auth/permissions.ts'
import type { SecretBox } from '../auth/secrets.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { Store, ZoneWithAccount } from '../store/store.ts'
import { canonicalSortKey, NameError, normalizeZoneName, parseName } from '../zone/name.ts'
import { RRType } from '../zone/rrtype.ts'
import type { Clock } from '../util/time.ts'
import { DEFAULT_ZONE_LIMITS, type ZoneLimits } from './limits.ts'

/** What the zone use cases need: the store, settings, and the time. */
export interface ZoneDeps {
  store: Store
  /** NS host names put into new zones (`ZONAL_NAMESERVERS`). */
  nameservers: readonly string[]
  secrets: SecretBox
  clock: Clock
  /**
   * Fetch a zone whole by AXFR from a name server (createType TRANSFER); without it that create
   * type is not available (53004).
   */
  transferZone?: (zone: WireName, source: { host: string, port: number, key?: TsigKey }, opts?: { maxRecords?: number }) => Promise<TransferredZone>
  /** Zone size limits (`ZONAL_ZONE_MAX_RECORDS` …); the defaults when not given. */
  limits?: ZoneLimits
  /**
   * The addresses a web-forwarded host answers (`ZONAL_FORWARD_ADDRESSES`: the forwarding
   * server's); 127.0.0.1 when not given.
   */
  forwardAddresses?: readonly string[]
}

/** The zone size limits of `deps`. */
export function limitsOf (deps: Pick<ZoneDeps, 'limits'>): ZoneLimits {
  return deps.limits ?? DEFAULT_ZONE_LIMITS
}

/** The caller of a use case: who (for permissions) and how they appear in the audit log. */
export interface Caller {
  principal: Principal
  actor: Actor
}

/** A zone name from the API, normalised; invalid names give 2507 "Invalid zone name.". */
export function zoneNameFrom (input: string): string {
  try {
    return normalizeZoneName(input)
  } catch (err) {
    if (err instanceof NameError) throw new ZonalError('ZONE_NAME_INVALID')
    throw err
  }
}

/**
 * The zone `name` as the caller sees it: not found (1801) when it does not exist or belongs to an
 * account the caller cannot read; 403 when the caller may read but lacks `permission`.
 */
export async function zoneFor (deps: ZoneDeps, caller: Caller, name: string, permission: Permission): Promise<ZoneWithAccount> {
  return visibleZone(caller, await deps.store.zones.findByName(zoneNameFrom(name), caller.principal.scope('read')), permission)
}

/**
 * {@link zoneFor} with the presentation rdata of the zone's apex NS rrset (empty when it has
 * none) read in the same statement: what the zone's DTO shows.
 */
export async function zoneWithApexNs (deps: ZoneDeps, caller: Caller, name: string, permission: Permission): Promise<{ zone: ZoneWithAccount, apexNs: string[] }> {
  const zoneName = zoneNameFrom(name)
  const found = await deps.store.zones.findWithApex(zoneName, caller.principal.scope('read'), canonicalSortKey(parseName(zoneName)), RRType.NS)
  return { zone: visibleZone(caller, found?.zone, permission), apexNs: found?.apexRdataText ?? [] }
}

/**
 * The checks of {@link zoneFor} on a zone read in the caller's read scope some other way
 * (`zones.lockByName`): 1801 when there is none, 403 without `permission`.
 */
export function visibleZone (caller: Caller, zone: ZoneWithAccount | undefined, permission: Permission): ZoneWithAccount {
  if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
  if (!caller.principal.can(zone.account_id, permission)) throw new ZonalError('PERMISSION_DENIED', `${permission} the zone ${zone.name}`)
  return zone
}

/** `changeComment`: optional, at most 512 characters. */
export function changeCommentFrom (body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null
  const c = (body as { changeComment?: unknown }).changeComment
  if (c === undefined || c === null) return null
  if (typeof c !== 'string') throw new ZonalError('INVALID_INPUT', 'changeComment must be a string')
  if (c.length > 512) throw new ZonalError('INVALID_INPUT', 'changeComment must be at most 512 characters')
  return c === '' ? null : c
}
