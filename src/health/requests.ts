import { ZonalError } from '../errors/catalog.ts'
import type { HealthReport, Store, ZoneWithAccount } from '../store/store.ts'
import { visibleZone, zoneNameFrom, type Caller } from '../zones/context.ts'
import type { HealthChecker } from './service.ts'
import type { CategoryResults, HealthState } from './types.ts'

/** An IN_PROGRESS report this old belongs to a check whose process stopped: it is shown FAILED. */
export const STALE_MS = 15 * 60 * 1000

/** The report as the API shows it (`HealthCheckReport`): version, state, checks. */
export interface ShownReport {
  version: string
  state: HealthState
  checks: CategoryResults[]
  message?: string
}

async function zoneOf (store: Store, caller: Caller, name: string, permission: 'read' | 'write'): Promise<ZoneWithAccount> {
  return visibleZone(caller, await store.zones.findByName(zoneNameFrom(name), caller.principal.scope('read')), permission)
}

/**
 * A version as the path gives it: 'YYYY-MM-DDTHH:MM:SS.nnnZ', or the documented
 * 'YYYY-MM-DD-HH24:MI:SS.nnnZ' (a '-' for the 'T'). @throws ZonalError HEALTH_CHECK_VERSION_INVALID
 */
export function versionFrom (text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T-](\d{2}:\d{2}:\d{2}\.\d{3})Z$/.exec(text)
  if (m === null || Number.isNaN(Date.parse(`${m[1]!}T${m[2]!}Z`))) throw new ZonalError('HEALTH_CHECK_VERSION_INVALID', text.slice(0, 64))
  return `${m[1]!}T${m[2]!}Z`
}

/**
 * `POST /zones/{zone}/healthchecks`: start a check of a primary or alias zone (write permission).
 * @returns the zone and the new report's version
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, HEALTH_CHECK_ZONE_TYPE (a secondary zone)
 */
export async function requestHealthCheck (store: Store, checker: HealthChecker, caller: Caller, name: string): Promise<{ zone: ZoneWithAccount, version: string }> {
  const zone = await zoneOf(store, caller, name, 'write')
  if (zone.zone_type === 'SECONDARY') throw new ZonalError('HEALTH_CHECK_ZONE_TYPE', zone.name)
  return { zone, version: await checker.start(zone.id) }
}

function shown (report: HealthReport, now: number): ShownReport {
  const stale = report.state === 'IN_PROGRESS' && now - Date.parse(report.version) > STALE_MS
  const state: HealthState = stale ? 'FAILED' : report.state
  const message = stale ? 'The check did not finish: the service stopped while it ran.' : report.message
  return {
    version: report.version,
    state,
    checks: report.checks === null ? [] : JSON.parse(report.checks) as CategoryResults[],
    ...(message === null ? {} : { message })
  }
}

/**
 * `GET /zones/{zone}/healthchecks/{version}` and `…/latest`: one version of the zone's report.
 * @throws ZonalError ZONE_NOT_FOUND, HEALTH_CHECK_VERSION_INVALID, HEALTH_CHECK_NOT_FOUND
 */
export async function readHealthCheck (store: Store, caller: Caller, name: string, version: string, now = Date.now()): Promise<ShownReport> {
  const zone = await zoneOf(store, caller, name, 'read')
  if (version === 'latest') {
    const report = await store.healthChecks.latest(zone.id)
    if (report === undefined) throw new ZonalError('HEALTH_CHECK_NOT_FOUND', zone.name, '')
    return shown(report, now)
  }
  const v = versionFrom(version)
  const report = await store.healthChecks.find(zone.id, v)
  if (report === undefined) throw new ZonalError('HEALTH_CHECK_NOT_FOUND', zone.name, ` of version ${v}`)
  return shown(report, now)
}

/**
 * `GET /zones/{zone}/healthchecks/versions`: the versions kept, newest first.
 * @throws ZonalError ZONE_NOT_FOUND, HEALTH_CHECK_NOT_FOUND (the zone was never checked)
 */
export async function healthCheckVersions (store: Store, caller: Caller, name: string): Promise<string[]> {
  const zone = await zoneOf(store, caller, name, 'read')
  const versions = await store.healthChecks.versions(zone.id)
  if (versions.length === 0) throw new ZonalError('HEALTH_CHECK_NOT_FOUND', zone.name, '')
  return versions
}
