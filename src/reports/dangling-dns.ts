import { ZonalError } from '../errors/catalog.ts'
import type { DanglingFinding, DanglingReport, ZoneWithAccount } from '../store/store.ts'
import { typeName } from '../zone/rrtype.ts'
import type { Clock } from '../util/time.ts'
import { zoneFor, type Caller, type ZoneDeps } from '../zones/context.ts'

/** The task kind of a scan (`tasks/jobs/dangling-scan.ts`). */
export const DANGLING_SCAN = 'dangling-scan'

/** The spec's limit: zones of at most this many records are scanned ("Limits", Dangling DNS). */
export const DANGLING_MAX_RECORDS = 20_000

/** The input of a scan task: the zone and the report version it fills. */
export interface DanglingScanPayload {
  zoneId: string
  version: string
}

export type DanglingStatus = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED'

/** The record types the report's `type` filter takes (the real API's list; case-sensitive). */
export const DANGLING_TYPES = ['CNAME', 'A', 'AAAA'] as const

/** What `GET …/healthchecks/dangling` asks for, checked. */
export interface DanglingQuery {
  /** Absolute host name, lower case, with the final dot. */
  host?: string
  type?: typeof DANGLING_TYPES[number]
  order: 'ASC' | 'DESC'
  offset: number
  limit: number
}

/** One page of a zone's report as the API shows it (before the API's spellings). */
export interface DanglingPage {
  zone: string
  version: string
  status: DanglingStatus
  /** Progress, the failure's reason, or "No data found." for a completed report with nothing to show. */
  message?: string
  totalCount: number
  offset: number
  order: 'ASC' | 'DESC'
  findings: DanglingFinding[]
}

/** The message of a completed report with no record to show (spec: "the message that no data was found"). */
export const NO_DATA_MESSAGE = 'No data found.'

/**
 * Why a zone cannot be scanned: not a primary (a secondary's records belong to its primary name
 * servers; an alias has none of its own), or more than 20,000 records.
 * @throws ZonalError DANGLING_ZONE_NOT_PRIMARY (53001), DANGLING_ZONE_TOO_LARGE (53005)
 */
export function checkScannable (zone: Pick<ZoneWithAccount, 'name' | 'zone_type' | 'record_count'>): void {
  if (zone.zone_type !== 'PRIMARY') throw new ZonalError('DANGLING_ZONE_NOT_PRIMARY', zone.name, zone.zone_type === 'SECONDARY' ? 'a secondary' : 'an alias')
  if (zone.record_count > DANGLING_MAX_RECORDS) throw new ZonalError('DANGLING_ZONE_TOO_LARGE', zone.name, zone.record_count)
}

/**
 * The report's state as the caller should see it: a report still IN_PROGRESS whose task ended
 * (ERROR after its worker stopped too often, or gone) is FAILED with the task's reason, so a
 * scan cut short never shows IN_PROGRESS for ever.
 */
export function effectiveState (report: DanglingReport): { status: DanglingStatus, message: string | null } {
  if (report.status !== 'IN_PROGRESS') return { status: report.status, message: report.message }
  if (report.task === undefined) return { status: 'FAILED', message: 'The scan stopped before it finished.' }
  if (report.task.code === 'ERROR') return { status: 'FAILED', message: report.task.message }
  if (report.task.code === 'COMPLETE') return { status: 'FAILED', message: 'The scan stopped before it finished.' }
  return { status: 'IN_PROGRESS', message: report.message }
}

/**
 * `POST /v1/zones/{zone}/healthchecks/dangling`: check the zone (read permission, primary, at
 * most 20,000 records) and start a scan, replacing the zone's earlier report: the report
 * (IN_PROGRESS, version = now) and the task running the scan in one transaction. While a scan of
 * the zone is running, that report is returned and no second scan starts.
 * @throws ZonalError ZONE_NOT_FOUND (1801), PERMISSION_DENIED, DANGLING_ZONE_NOT_PRIMARY, DANGLING_ZONE_TOO_LARGE
 */
export async function requestDanglingScan (deps: ZoneDeps, caller: Caller, name: string, clock: Clock): Promise<{ zone: ZoneWithAccount, report: DanglingReport, started: boolean }> {
  const zone = await zoneFor(deps, caller, name, 'read')
  checkScannable(zone)
  const scope = caller.principal.scope('read')
  const running = await deps.store.danglingReports.find(zone.id, scope)
  if (running !== undefined && effectiveState(running).status === 'IN_PROGRESS') return { zone, report: running, started: false }
  const version = clock().toISOString()
  await deps.store.transaction(async (tx) => {
    const payload: DanglingScanPayload = { zoneId: zone.id, version }
    const task = await tx.tasks.create({ accountId: zone.account_id, userId: caller.principal.userId, kind: DANGLING_SCAN, message: 'Pending', payload })
    await tx.danglingReports.start({ zoneId: zone.id, accountId: zone.account_id, version, taskId: task.id, message: 'The scan is waiting to start.' })
  })
  const report = await deps.store.danglingReports.find(zone.id, scope)
  if (report === undefined) throw new Error('the dangling DNS report just started is missing')
  return { zone, report, started: true }
}

