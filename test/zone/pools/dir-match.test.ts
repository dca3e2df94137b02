import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { compileDir, matchDir } from '../../../src/zone/pools/dir-match.ts'
import { validateProfile } from '../../../src/zone/pools/index.ts'
import type { DirPoolFields } from '../../../src/zone/pools/profile.ts'
import { parseIp } from '../../../src/zone/ip.ts'
import { context, OWNER } from './helpers.ts'

const R = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4']

function dir (fields: Record<string, unknown>, rdata: readonly string[] = R): DirPoolFields {
  const p = validateProfile(1, { '@context': context('DirPool'), ...fields }, rdata, OWNER).profile
  assert.equal(p.kind, 'DIR_POOLS')
  return p
}

const ip = (text: string): Uint8Array => parseIp(text)!

/** Records: 0 all others, 1 the US and Canada, 2 Europe, 3 two loopback ranges; no answer for 127.0.0.9 and Japan. */
const POOL = dir({
  rdataInfo: [
    { allNonConfigured: true },
    { geoInfo: { name: 'north', codes: ['US', 'CA'] } },
    { geoInfo: { name: 'europe', codes: ['EUR'] } },
    { ipInfo: { name: 'lab', ips: [{ cidr: '127.0.0.0/30' }, { start: '127.0.1.10', end: '127.0.1.20' }, { address: '2001:db8::5' }] } }
  ],
  noResponse: { geoInfo: { name: 'none', codes: ['JP'] }, ipInfo: { name: 'blocked', ips: [{ address: '127.0.0.9' }] } }
})

describe('directional pool matching', () => {
  const m = compileDir(POOL)

  it('answers by country, then by the country\'s region', () => {
    assert.deepEqual(matchDir(m, ip('203.0.113.1'), 'US'), [1])
    assert.deepEqual(matchDir(m, ip('203.0.113.1'), 'CA'), [1])
    assert.deepEqual(matchDir(m, ip('203.0.113.1'), 'DE'), [2])
    assert.deepEqual(matchDir(m, ip('203.0.113.1'), 'FR'), [2])
  })

  it('answers by source IP ranges (CIDR, start-end, one address; IPv4 and IPv6)', () => {
    assert.deepEqual(matchDir(m, ip('127.0.0.2'), undefined), [3])
    assert.deepEqual(matchDir(m, ip('127.0.1.15'), undefined), [3])
    assert.deepEqual(matchDir(m, ip('2001:db8::5'), undefined), [3])
    assert.deepEqual(matchDir(m, ip('127.0.1.21'), undefined), [0])
  })

  it('takes the default record for clients no group holds', () => {
    assert.deepEqual(matchDir(m, ip('203.0.113.1'), 'BR'), [0])
    assert.deepEqual(matchDir(m, undefined, undefined), [0])
  })

  it('answers nothing to the noResponse groups', () => {
    assert.deepEqual(matchDir(m, ip('127.0.0.9'), undefined), [])
    assert.deepEqual(matchDir(m, ip('203.0.113.1'), 'JP'), [])
  })

  it('lets conflictResolve choose between a geo and an IP match', () => {
    assert.deepEqual(matchDir(m, ip('127.0.0.1'), 'US'), [1])
    const byIp = compileDir({ ...POOL, conflictResolve: 'IP' })
    assert.deepEqual(matchDir(byIp, ip('127.0.0.1'), 'US'), [3])
  })

  it('answers nothing when no group matches and there is no default', () => {
    const m2 = compileDir(dir({ rdataInfo: [{ geoInfo: { name: 'north', codes: ['US'] } }] }, ['192.0.2.1']))
    assert.deepEqual(matchDir(m2, ip('203.0.113.1'), 'DE'), [])
    assert.deepEqual(matchDir(m2, ip('203.0.113.1'), 'US'), [0])
  })

  it('gives a group referred to by name from another record the same codes', () => {
    const m3 = compileDir(dir({
      rdataInfo: [
        { geoInfo: { name: 'north', codes: ['US'] } },
        { geoInfo: { name: 'north', isExistingGroupFromPool: true } }
      ]
    }, ['192.0.2.1', '192.0.2.2']))
    assert.deepEqual(matchDir(m3, ip('203.0.113.1'), 'US'), [0, 1])
  })
})
