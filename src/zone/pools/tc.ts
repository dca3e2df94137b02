import { ADDRESS_TYPES, checkInfoCount, descriptionOf, INT32_MAX, type PoolType } from './common.ts'
import { ProfileObject } from './fields.ts'
import { backupRecordOf, recordInfoOf } from './sb.ts'

/**
 * TC (Traffic Controller) pool, `TCPool.jsonschema`: weighted records with probes and one
 * optional backup record (reference notes §7; the fields of Java `TCPoolProfile` and Go
 * `tcpool.Profile`, which carry no order, maxActive or maxServed). Each rdataInfo is an SB one
 * plus `weight`, an even number from 2 to 100 (default 2). Defaults: description = owner,
 * runProbes and actOnProbes true, maxToLB = the number of records, failureThreshold 0.
 *
 * @throws ZonalError TC_POOL_RDATA_INFO_COUNT (110009), TC_POOL_WEIGHT_INVALID (110015), and
 *   the field errors of {@link recordInfoOf}.
 */
export const TC_POOL: PoolType<'TC_POOLS'> = {
  kind: 'TC_POOLS',
  schema: 'TCPool',
  label: 'TC',
  rrtypes: ADDRESS_TYPES,
  rrtypeText: 'A or AAAA',
  validate ({ type, profile, rdata, ownerName }) {
    const p = ProfileObject.of(profile, 'profile', ['@context', 'description', 'runProbes', 'actOnProbes', 'maxToLB',
      'failureThreshold', 'rdataInfo', 'backupRecord', 'status'])
    p.string('status')
    const infos = p.list('rdataInfo')
    checkInfoCount('TC_POOL_RDATA_INFO_COUNT', infos, rdata)
    const backup = p.raw('backupRecord')
    return {
      description: descriptionOf(p, 'description', ownerName),
      runProbes: p.bool('runProbes', true),
      actOnProbes: p.bool('actOnProbes', true),
      maxToLB: p.int('maxToLB', 0, INT32_MAX) ?? rdata.length,
      failureThreshold: p.int('failureThreshold', 0, INT32_MAX) ?? 0,
      rdataInfo: (infos ?? []).map((e, i) => recordInfoOf(e.value, e.path, i, true)),
      ...(backup === undefined ? {} : { backupRecord: backupRecordOf(backup, p.at('backupRecord'), type) })
    }
  },
  summary: (p) => `max to LB ${String(p.maxToLB)}`
}
