import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { validateProfile } from '../../../src/zone/pools/index.ts'
import type { PoolProfile } from '../../../src/zone/pools/profile.ts'
import { decidePool, decisionVaries, pickAnswer, poolCandidates, type PoolDecision } from '../../../src/zone/pools/select.ts'
import { context, OWNER } from './helpers.ts'

const R = ['192.0.2.1', '192.0.2.2', '192.0.2.3']

function profile (schema: string, fields: Record<string, unknown>, rdata: readonly string[] = R): PoolProfile {
  return validateProfile(1, { '@context': context(schema), ...fields }, rdata, OWNER).profile
}

const down = (...rdata: string[]) => (r: string) => rdata.includes(r) ? 'DOWN' as const : 'UP' as const
const ALL_UP = down()

/** The candidates' rdata of one answer (turn 0, a random source that always says 0). */
function served (p: PoolProfile, health = ALL_UP, records: readonly string[] = R, turn = 0): string[] {
  const d = decidePool(p, records, health)
  const candidates = poolCandidates(p, records)
  return pickAnswer(d, () => 0, turn).map(i => candidates[i]!)
}

/** A deterministic uniform source (mulberry32). */
function seeded (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const sbInfo = (priority: number, state = 'NORMAL') => ({ state, priority, runProbes: true, failoverDelay: 0, threshold: 1 })
const MONITOR = { method: 'GET', url: 'http://192.0.2.200/health' }

describe('SB pool answers', () => {
  const sb = (extra: Record<string, unknown> = {}) => profile('SBPool', {
    order: 'FIXED', maxActive: 1, rdataInfo: [sbInfo(1), sbInfo(2), sbInfo(3)], backupRecords: [{ rdata: '198.51.100.9' }], ...extra
  })

  it('serves the top priority record while it is up, the next when it fails, and back when it recovers', () => {
    assert.deepEqual(served(sb()), ['192.0.2.1'])
    assert.deepEqual(served(sb(), down('192.0.2.1')), ['192.0.2.2'])
    assert.deepEqual(served(sb(), down('192.0.2.1', '192.0.2.2')), ['192.0.2.3'])
    assert.deepEqual(served(sb(), ALL_UP), ['192.0.2.1'])
  })

  it('orders by priority, not position', () => {
    const p = sb({ rdataInfo: [sbInfo(3), sbInfo(1), sbInfo(2)] })
    assert.deepEqual(served(p), ['192.0.2.2'])
    assert.deepEqual(served(p, down('192.0.2.2')), ['192.0.2.3'])
  })

  it('serves the backup records when every record is down', () => {
    assert.deepEqual(served(sb(), down(...R)), ['198.51.100.9'])
  })

  it('serves the backups once failureThreshold records are down', () => {
    const p = sb({ failureThreshold: 2 })
    assert.deepEqual(served(p, down('192.0.2.1')), ['192.0.2.2'])
    assert.deepEqual(served(p, down('192.0.2.1', '192.0.2.3')), ['198.51.100.9'])
  })

  it('keeps maxActive records active and serves maxServed of them per answer', () => {
    const p = sb({ maxActive: 2, maxServed: 2 })
    assert.deepEqual(served(p), ['192.0.2.1', '192.0.2.2'])
    assert.deepEqual(served(p, down('192.0.2.2')), ['192.0.2.1', '192.0.2.3'])
    const one = sb({ maxActive: 2, maxServed: 1, order: 'ROUND_ROBIN' })
    assert.deepEqual([0, 1, 2, 3].map(turn => served(one, ALL_UP, R, turn)), [['192.0.2.1'], ['192.0.2.2'], ['192.0.2.1'], ['192.0.2.2']])
    assert.equal(decisionVaries(decidePool(one, R, ALL_UP)), true)
    assert.equal(decisionVaries(decidePool(p, R, ALL_UP)), false)
  })

  it('never serves a record forced INACTIVE, always one forced ACTIVE', () => {
    const p = sb({ rdataInfo: [sbInfo(1, 'INACTIVE'), sbInfo(2, 'ACTIVE'), sbInfo(3)] })
    assert.deepEqual(served(p), ['192.0.2.2'])
    assert.deepEqual(served(p, down('192.0.2.2')), ['192.0.2.2'])
  })

  it('ignores the health when the pool does not act on probes', () => {
    assert.deepEqual(served(sb({ actOnProbes: false }), down('192.0.2.1')), ['192.0.2.1'])
  })

  it('fails open without backup records: the records as configured', () => {
    const p = sb({ backupRecords: [] })
    assert.deepEqual(served(p, down(...R)), ['192.0.2.1'])
  })

  it('serves the backups that are up, all of them when none is', () => {
    const p = sb({ backupRecords: [{ rdata: '198.51.100.9' }, { rdata: '198.51.100.10' }] })
    assert.deepEqual(served(p, down(...R, '198.51.100.9')), ['198.51.100.10'])
    assert.deepEqual(served(p, down(...R, '198.51.100.9', '198.51.100.10')), ['198.51.100.9', '198.51.100.10'])
  })
})

describe('TC pool answers', () => {
  const tc = (extra: Record<string, unknown> = {}) => profile('TCPool', {
    maxToLB: 1,
    rdataInfo: [{ ...sbInfo(1), weight: 2 }, { ...sbInfo(2), weight: 4 }, { ...sbInfo(3), weight: 10 }],
    backupRecord: { rdata: '198.51.100.9' },
    ...extra
  })

  it('draws among the healthy records only, and again among all when they recover', () => {
    const d = decidePool(tc(), R, down('192.0.2.3'))
    assert.deepEqual(d, { kind: 'weighted', serve: [0, 1], weights: [2, 4], count: 1 })
    assert.deepEqual(decidePool(tc(), R, ALL_UP), { kind: 'weighted', serve: [0, 1, 2], weights: [2, 4, 10], count: 1 })
  })

  it('serves the backup record when every record is down', () => {
    assert.deepEqual(served(tc(), down(...R)), ['198.51.100.9'])
  })

  it('serves maxToLB distinct records per answer', () => {
    const d = decidePool(tc({ maxToLB: 2 }), R, ALL_UP)
    const random = seeded(7)
    for (let i = 0; i < 200; i++) {
      const picked = pickAnswer(d, random, i)
      assert.equal(picked.length, 2)
      assert.notEqual(picked[0], picked[1])
    }
  })

  it('draws each record in proportion to its weight (seeded, exact counts)', () => {
    const d = decidePool(tc(), R, ALL_UP)
    const random = seeded(42)
    const counts = [0, 0, 0]
    const N = 16000
    for (let i = 0; i < N; i++) counts[pickAnswer(d, random, i)[0]!]!++
    // Expected 2000, 4000, 10000: within 5 % of each (a seeded source: the counts are fixed).
    assert.ok(Math.abs(counts[0]! - 2000) < 100, String(counts))
    assert.ok(Math.abs(counts[1]! - 4000) < 200, String(counts))
    assert.ok(Math.abs(counts[2]! - 10000) < 500, String(counts))
  })
})

describe('SF pool answers', () => {
  const sf = (extra: Record<string, unknown> = {}) => profile('SFPool', {
    regionFailureSensitivity: 'HIGH', monitor: MONITOR, backupRecord: { rdata: '198.51.100.9' }, ...extra
  }, ['192.0.2.1'])

  it('serves the live record while it is up, the failover record when it is down', () => {
    assert.deepEqual(served(sf(), ALL_UP, ['192.0.2.1']), ['192.0.2.1'])
    assert.deepEqual(served(sf(), down('192.0.2.1'), ['192.0.2.1']), ['198.51.100.9'])
  })

  it('serves the failover record when the live record is forced inactive', () => {
    assert.deepEqual(served(sf({ liveRecordState: 'FORCED_INACTIVE' }), ALL_UP, ['192.0.2.1']), ['198.51.100.9'])
  })
})

describe('SLB pool answers', () => {
  const slb = (extra: Record<string, unknown> = {}) => profile('SLBPool', {
    responseMethod: 'PRIORITY_HUNT', monitor: MONITOR, allFailRecord: { rdata: '198.51.100.9' }, rdataInfo: [{}, {}, {}], ...extra
  })

  it('PRIORITY_HUNT serves the first healthy record in order', () => {
    assert.deepEqual(served(slb()), ['192.0.2.1'])
    assert.deepEqual(served(slb(), down('192.0.2.1')), ['192.0.2.2'])
  })

  it('serves the all-fail record when every record is down, and the records once they recover', () => {
    assert.deepEqual(served(slb(), down(...R)), ['198.51.100.9'])
    assert.deepEqual(served(slb(), ALL_UP), ['192.0.2.1'])
  })

  it('ROUND_ROBIN rotates one healthy record per answer', () => {
    const p = slb({ responseMethod: 'ROUND_ROBIN' })
    assert.deepEqual([0, 1, 2].map(turn => served(p, down('192.0.2.2'), R, turn)), [['192.0.2.1'], ['192.0.2.3'], ['192.0.2.1']])
  })

  it('RANDOM serves one healthy record', () => {
    const d = decidePool(slb({ responseMethod: 'RANDOM' }), R, down('192.0.2.1'))
    assert.deepEqual(d, { kind: 'random', serve: [1, 2], count: 1 } satisfies PoolDecision)
  })

  it('honours forced states and the serving preference', () => {
    const forced = slb({ rdataInfo: [{ forcedState: 'FORCED_INACTIVE' }, { forcedState: 'FORCED_ACTIVE' }, {}] })
    assert.deepEqual(served(forced, down('192.0.2.2')), ['192.0.2.2'])
    assert.deepEqual(served(slb({ servingPreference: 'SERVE_ALL_FAIL' })), ['198.51.100.9'])
    assert.deepEqual(served(slb({ servingPreference: 'SERVE_PRIMARY' }), down(...R)), ['192.0.2.1'])
  })
})
