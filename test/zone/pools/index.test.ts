import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { poolComment, poolKindOfContext, profileDocument, validateProfile, type PoolProfile } from '../../../src/zone/pools/index.ts'
import { context, OWNER, refused } from './helpers.ts'

describe('validateProfile', () => {
  it('names the pool kind of each @context', () => {
    const kinds = {
      RDPool: 'RD_POOLS', SBPool: 'SB_POOLS', TCPool: 'TC_POOLS', SFPool: 'SF_POOLS', SLBPool: 'SLB_POOLS', DirPool: 'DIR_POOLS'
    }
    const minimal: Record<string, unknown> = {
      RDPool: {},
      SBPool: { rdataInfo: [{}] },
      TCPool: { rdataInfo: [{}] },
      SFPool: { regionFailureSensitivity: 'LOW', monitor: { method: 'GET', url: 'https://www.example.org/' }, backupRecord: { rdata: '192.0.2.9' } },
      SLBPool: { rdataInfo: [{}], monitor: { method: 'GET', url: 'https://www.example.org/' }, allFailRecord: { rdata: '192.0.2.9' } },
      DirPool: { rdataInfo: [{ allNonConfigured: true }] }
    }
    for (const [schema, kind] of Object.entries(kinds)) {
      const result = validateProfile(1, { '@context': context(schema), ...minimal[schema] as object }, ['192.0.2.1'], OWNER)
      assert.equal(result.kind, kind)
      assert.equal(result.profile.kind, kind)
      const document = profileDocument(result.profile)
      assert.equal(document['@context'], context(schema))
      assert.equal(Object.keys(document)[0], '@context')
      assert.equal('kind' in document, false)
      assert.equal(poolKindOfContext(document['@context']), kind)
    }
  })

  it('refuses a missing or unknown @context with 70008', () => {
    refused({ order: 'FIXED' }, 70008, 'profile.@context')
    refused({ '@context': 'http://schemas.ultradns.com/Pool.jsonschema' }, 70008, 'profile.@context')
    refused({ '@context': 'https://schemas.ultradns.com/RDPool.jsonschema' }, 70008, 'profile.@context')
    refused({ '@context': 42 }, 70008, 'profile.@context')
  })

  it('refuses ARPool as not supported (110004)', () => {
    refused({ '@context': context('ARPool') }, 110004, 'ARPool')
  })

  it('refuses a profile that is not an object (110004)', () => {
    refused('RDPool', 110004, 'profile')
    refused([], 110004, 'profile')
    refused(null, 110004, 'profile')
  })
})

describe('poolKindOfContext', () => {
  it('is undefined for a missing or unknown @context', () => {
    assert.equal(poolKindOfContext(undefined), undefined)
    assert.equal(poolKindOfContext(context('ARPool')), undefined)
  })
})

describe('poolComment', () => {
  it('names the pool type, owner and main setting', () => {
    const rd = validateProfile(1, { '@context': context('RDPool') }, ['192.0.2.1'], OWNER).profile
    assert.equal(poolComment(rd, OWNER), 'RD pool www.example.org. (order ROUND_ROBIN)')
    const sb = validateProfile(1, { '@context': context('SBPool'), order: 'FIXED', maxActive: 2, rdataInfo: [{}, {}] }, ['192.0.2.1', '192.0.2.2'], OWNER).profile
    assert.equal(poolComment(sb, OWNER), 'SB pool www.example.org. (order FIXED, max active 2, max served 2)')
    const tc = validateProfile(1, { '@context': context('TCPool'), rdataInfo: [{ weight: 4 }] }, ['192.0.2.1'], OWNER).profile
    assert.equal(poolComment(tc, OWNER), 'TC pool www.example.org. (max to LB 1)')
    const dir = validateProfile(16, { '@context': context('DirPool'), rdataInfo: [{ allNonConfigured: true }] }, ['"v=spf1 -all"'], OWNER).profile
    assert.equal(poolComment(dir, OWNER), 'Dir pool www.example.org. (conflict resolve GEO)')
  })

  it('adds a description that is not the owner name, on one line', () => {
    const rd = validateProfile(1, { '@context': context('RDPool'), order: 'FIXED', description: 'web\nfarm' }, ['192.0.2.1'], OWNER).profile
    assert.equal(poolComment(rd, OWNER), 'RD pool www.example.org. (order FIXED): web farm')
    const sf = validateProfile(1, {
      '@context': context('SFPool'),
      poolDescription: 'failover',
      regionFailureSensitivity: 'HIGH',
      monitor: { method: 'GET', url: 'http://www.example.org/health' },
      backupRecord: { rdata: '192.0.2.9' }
    }, ['192.0.2.1'], OWNER).profile
    assert.equal(poolComment(sf, OWNER), 'SF pool www.example.org. (backup 192.0.2.9, monitor GET http://www.example.org/health): failover')
  })

  it('falls back to "Pool <owner>" for a profile of unknown type', () => {
    assert.equal(poolComment({ kind: 'X_POOLS' } as unknown as PoolProfile, OWNER), 'Pool www.example.org.')
  })
})
