import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { context, OWNER, refused, valid } from './helpers.ts'

const SB = context('SBPool')
const TWO = ['192.0.2.1', '192.0.2.2']

/** The Go SDK's SB pool (examples/pools.go), as it goes on the wire. */
const GO_SB = {
  '@context': SB,
  description: '',
  order: 'FIXED',
  runProbes: true,
  actOnProbes: true,
  maxActive: 1,
  maxServed: 1,
  rdataInfo: [{ state: 'NORMAL', runProbes: true, availableToServe: false, priority: 1, failoverDelay: 0, threshold: 1 }]
}

describe('SB pool profile', () => {
  it('stores the Go SDK\'s profile, dropping the computed availableToServe', () => {
    assert.deepEqual(valid(GO_SB), {
      '@context': SB,
      description: '',
      runProbes: true,
      actOnProbes: true,
      order: 'FIXED',
      maxActive: 1,
      maxServed: 1,
      failureThreshold: 0,
      rdataInfo: [{ state: 'NORMAL', runProbes: true, priority: 1, failoverDelay: 0, threshold: 1 }],
      backupRecords: []
    })
  })

  it('fills the defaults: priorities by position, the owner as description', () => {
    const p = valid({ '@context': SB, rdataInfo: [{}, { state: 'INACTIVE' }], backupRecords: [{ rdata: '192.0.2.9' }] }, TWO)
    assert.equal(p.description, OWNER)
    assert.equal(p.order, 'ROUND_ROBIN')
    assert.deepEqual(p.rdataInfo, [
      { state: 'NORMAL', runProbes: true, priority: 1, failoverDelay: 0, threshold: 1 },
      { state: 'INACTIVE', runProbes: true, priority: 2, failoverDelay: 0, threshold: 1 }
    ])
    assert.deepEqual(p.backupRecords, [{ rdata: '192.0.2.9', failoverDelay: 0 }])
  })

  it('refuses an rdataInfo count that differs from the rdata (110007)', () => {
    refused({ '@context': SB, rdataInfo: [{}] }, 110007, '1 entries for 2 rdata', TWO)
    refused({ '@context': SB }, 110007, '0 entries for 1 rdata')
  })

  it('refuses a priority out of 1..99999 (110008) naming the entry', () => {
    refused({ '@context': SB, rdataInfo: [{}, { priority: 0 }] }, 110008, 'profile.rdataInfo[1].priority', TWO)
    refused({ '@context': SB, rdataInfo: [{ priority: 100000 }] }, 110008, 'profile.rdataInfo[0].priority')
  })

  it('refuses a failover delay over 30 minutes and a bad state (110004)', () => {
    refused({ '@context': SB, rdataInfo: [{ failoverDelay: 31 }] }, 110004, 'profile.rdataInfo[0].failoverDelay')
    refused({ '@context': SB, rdataInfo: [{ state: 'DOWN' }] }, 110004, 'profile.rdataInfo[0].state')
    refused({ '@context': SB, rdataInfo: [{ runProbes: 'yes' }] }, 110004, 'profile.rdataInfo[0].runProbes')
  })

  it('refuses maxServed above maxActive and a bad order', () => {
    refused({ '@context': SB, maxActive: 1, maxServed: 2, rdataInfo: [{}] }, 110004, 'profile.maxServed')
    refused({ '@context': SB, order: 'PRIORITY', rdataInfo: [{}] }, 70007, 'profile.order')
  })

  it('refuses a backup record of the other address family, or without rdata', () => {
    refused({ '@context': SB, rdataInfo: [{}], backupRecords: [{ rdata: '2001:db8::9' }] }, 110004, 'profile.backupRecords[0].rdata')
    refused({ '@context': SB, rdataInfo: [{}], backupRecords: [{ rdata: '192.0.2.9' }] }, 110004, 'profile.backupRecords[0].rdata', ['2001:db8::1'], 28)
    refused({ '@context': SB, rdataInfo: [{}], backupRecords: [{ failoverDelay: 1 }] }, 110001, 'profile.backupRecords[0].rdata')
  })

  it('writes an AAAA backup record in RFC 5952 form', () => {
    const p = valid({ '@context': SB, rdataInfo: [{}], backupRecords: [{ rdata: '2001:DB8:0:0:0:0:0:9', failoverDelay: 5 }] }, ['2001:db8::1'], 28)
    assert.deepEqual(p.backupRecords, [{ rdata: '2001:db8::9', failoverDelay: 5 }])
  })

  it('refuses unknown keys (70008), weight among them', () => {
    refused({ '@context': SB, rdataInfo: [{ weight: 2 }] }, 70008, 'profile.rdataInfo[0].weight')
    refused({ '@context': SB, rdataInfo: [{}], maxToLB: 1 }, 70008, 'profile.maxToLB')
    refused({ '@context': SB, rdataInfo: [{}], backupRecords: [{ rdata: '192.0.2.9', ttl: 5 }] }, 70008, 'profile.backupRecords[0].ttl')
  })
})
