import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { context, OWNER, refused, valid } from './helpers.ts'

const SF = context('SFPool')
const V6 = ['aaaa:bbbb:cccc:dddd:eeee:ffff:1:1']

/** The Go SDK's SF pool (integration test, AAAA), as it goes on the wire. */
const GO_SF = {
  '@context': SF,
  poolDescription: '',
  liveRecordDescription: '',
  regionFailureSensitivity: 'HIGH',
  backupRecord: { rdata: 'aaaa:bbbb:cccc:dddd:eeee:ffff:1:2', description: '' },
  monitor: { method: 'GET', url: 'https://www.example.org/', transmittedData: '', searchString: '' }
}

const sf = (fields: Record<string, unknown>): Record<string, unknown> => {
  const profile: Record<string, unknown> = { ...GO_SF, ...fields }
  for (const [k, v] of Object.entries(profile)) if (v === undefined) Reflect.deleteProperty(profile, k)
  return profile
}

describe('SF pool profile', () => {
  it('stores the Go SDK\'s profile with liveRecordState NOT_FORCED', () => {
    assert.deepEqual(valid(GO_SF, V6, 28), {
      '@context': SF,
      liveRecordState: 'NOT_FORCED',
      liveRecordDescription: '',
      poolDescription: '',
      regionFailureSensitivity: 'HIGH',
      monitor: { method: 'GET', url: 'https://www.example.org/', transmittedData: '', searchString: '' },
      backupRecord: { rdata: 'aaaa:bbbb:cccc:dddd:eeee:ffff:1:2', description: '' }
    })
  })

  it('fills the owner as pool description and keeps a POST monitor\'s data', () => {
    const p = valid(sf({
      poolDescription: undefined,
      liveRecordState: 'FORCED_INACTIVE',
      monitor: { method: 'POST', url: 'http://www.example.org/check', transmittedData: 'ping', searchString: 'pong' },
      backupRecord: { rdata: '192.0.2.9' }
    }))
    assert.equal(p.poolDescription, OWNER)
    assert.equal(p.liveRecordState, 'FORCED_INACTIVE')
    assert.deepEqual(p.monitor, { method: 'POST', url: 'http://www.example.org/check', transmittedData: 'ping', searchString: 'pong' })
  })

  it('takes exactly one live record (100010)', () => {
    refused(GO_SF, 100010, '2 rdata', [...V6, 'aaaa:bbbb:cccc:dddd:eeee:ffff:1:3'], 28)
  })

  it('names each required part: sensitivity 100004, monitor 100003, method 110002, url 110003, backup 100002 and 110001', () => {
    refused(sf({ regionFailureSensitivity: undefined }), 100004, 'profile.regionFailureSensitivity', V6, 28)
    refused(sf({ monitor: undefined }), 100003, 'profile.monitor', V6, 28)
    refused(sf({ monitor: { url: 'https://www.example.org/' } }), 110002, 'profile.monitor.method', V6, 28)
    refused(sf({ monitor: { method: 'GET' } }), 110003, 'profile.monitor.url', V6, 28)
    refused(sf({ backupRecord: undefined }), 100002, 'profile.backupRecord', V6, 28)
    refused(sf({ backupRecord: { description: 'x' } }), 110001, 'profile.backupRecord.rdata', V6, 28)
  })

  it('refuses bad values naming the field', () => {
    refused(sf({ liveRecordState: 'FORCED_ACTIVE' }), 10005, 'profile.liveRecordState', V6, 28)
    refused(sf({ regionFailureSensitivity: 'MEDIUM' }), 110004, 'profile.regionFailureSensitivity', V6, 28)
    refused(sf({ monitor: { method: 'HEAD', url: 'https://www.example.org/' } }), 110004, 'profile.monitor.method', V6, 28)
    refused(sf({ monitor: { method: 'GET', url: 'ftp://www.example.org/' } }), 110004, 'profile.monitor.url', V6, 28)
    refused(sf({ backupRecord: { rdata: '192.0.2.9' } }), 110004, 'profile.backupRecord.rdata', V6, 28)
    refused(sf({ monitor: { method: 'GET', url: 'https://www.example.org/', timeout: 5 } }), 70008, 'profile.monitor.timeout', V6, 28)
  })
})
