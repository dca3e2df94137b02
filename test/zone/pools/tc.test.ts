import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { context, refused, valid } from './helpers.ts'

const TC = context('TCPool')

/** The Go SDK's TC pool (integration test), as it goes on the wire. */
const GO_TC = {
  '@context': TC,
  description: '',
  runProbes: true,
  actOnProbes: true,
  maxToLB: 1,
  failureThreshold: 0,
  rdataInfo: [{ state: 'NORMAL', runProbes: true, availableToServe: false, priority: 1, failoverDelay: 0, threshold: 1, weight: 2 }]
}

describe('TC pool profile', () => {
  it('stores the Go SDK\'s profile', () => {
    assert.deepEqual(valid(GO_TC), {
      '@context': TC,
      description: '',
      runProbes: true,
      actOnProbes: true,
      maxToLB: 1,
      failureThreshold: 0,
      rdataInfo: [{ state: 'NORMAL', runProbes: true, priority: 1, failoverDelay: 0, threshold: 1, weight: 2 }]
    })
  })

  it('keeps one backup record and fills weight 2 and maxToLB = record count', () => {
    const p = valid({ '@context': TC, rdataInfo: [{ weight: 100 }, {}], backupRecord: { rdata: '192.0.2.9', failoverDelay: 30 } }, ['192.0.2.1', '192.0.2.2'])
    assert.equal(p.maxToLB, 2)
    assert.deepEqual((p.rdataInfo as { weight: number }[]).map(r => r.weight), [100, 2])
    assert.deepEqual(p.backupRecord, { rdata: '192.0.2.9', failoverDelay: 30 })
  })

  it('refuses an odd weight or one outside 2..100 (110015) naming the entry', () => {
    refused({ '@context': TC, rdataInfo: [{ weight: 3 }] }, 110015, 'profile.rdataInfo[0].weight')
    refused({ '@context': TC, rdataInfo: [{ weight: 0 }] }, 110015, 'profile.rdataInfo[0].weight')
    refused({ '@context': TC, rdataInfo: [{}, { weight: 102 }] }, 110015, 'profile.rdataInfo[1].weight', ['192.0.2.1', '192.0.2.2'])
    refused({ '@context': TC, rdataInfo: [{ weight: '2' }] }, 110015, 'profile.rdataInfo[0].weight')
  })

  it('refuses an rdataInfo count that differs from the rdata (110009)', () => {
    refused({ '@context': TC, rdataInfo: [{}, {}] }, 110009, '2 entries for 1 rdata')
  })

  it('refuses a backup record of the other family and the SB list form', () => {
    refused({ '@context': TC, rdataInfo: [{}], backupRecord: { rdata: '2001:db8::9' } }, 110004, 'profile.backupRecord.rdata')
    refused({ '@context': TC, rdataInfo: [{}], backupRecords: [] }, 70008, 'profile.backupRecords')
  })
})
