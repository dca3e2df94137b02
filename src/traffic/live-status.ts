import type { Scope, Store } from '../store/store.ts'
import { normalizeZoneName } from '../zone/name.ts'
import type { PoolRecordHealth } from '../zone/pools/health.ts'
import type { PoolProfile } from '../zone/pools/profile.ts'

/**
 * The computed fields of a pool's profile as GET shows them, from the records' live health (a
 * record without a decided state is UP): `status`, `rdataInfo[].availableToServe`,
 * `backupRecords[].availableToServe` (SB), `backupRecord.availableToServe` (TC),
 * `allFailRecord.serving` (SLB). The rules are the real API's pool pages':
 *
 * - SB and TC `status`: OK when as many records serve as maxActive (TC: maxToLB) and they are the
 *   top-priority ones; WARNING when as many serve but not the top ones; CRITICAL when fewer serve
 *   (a backup record serving among them); FAILED when none serves and there is no backup record,
 *   or when the records not available reach a failureThreshold above 0.
 * - SF `status`: MANUAL when the live record is forced inactive, CRITICAL when the monitor failed
 *   it (the backup serves), OK otherwise.
 * - SLB: a record is available unless forced inactive or DOWN (forced active: always); the
 *   all-fail record serves under SERVE_ALL_FAIL, or under AUTO_SELECT when no record is available.
 */
export function liveProfileFields (profile: PoolProfile, rdata: readonly string[], health: ReadonlyMap<string, PoolRecordHealth>): Record<string, unknown> | undefined {
  const up = (record: string | undefined): boolean => record === undefined || health.get(record) !== 'DOWN'
  switch (profile.kind) {
    case 'SB_POOLS':
    case 'TC_POOLS': {
      const available = profile.rdataInfo.map((info, i) => info.state === 'ACTIVE' || (info.state !== 'INACTIVE' && up(rdata[i])))
      const max = profile.kind === 'SB_POOLS' ? profile.maxActive : Math.max(1, profile.maxToLB)
      const byPriority = profile.rdataInfo.map((info, i) => ({ priority: info.priority, available: available[i]! })).sort((a, b) => a.priority - b.priority)
      const serving = available.filter(Boolean).length
      const backups = profile.kind === 'SB_POOLS' ? profile.backupRecords.length : profile.backupRecord === undefined ? 0 : 1
      const down = available.filter(a => !a).length
      let status: string
      if ((profile.failureThreshold > 0 && down >= profile.failureThreshold) || (serving === 0 && backups === 0)) status = 'FAILED'
      else if (serving >= Math.min(max, available.length)) status = byPriority.slice(0, max).every(r => r.available) ? 'OK' : 'WARNING'
      else status = 'CRITICAL'
      const rdataInfo = profile.rdataInfo.map((info, i) => ({ ...info, availableToServe: available[i]! }))
      if (profile.kind === 'SB_POOLS') {
        return { status, rdataInfo, backupRecords: profile.backupRecords.map(b => ({ ...b, availableToServe: true })) }
      }
      return { status, rdataInfo, ...(profile.backupRecord === undefined ? {} : { backupRecord: { ...profile.backupRecord, availableToServe: true } }) }
    }
    case 'SF_POOLS':
      return { status: profile.liveRecordState === 'FORCED_INACTIVE' ? 'MANUAL' : up(rdata[0]) ? 'OK' : 'CRITICAL' }
    case 'SLB_POOLS': {
      const rdataInfo = profile.rdataInfo.map((info, i) => ({ ...info, availableToServe: info.forcedState === 'FORCED_ACTIVE' || (info.forcedState !== 'FORCED_INACTIVE' && up(rdata[i])) }))
      const serving = profile.servingPreference === 'SERVE_ALL_FAIL' || (profile.servingPreference === 'AUTO_SELECT' && rdataInfo.every(r => !r.availableToServe))
      return { rdataInfo, allFailRecord: { ...profile.allFailRecord, serving } }
    }
    default:
      return undefined
  }
}

/** A name's part under `zone` (both lower case, absolute): `www.` for `www.example.org.` under `example.org.`. */
function under (name: string, zone: string): string {
  const n = name.toLowerCase()
  return n.endsWith(zone) ? n.slice(0, n.length - zone.length) : n
}

/**
 * The live health of the probed pools of the zone `zoneName` in the caller's read scope (an
 * alias: its primary's), by owner relative to the zone (`www.`, '' for the apex) and type; empty
 * when the zone is not found (the rrset read reports that itself).
 */
export async function zonePoolHealth (store: Store, scope: Scope, zoneName: string): Promise<Map<string, Map<string, PoolRecordHealth>>> {
  const out = new Map<string, Map<string, PoolRecordHealth>>()
  let name: string
  try {
    name = normalizeZoneName(zoneName)
  } catch {
    return out
  }
  const zone = await store.zones.findByName(name, scope)
  if (zone === undefined) return out
  const primary = zone.zone_type === 'ALIAS' && zone.original_zone_id !== null ? await store.zones.findById(zone.original_zone_id) : zone
  if (primary === undefined) return out
  for (const row of await store.traffic.health(primary.id)) {
    const key = `${under(row.ownerName, primary.name)}/${row.rrtype}`
    const pool = out.get(key) ?? new Map<string, PoolRecordHealth>()
    pool.set(row.record, row.state)
    out.set(key, pool)
  }
  return out
}

/** The key of an rrset shown under `zoneName` in {@link zonePoolHealth}'s map. */
export function poolHealthKey (ownerName: string, zoneName: string, rrtype: number): string {
  return `${under(ownerName, zoneName.toLowerCase())}/${rrtype}`
}

/** Whether an rrset's profile is one of the pools probes watch (SB, TC, SF, SLB). */
export function isProbedPool (profile: PoolProfile | undefined): boolean {
  return profile !== undefined && (profile.kind === 'SB_POOLS' || profile.kind === 'TC_POOLS' || profile.kind === 'SF_POOLS' || profile.kind === 'SLB_POOLS')
}
