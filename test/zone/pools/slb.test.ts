import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { context, OWNER, refused, valid } from './helpers.ts'

const SLB = context('SLBPool')

/** The Go SDK's SLB pool (examples/pools.go), as it goes on the wire. */
const GO_SLB = {
  '@context': SLB,
  description: '',
  responseMethod: 'ROUND_ROBIN',
  regionFailureSensitivity: 'HIGH',
  servingPreference: 'AUTO_SELECT',
  rdataInfo: [{ description: '', probingEnabled: false, availableToServe: false }],
  allFailRecord: { description: '', rdata: '192.168.0.1', serving: false },
  monitor: { method: 'GET', url: 'https://www.example.org/', transmittedData: '', searchString: '' }
}

describe('SLB pool profile', () => {
  it('stores the Go SDK\'s profile, dropping the computed availableToServe and serving', () => {
    assert.deepEqual(valid(GO_SLB), {
      '@context': SLB,
      description: '',
      responseMethod: 'ROUND_ROBIN',
      servingPreference: 'AUTO_SELECT',
      regionFailureSensitivity: 'HIGH',
      rdataInfo: [{ description: '', forcedState: 'NOT_FORCED', probingEnabled: false }],
      allFailRecord: { rdata: '192.168.0.1', description: '' },
      monitor: { method: 'GET', url: 'https://www.example.org/', transmittedData: '', searchString: '' }
    })
  })

  it('takes {} as a default rdataInfo', () => {
    const p = valid({ ...GO_SLB, description: undefined, responseMethod: 'PRIORITY_HUNT', rdataInfo: [{}, { forcedState: 'FORCED_ACTIVE' }] }, ['192.0.2.1', '192.0.2.2'])
    assert.equal(p.description, OWNER)
    assert.equal(p.responseMethod, 'PRIORITY_HUNT')
    assert.deepEqual(p.rdataInfo, [
      { description: '', forcedState: 'NOT_FORCED', probingEnabled: true },
      { description: '', forcedState: 'FORCED_ACTIVE', probingEnabled: true }
    ])
  })

  it('refuses more than five records (90006) and an rdataInfo count mismatch (90007)', () => {
    const six = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5', '192.0.2.6']
    refused({ ...GO_SLB, rdataInfo: six.map(() => ({})) }, 90006, '6 rdata', six)
    refused(GO_SLB, 90007, '1 entries for 2 rdata', ['192.0.2.1', '192.0.2.2'])
  })

  it('needs a monitor and an all-fail record of the pool\'s family', () => {
    refused({ ...GO_SLB, monitor: undefined }, 100003, 'profile.monitor')
    refused({ ...GO_SLB, allFailRecord: undefined }, 110001, 'profile.allFailRecord')
    refused({ ...GO_SLB, allFailRecord: { rdata: '2001:db8::1' } }, 110004, 'profile.allFailRecord.rdata')
  })

  it('refuses bad values naming the field', () => {
    refused({ ...GO_SLB, responseMethod: 'FIXED' }, 110004, 'profile.responseMethod')
    refused({ ...GO_SLB, servingPreference: 'SERVE_ALL' }, 110004, 'profile.servingPreference')
    refused({ ...GO_SLB, rdataInfo: [{ forcedState: 'FORCED' }] }, 110004, 'profile.rdataInfo[0].forcedState')
    refused({ ...GO_SLB, rdataInfo: [{ state: 'NORMAL' }] }, 70008, 'profile.rdataInfo[0].state')
    refused({ ...GO_SLB, allFailRecord: { rdata: '192.0.2.9', serving: 'no' } }, 110004, 'profile.allFailRecord.serving')
  })
})