/**
 * Check the query of `GET …/healthchecks/dangling` (every value arrives as text): `host` exact
 * (with or without the final dot, any case), `type` CNAME, A or AAAA (case-sensitive), `sort`
 * host, `order` ASC or DESC (case-sensitive), `offset` ≥ 0, `limit` 1–1000 (default 100).
 * @throws ZonalError INVALID_INPUT, REPORT_SORT_INVALID, REPORT_LIMIT_INVALID, REPORT_OFFSET_INVALID, REPORT_OFFSET_NEGATIVE
 */
export function parseDanglingQuery (q: { host?: string, type?: string, sort?: string, order?: string, offset?: string, limit?: string }): DanglingQuery {
  const out: DanglingQuery = { order: 'ASC', offset: 0, limit: 100 }
  if (q.host !== undefined && q.host !== '') {
    if (q.host.includes('*')) throw new ZonalError('INVALID_INPUT', `host '${q.host}': wildcard searches are not supported; give the exact host name.`)
    if (q.host.length > 255) throw new ZonalError('INVALID_INPUT', 'host must be at most 255 characters.')
    out.host = q.host.toLowerCase().replace(/\.?$/, '.')
  }
  if (q.type !== undefined && q.type !== '') {
    const type = DANGLING_TYPES.find(t => t === q.type)
    if (type === undefined) throw new ZonalError('INVALID_INPUT', `type '${q.type}' must be one of ${DANGLING_TYPES.join(', ')} (case-sensitive).`)
    out.type = type
  }
  if (q.sort !== undefined && q.sort !== '' && q.sort !== 'host') throw new ZonalError('REPORT_SORT_INVALID', `${q.sort} (the dangling DNS report sorts by host)`)
  if (q.order !== undefined && q.order !== '') {
    if (q.order !== 'ASC' && q.order !== 'DESC') throw new ZonalError('INVALID_INPUT', `order '${q.order}' must be ASC or DESC (case-sensitive).`)
    out.order = q.order
  }
  if (q.offset !== undefined && q.offset !== '') {
    if (!/^-?\d{1,15}$/.test(q.offset.trim())) throw new ZonalError('REPORT_OFFSET_INVALID', q.offset)
    const offset = Number(q.offset)
    if (offset < 0) throw new ZonalError('REPORT_OFFSET_NEGATIVE')
    out.offset = offset
  }
  if (q.limit !== undefined && q.limit !== '') {
    const limit = /^\d{1,5}$/.test(q.limit.trim()) ? Number(q.limit) : NaN
    if (!(limit >= 1 && limit <= 1000)) throw new ZonalError('REPORT_LIMIT_INVALID', q.limit, 1000)
    out.limit = limit
  }
  return out
}

/** Hosts compared as names: without case, the final dot kept. */
function hostKey (name: string): string {
  return name.toLowerCase()
}

/**
 * A page of the findings: those matching `host` and `type`, ordered by host (then type and
 * record data, for a stable order), `offset` and `limit` applied.
 */
export function pageOfFindings (findings: readonly DanglingFinding[], q: DanglingQuery): { total: number, page: DanglingFinding[] } {
  const matching = findings.filter(f => (q.host === undefined || hostKey(f.ownerName) === q.host) && (q.type === undefined || typeName(f.type) === q.type))
  const sign = q.order === 'ASC' ? 1 : -1
  const cmp = (a: string, b: string): number => a < b ? -1 : a > b ? 1 : 0
  matching.sort((a, b) => sign * (cmp(hostKey(a.ownerName), hostKey(b.ownerName)) || cmp(typeName(a.type), typeName(b.type)) || cmp(a.rdataText, b.rdataText)))
  return { total: matching.length, page: matching.slice(q.offset, q.offset + q.limit) }
}

/** A page of `report` for the zone `zoneName`. */
export function danglingPage (zoneName: string, report: DanglingReport, q: DanglingQuery): DanglingPage {
  const state = effectiveState(report)
  const { total, page } = state.status === 'COMPLETED' ? pageOfFindings(report.findings ?? [], q) : { total: 0, page: [] }
  const message = state.status === 'COMPLETED' ? (total === 0 ? NO_DATA_MESSAGE : undefined) : state.message ?? undefined
  return {
    zone: zoneName,
    version: report.version,
    status: state.status,
    ...(message === undefined ? {} : { message }),
    totalCount: total,
    offset: q.offset,
    order: q.order,
    findings: page
  }
}

/**
 * `GET /v1/zones/{zone}/healthchecks/dangling`: the zone's latest report (read permission), a page
 * of it. The zone's type and size are checked as for a scan, so a secondary or a zone grown past
 * 20,000 records answers the same error as its POST.
 * @throws ZonalError ZONE_NOT_FOUND (1801), PERMISSION_DENIED, DANGLING_ZONE_NOT_PRIMARY, DANGLING_ZONE_TOO_LARGE, DANGLING_REPORT_NOT_FOUND (70002)
 */
export async function readDanglingReport (deps: ZoneDeps, caller: Caller, name: string, q: DanglingQuery): Promise<DanglingPage> {
  const zone = await zoneFor(deps, caller, name, 'read')
  checkScannable(zone)
  const report = await deps.store.danglingReports.find(zone.id, caller.principal.scope('read'))
  if (report === undefined) throw new ZonalError('DANGLING_REPORT_NOT_FOUND', zone.name)
  return danglingPage(zone.name, report, q)
}
