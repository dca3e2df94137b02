import { ZonalError } from '../../errors/catalog.ts'
import { ADDRESS_TYPES, backupRdataOf, checkInfoCount, descriptionOf, FORCED_STATES, monitorOf, SENSITIVITIES, type PoolType } from './common.ts'
import { ProfileObject } from './fields.ts'
import { checkComputed } from './sb.ts'

/** At most this many primary records in an SLB pool (90006). */
export const SLB_MAX_RECORDS = 5

/**
 * SLB (Simple Load Balancing) pool, `SLBPool.jsonschema`: up to five monitored records answered
 * by `responseMethod`, with an all-fail record (reference notes §7; Java `SLBPoolProfile`, Go
 * `slbpool.Profile`). Required: monitor, allFailRecord.rdata, one rdataInfo per rdata (`{}` takes
 * the defaults). Defaults: description = owner, responseMethod ROUND_ROBIN, servingPreference
 * AUTO_SELECT, regionFailureSensitivity HIGH; per record forcedState NOT_FORCED, probingEnabled
 * true, description empty. `availableToServe` and `allFailRecord.serving` are computed.
 *
 * @throws ZonalError SLB_POOL_RECORD_COUNT (90006), SLB_POOL_RDATA_INFO_COUNT (90007), the
 *   monitor errors (100003, 110002, 110003), POOL_FAILOVER_RDATA_REQUIRED (110001),
 *   POOL_PROFILE_INVALID, POOL_PROFILE_KEY_INVALID.
 */
export const SLB_POOL: PoolType<'SLB_POOLS'> = {
  kind: 'SLB_POOLS',
  schema: 'SLBPool',
  label: 'SLB',
  rrtypes: ADDRESS_TYPES,
  rrtypeText: 'A or AAAA',
  validate ({ type, profile, rdata, ownerName }) {
    const p = ProfileObject.of(profile, 'profile', ['@context', 'description', 'responseMethod', 'servingPreference',
      'regionFailureSensitivity', 'rdataInfo', 'allFailRecord', 'monitor', 'status'])
    p.string('status')
    if (rdata.length > SLB_MAX_RECORDS) throw new ZonalError('SLB_POOL_RECORD_COUNT', `${rdata.length} rdata`)
    const infos = p.list('rdataInfo')
    checkInfoCount('SLB_POOL_RDATA_INFO_COUNT', infos, rdata)
    const rdataInfo = (infos ?? []).map(e => {
      const r = ProfileObject.of(e.value, e.path, ['description', 'forcedState', 'probingEnabled', 'availableToServe'])
      checkComputed(r, ['availableToServe'])
      return {
        description: r.string('description') ?? '',
        forcedState: r.choice('forcedState', FORCED_STATES) ?? 'NOT_FORCED',
        probingEnabled: r.bool('probingEnabled', true)
      }
    })
    const monitor = monitorOf(p)
    const allFail = p.object('allFailRecord', ['rdata', 'description', 'serving'])
    if (allFail === undefined) throw new ZonalError('POOL_FAILOVER_RDATA_REQUIRED', p.at('allFailRecord'))
    checkComputed(allFail, ['serving'])
    return {
      description: descriptionOf(p, 'description', ownerName),
      responseMethod: p.choice('responseMethod', ['PRIORITY_HUNT', 'RANDOM', 'ROUND_ROBIN'] as const) ?? 'ROUND_ROBIN',
      servingPreference: p.choice('servingPreference', ['AUTO_SELECT', 'SERVE_PRIMARY', 'SERVE_ALL_FAIL'] as const) ?? 'AUTO_SELECT',
      regionFailureSensitivity: p.choice('regionFailureSensitivity', SENSITIVITIES) ?? 'HIGH',
      rdataInfo,
      allFailRecord: { rdata: backupRdataOf(allFail, type), description: allFail.string('description') ?? '' },
      monitor
    }
  },
  summary: (p) => `response ${String(p.responseMethod)}, serving ${String(p.servingPreference)}`
}
