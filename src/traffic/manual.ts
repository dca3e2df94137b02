import { randomUUID } from 'node:crypto'
import type { Store, StoredRrset } from '../store/store.ts'
import type { PoolRecordHealth } from '../zone/pools/health.ts'
import type { PoolProfile } from '../zone/pools/profile.ts'
import { typeName } from '../zone/rrtype.ts'
import { poolTypeOf } from './decide.ts'

type Served = 'ACTIVE' | 'INACTIVE'

/** The state a user forced on each record of a pool (SB/TC `state`, SF `liveRecordState`, SLB `forcedState`); absent: not forced. */
export function forcedStates (profile: PoolProfile | null, rdata: readonly string[]): Map<string, Served> {
  const out = new Map<string, Served>()
  if (profile === null) return out
  switch (profile.kind) {
    case 'SB_POOLS':
    case 'TC_POOLS':
      profile.rdataInfo.forEach((info, i) => {
        if (rdata[i] !== undefined && info.state !== 'NORMAL') out.set(rdata[i], info.state)
      })
      break
    case 'SF_POOLS':
      if (rdata[0] !== undefined && profile.liveRecordState === 'FORCED_INACTIVE') out.set(rdata[0], 'INACTIVE')
      break
    case 'SLB_POOLS':
      profile.rdataInfo.forEach((info, i) => {
        if (rdata[i] !== undefined && info.forcedState !== 'NOT_FORCED') out.set(rdata[i], info.forcedState === 'FORCED_ACTIVE' ? 'ACTIVE' : 'INACTIVE')
      })
      break
    default:
      break
  }
  return out
}

/**
 * Record the pool record state changes a user made by forcing states (reason Manual): for each
 * record in the pool before and after the change, its served state (forced, else as the probes
 * decided) before and after; one failover event per record whose state changed, in the
 * transaction of the rrset change (its audit record is the rrset's).
 */
export async function recordManualChanges (tx: Store, zone: { id: string, name: string, account_id: string, account_name: string }, before: StoredRrset | undefined, after: StoredRrset | undefined, at: string, user: string): Promise<number> {
  if (before?.profile == null || after?.profile == null || before.profile.kind !== after.profile.kind) return 0
  const was = forcedStates(before.profile, before.rdataText)
  const now = forcedStates(after.profile, after.rdataText)
  const touched = after.rdataText.filter(r => before.rdataText.includes(r) && was.get(r) !== now.get(r))
  if (touched.length === 0) return 0
  const rows = await tx.traffic.health(zone.id, { ownerKey: after.ownerKey, rrtype: after.type })
  const health = new Map<string, PoolRecordHealth>(rows.map(r => [r.record, r.state]))
  const served = (forced: Map<string, Served>, record: string): Served => forced.get(record) ?? (health.get(record) === 'DOWN' ? 'INACTIVE' : 'ACTIVE')
  const allFail = after.rdataText.every(r => served(now, r) === 'INACTIVE')
  let count = 0
  for (const record of touched) {
    const from = served(was, record)
    const to = served(now, record)
    if (from === to) continue
    await tx.traffic.appendEvent({
      id: randomUUID(),
      at,
      accountId: zone.account_id,
      accountName: zone.account_name,
      zoneId: zone.id,
      zoneName: zone.name,
      poolName: after.ownerName.toLowerCase(),
      poolRecord: record,
      recordType: typeName(after.type),
      poolType: poolTypeOf(after.profile.kind),
      oldState: from,
      newState: to,
      reason: 'Manual',
      allFail,
      node: `api:${user}`
    })
    count++
  }
  return count
}

/**
 * Whether every record of a pool is out of service (forced inactive, or DOWN and not forced
 * active): its backup or all-fail record serves. The failover event's `allFailRecord`.
 */
export function allRecordsOut (profile: PoolProfile, rdata: readonly string[], health: ReadonlyMap<string, PoolRecordHealth>): boolean {
  const forced = forcedStates(profile, rdata)
  return rdata.every(r => (forced.get(r) ?? (health.get(r) === 'DOWN' ? 'INACTIVE' : 'ACTIVE')) === 'INACTIVE')
}
