import { validateProfile } from '../../src/zone/pools/index.ts'
import type { PoolProfile } from '../../src/zone/pools/profile.ts'
import { RRType } from '../../src/zone/rrtype.ts'

/** A validated pool profile of an A rrset, from the document a client would send. */
export function poolProfile (document: Record<string, unknown>, rdata: readonly string[], owner: string): PoolProfile {
  return validateProfile(RRType.A, document, rdata, owner).profile
}

/** An SF pool's profile: live record `rdata`, monitor GET `url`, backup `backup`. */
export function sfProfile (owner: string, rdata: string, url: string, backup = '127.0.0.99', extra: Record<string, unknown> = {}): PoolProfile {
  return poolProfile({
    '@context': 'http://schemas.ultradns.com/SFPool.jsonschema',
    regionFailureSensitivity: 'HIGH',
    monitor: { method: 'GET', url, searchString: 'healthy' },
    backupRecord: { rdata: backup },
    ...extra
  }, [rdata], owner)
}

/** An SLB pool's profile over `rdata`, monitor GET `url`. */
export function slbProfile (owner: string, rdata: readonly string[], url: string, allFail = '127.0.0.99'): PoolProfile {
  return poolProfile({
    '@context': 'http://schemas.ultradns.com/SLBPool.jsonschema',
    monitor: { method: 'GET', url },
    allFailRecord: { rdata: allFail },
    rdataInfo: rdata.map(() => ({}))
  }, rdata, owner)
}

/** An SB pool's profile over `rdata` (defaults: runProbes, actOnProbes, threshold 1, no delay). */
export function sbProfile (owner: string, rdata: readonly string[], info: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): PoolProfile {
  return poolProfile({
    '@context': 'http://schemas.ultradns.com/SBPool.jsonschema',
    rdataInfo: rdata.map((_, i) => ({ priority: i + 1, threshold: 1, ...info })),
    backupRecords: [{ rdata: '127.0.0.99' }],
    ...extra
  }, rdata, owner)
}

/** A TC pool's profile over `rdata`. */
export function tcProfile (owner: string, rdata: readonly string[]): PoolProfile {
  return poolProfile({
    '@context': 'http://schemas.ultradns.com/TCPool.jsonschema',
    rdataInfo: rdata.map((_, i) => ({ priority: i + 1, threshold: 1, weight: 2 })),
    backupRecord: { rdata: '127.0.0.99' }
  }, rdata, owner)
}
