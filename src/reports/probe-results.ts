import type { Principal } from '../auth/principal.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { ProbeRunQuery, ReportedRun, RunSummary, Store } from '../store/store.ts'
import { poolTypeOf } from '../traffic/decide.ts'
import { AGENT_NAMES } from '../traffic/probe-definition.ts'
import type { PoolProfile } from '../zone/pools/profile.ts'
import { parseTypeName } from '../zone/rrtype.ts'
import { zoneNameFrom } from '../zones/context.ts'
import { choice, limitFrom, RECORD_TYPES, readableAccount, reportWindow, text } from './failover.ts'

/**
 * The probe result reports, v2 (the real API's "Probe Result Summary v2" and "Probe Result
 * Details v2" pages): the probe runs this installation recorded for one account's current
 * pools, one row per run (details) or counted per pool record and region (summary). Window:
 * default the last 24 hours, span at most 7 days, start within 3 months; limit 1–1000 (default
 * 1000); pages by an offset cursor in the Link header.
 */

export const PROBE_REPORT_SPAN_DAYS = 7
/** The pool kinds of the report's pool type filter (its spellings and the failover report's). */
const KINDS_OF: Readonly<Record<string, PoolProfile['kind']>> = {
  SITE_BACKER: 'SB_POOLS', TRAFFIC_CONTROLLER: 'TC_POOLS', SIMPLE_FAILOVER: 'SF_POOLS', FAILOVER_POOL: 'SF_POOLS', SIMPLE_LOAD_BALANCING: 'SLB_POOLS'
}

export interface ProbeReportInput {
  accountName?: string | undefined
  zoneName?: string | undefined
  poolName?: string | undefined
  trafficServicePoolType?: string | undefined
  probeResultType?: string | undefined
  poolRecord?: string | undefined
  poolRecordType?: string | undefined
  poolProbeRegion?: string | undefined
  reportStartDateTime?: string | undefined
  reportEndDateTime?: string | undefined
  limit?: string | undefined
  cursor?: string | undefined
  cursorOperation?: string | undefined
}

export interface ProbeReportPage<R> {
  rows: R[]
  accountName: string
  resultType: string
  start: string
  end: string
  params: Record<string, string>
  limit: number
  next?: string
  previous?: string
}

function offsetOf (cursor: string | undefined): number {
  const t = text(cursor)
  if (t === undefined) return 0
  const v = /^o(\d{1,9})$/.exec(t)
  if (v === null) throw new ZonalError('INVALID_INPUT', `cursor '${t.slice(0, 64)}' is not a cursor of this report (take it from the Link header)`)
  return Number(v[1])
}

async function page<R> (store: Store, principal: Principal, input: ProbeReportInput, now: Date, read: (q: ProbeRunQuery, offset: number, limit: number) => Promise<R[]>): Promise<ProbeReportPage<R>> {
  const account = readableAccount(principal, input.accountName)
  const { start, end } = reportWindow(input.reportStartDateTime, input.reportEndDateTime, now, PROBE_REPORT_SPAN_DAYS)
  const poolType = choice(input.trafficServicePoolType, Object.keys(KINDS_OF), 'trafficServicePoolType')
  const resultType = choice(input.probeResultType, ['SUCCESS', 'FAILURE'], 'probeResultType')
  const recordType = choice(input.poolRecordType, RECORD_TYPES, 'poolRecordType')
  const region = choice(input.poolProbeRegion, AGENT_NAMES, 'poolProbeRegion')
  const zoneText = text(input.zoneName)
  const poolText = text(input.poolName)
  const poolRecord = text(input.poolRecord)?.toLowerCase()
  if (poolRecord !== undefined && poolRecord.length > 255) throw new ZonalError('INVALID_INPUT', 'poolRecord is longer than 255 characters')
  const limit = limitFrom(input.limit)
  const operation = (text(input.cursorOperation) ?? 'NEXT').toUpperCase()
  if (operation !== 'NEXT' && operation !== 'PREVIOUS') throw new ZonalError('INVALID_INPUT', `cursorOperation '${input.cursorOperation!.slice(0, 16)}' must be NEXT or PREVIOUS`)
  const offset = offsetOf(input.cursor)
  const from = new Date(start).toISOString()
  const to = new Date(end).toISOString()
  const query: ProbeRunQuery = {
    accountId: account.accountId,
    from,
    to,
    ...(zoneText === undefined ? {} : { zoneName: zoneNameFrom(zoneText) }),
    ...(poolText === undefined ? {} : { poolName: zoneNameFrom(poolText) }),
    ...(poolType === undefined ? {} : { poolKinds: [KINDS_OF[poolType]!] }),
    ...(poolRecord === undefined ? {} : { poolRecord }),
    ...(recordType === undefined ? {} : { rrtype: parseTypeName(recordType)! }),
    ...(region === undefined ? {} : { region }),
    ...(resultType === undefined ? {} : { ok: resultType === 'SUCCESS' })
  }
  const rows = await read(query, offset, limit + 1)
  const more = rows.length > limit
  const params: Record<string, string> = { accountName: account.accountName }
  if (zoneText !== undefined) params.zoneName = zoneText
  if (poolText !== undefined) params.poolName = poolText
  if (poolType !== undefined) params.trafficServicePoolType = poolType
  if (resultType !== undefined) params.probeResultType = resultType
  if (poolRecord !== undefined) params.poolRecord = poolRecord
  if (recordType !== undefined) params.poolRecordType = recordType
  if (region !== undefined) params.poolProbeRegion = region
  params.reportStartDateTime = from
  params.reportEndDateTime = to
  return {
    rows: rows.slice(0, limit),
    accountName: account.accountName,
    resultType: resultType ?? 'ALL',
    start: from,
    end: to,
    params,
    limit,
    ...(more ? { next: `o${offset + limit}` } : {}),
    ...(offset > 0 ? { previous: `o${Math.max(0, offset - limit)}` } : {})
  }
}

/** `GET /v2/reports/traffic_services/probe_result/details`: one row per run, oldest first. */
export async function probeResultDetails (store: Store, principal: Principal, input: ProbeReportInput, now: Date): Promise<ProbeReportPage<ReportedRun>> {
  return await page(store, principal, input, now, async (q, offset, limit) => await store.traffic.runReport(q, offset, limit))
}

/** `GET /v2/reports/traffic_services/probe_result/summary`: runs counted per pool record and region. */
export async function probeResultSummary (store: Store, principal: Principal, input: ProbeReportInput, now: Date): Promise<ProbeReportPage<RunSummary>> {
  return await page(store, principal, input, now, async (q, offset, limit) => await store.traffic.runSummary(q, offset, limit))
}

/** The report's pool type of a pool kind (the real API's report spellings; SF is SIMPLE_FAILOVER here). */
export function reportPoolType (kind: string): string {
  return kind === 'SF_POOLS' ? 'SIMPLE_FAILOVER' : poolTypeOf(kind as PoolProfile['kind'])
}

/** A percentage with two decimals. */
export function percent (part: number, total: number): number {
  return total === 0 ? 0 : Math.round(part * 10_000 / total) / 100
}
