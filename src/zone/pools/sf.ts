import { ZonalError } from '../../errors/catalog.ts'
import { ADDRESS_TYPES, backupRdataOf, descriptionOf, monitorOf, SENSITIVITIES, type PoolType } from './common.ts'
import { ProfileObject } from './fields.ts'

/**
 * SF (Simple Failover) pool, `SFPool.jsonschema`: one live record, monitored by `monitor`,
 * replaced by `backupRecord` when the regions see it fail (reference notes §7; Java
 * `SimpleFailoverPoolProfile`, Go `sfpool.Profile`). Required: regionFailureSensitivity,
 * monitor, backupRecord.rdata. Defaults: liveRecordState NOT_FORCED, descriptions = owner for
 * the pool and empty for the live and backup records.
 *
 * @throws ZonalError SF_POOL_LIVE_RECORDS (100010) unless exactly one rdata,
 *   SF_POOL_BACKUP_RECORD_REQUIRED (100002), SF_POOL_REGION_FAILURE_SENSITIVITY_REQUIRED
 *   (100004), SF_POOL_RECORD_STATE_INVALID (10005), the monitor errors (100003, 110002, 110003),
 *   POOL_FAILOVER_RDATA_REQUIRED (110001), POOL_PROFILE_INVALID, POOL_PROFILE_KEY_INVALID.
 */
export const SF_POOL: PoolType<'SF_POOLS'> = {
  kind: 'SF_POOLS',
  schema: 'SFPool',
  label: 'SF',
  rrtypes: ADDRESS_TYPES,
  rrtypeText: 'A or AAAA',
  validate ({ type, profile, rdata, ownerName }) {
    const p = ProfileObject.of(profile, 'profile', ['@context', 'liveRecordState', 'liveRecordDescription', 'poolDescription',
      'regionFailureSensitivity', 'monitor', 'backupRecord', 'status'])
    p.string('status')
    if (rdata.length !== 1) throw new ZonalError('SF_POOL_LIVE_RECORDS', `${rdata.length} rdata`)
    const state = p.raw('liveRecordState')
    if (state !== undefined && state !== 'NOT_FORCED' && state !== 'FORCED_INACTIVE') throw new ZonalError('SF_POOL_RECORD_STATE_INVALID', p.at('liveRecordState'))
    if (!p.has('regionFailureSensitivity')) throw new ZonalError('SF_POOL_REGION_FAILURE_SENSITIVITY_REQUIRED', p.at('regionFailureSensitivity'))
    const sensitivity = p.choice('regionFailureSensitivity', SENSITIVITIES)!
    const monitor = monitorOf(p)
    const backup = p.object('backupRecord', ['rdata', 'description'])
    if (backup === undefined) throw new ZonalError('SF_POOL_BACKUP_RECORD_REQUIRED', p.at('backupRecord'))
    return {
      liveRecordState: state ?? 'NOT_FORCED',
      liveRecordDescription: p.string('liveRecordDescription') ?? '',
      poolDescription: descriptionOf(p, 'poolDescription', ownerName),
      regionFailureSensitivity: sensitivity,
      monitor,
      backupRecord: { rdata: backupRdataOf(backup, type), description: backup.string('description') ?? '' }
    }
  },
  summary: (p) => {
    const backup = p.backupRecord as { rdata?: unknown } | undefined
    const monitor = p.monitor as { method?: unknown, url?: unknown } | undefined
    return `backup ${String(backup?.rdata)}, monitor ${String(monitor?.method)} ${String(monitor?.url)}`
  }
}
