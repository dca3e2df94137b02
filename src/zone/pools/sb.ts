import { ZonalError } from '../../errors/catalog.ts'
import { ADDRESS_TYPES, backupRdataOf, checkInfoCount, descriptionOf, INT32_MAX, ORDERS, type PoolType } from './common.ts'
import { invalid, ProfileObject } from './fields.ts'
import type { BackupRecord, PoolRecordInfo } from './profile.ts'

/** Pool record states of SiteBacker and Traffic Controller pools. */
export const RECORD_STATES = ['NORMAL', 'ACTIVE', 'INACTIVE'] as const

/**
 * Fields the real API computes and clients echo back (Go SDK, GET-then-PUT): accepted with their
 * type checked, never stored, since probing decides them.
 */
export const COMPUTED_KEYS = ['status', 'availableToServe', 'type'] as const

/**
 * One `rdataInfo` entry of an SB or TC pool, defaults filled: state NORMAL, runProbes true,
 * priority = position (1-based), failoverDelay 0 minutes, threshold 1, restorationDelay (failback
 * delay) only when given; TC adds `weight`
 * (default 2).
 *
 * @throws ZonalError POOL_PRIORITY_INVALID (110008), TC_POOL_WEIGHT_INVALID (110015),
 *   POOL_PROFILE_INVALID, POOL_PROFILE_KEY_INVALID.
 */
export function recordInfoOf (value: unknown, path: string, index: number, weighted: true): PoolRecordInfo & { weight: number }
export function recordInfoOf (value: unknown, path: string, index: number, weighted: false): PoolRecordInfo
export function recordInfoOf (value: unknown, path: string, index: number, weighted: boolean): PoolRecordInfo & { weight?: number } {
  const keys = ['state', 'runProbes', 'priority', 'failoverDelay', 'restorationDelay', 'threshold', ...COMPUTED_KEYS]
  const r = ProfileObject.of(value, path, weighted ? [...keys, 'weight'] : keys)
  checkComputed(r)
  const info: PoolRecordInfo & { weight?: number } = {
    state: r.choice('state', RECORD_STATES) ?? 'NORMAL',
    runProbes: r.bool('runProbes', true),
    priority: r.int('priority', 1, 99999, 'POOL_PRIORITY_INVALID') ?? index + 1,
    failoverDelay: r.int('failoverDelay', 0, 30) ?? 0,
    threshold: r.int('threshold', 1, INT32_MAX) ?? 1
  }
  // The failback delay (minutes); without it failback waits failoverDelay (the real API's default). Kept only when given.
  const restorationDelay = r.int('restorationDelay', 0, 30)
  if (restorationDelay !== undefined) info.restorationDelay = restorationDelay
  if (weighted) {
    const weight = r.raw('weight')
    if (weight !== undefined && (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 2 || weight > 100 || weight % 2 !== 0)) {
      throw new ZonalError('TC_POOL_WEIGHT_INVALID', r.at('weight'))
    }
    info.weight = (weight as number | undefined) ?? 2
  }
  return info
}

/** Type-check the computed fields a client echoed (they are dropped): flags and strings. */
export function checkComputed (r: ProfileObject, keys: readonly string[] = COMPUTED_KEYS): void {
  for (const key of keys) {
    if (key === 'availableToServe' || key === 'serving') r.bool(key, false)
    else r.string(key)
  }
}

/** A backup record `{rdata, failoverDelay}` of an SB or TC pool: an address of the pool's family. */
export function backupRecordOf (value: unknown, path: string, type: number): BackupRecord {
  const r = ProfileObject.of(value, path, ['rdata', 'failoverDelay', 'availableToServe', 'type'])
  checkComputed(r)
  return { rdata: backupRdataOf(r, type), failoverDelay: r.int('failoverDelay', 0, 30) ?? 0 }
}

/**
 * SB (SiteBacker) pool, `SBPool.jsonschema`: prioritised records with probes and backup
 * records (reference notes §7; Java `SiteBackerPoolProfile`, Go `sbpool.Profile`). Defaults:
 * description = owner, runProbes and actOnProbes true, order ROUND_ROBIN, maxActive 1,
 * maxServed = maxActive, failureThreshold 0, no backup records.
 *
 * @throws ZonalError SB_POOL_RDATA_INFO_COUNT (110007) unless one rdataInfo per rdata,
 *   POOL_ORDER_INVALID (70007), and the field errors of {@link recordInfoOf}.
 */
export const SB_POOL: PoolType<'SB_POOLS'> = {
  kind: 'SB_POOLS',
  schema: 'SBPool',
  label: 'SB',
  rrtypes: ADDRESS_TYPES,
  rrtypeText: 'A or AAAA',
  validate ({ type, profile, rdata, ownerName }) {
    const p = ProfileObject.of(profile, 'profile', ['@context', 'description', 'runProbes', 'actOnProbes', 'order', 'maxActive',
      'maxServed', 'failureThreshold', 'rdataInfo', 'backupRecords', 'status'])
    p.string('status')
    const infos = p.list('rdataInfo')
    checkInfoCount('SB_POOL_RDATA_INFO_COUNT', infos, rdata)
    const maxActive = p.int('maxActive', 1, INT32_MAX) ?? 1
    const maxServed = p.int('maxServed', 0, INT32_MAX) ?? maxActive
    if (maxServed > maxActive) throw invalid(`${p.at('maxServed')} must not be larger than maxActive (${maxActive})`)
    return {
      description: descriptionOf(p, 'description', ownerName),
      runProbes: p.bool('runProbes', true),
      actOnProbes: p.bool('actOnProbes', true),
      order: p.choice('order', ORDERS, 'POOL_ORDER_INVALID') ?? 'ROUND_ROBIN',
      maxActive,
      maxServed,
      failureThreshold: p.int('failureThreshold', 0, INT32_MAX) ?? 0,
      rdataInfo: (infos ?? []).map((e, i) => recordInfoOf(e.value, e.path, i, false)),
      backupRecords: (p.list('backupRecords') ?? []).map(e => backupRecordOf(e.value, e.path, type))
    }
  },
  summary: (p) => `order ${String(p.order)}, max active ${String(p.maxActive)}, max served ${String(p.maxServed)}`
}
