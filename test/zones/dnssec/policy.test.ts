/**
 * The DNSSEC policy of a request (src/zones/dnssec/policy.ts): defaults, the documented ranges of
 * `dnssecPolicy` (each bad field a 400 naming it), POST/PUT/PATCH semantics, key sizes by
 * algorithm, and what a policy change needs (new keys, a new chain).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isZonalError } from '../../../src/errors/catalog.ts'
import { DEFAULT_POLICY, policyChange, requestedPolicy } from '../../../src/zones/dnssec/policy.ts'

function refused (body: unknown, field: string): void {
  assert.throws(() => requestedPolicy(body, 'POST', undefined), (err: unknown) => {
    assert.ok(isZonalError(err))
    assert.equal(err.def.status, 400)
    assert.match(err.message, new RegExp(field))
    return true
  })
}

describe('requestedPolicy', () => {
  it('gives the defaults without dnssecPolicy', () => {
    assert.deepEqual(requestedPolicy({}, 'POST', undefined), DEFAULT_POLICY)
    assert.deepEqual(requestedPolicy(undefined, 'POST', undefined), DEFAULT_POLICY)
  })

  it('applies overrides in either spelling of the DNSKEY TTL, and sizes keys by algorithm', () => {
    const p = requestedPolicy({ dnssecPolicy: { dnskeyTtl: 540, rrsigValidity: 26, zskRolloverFrequency: 60, kskRolloverFrequency: 1095, algorithm: 'RSASHA256', securityType: 'NSEC3' } }, 'POST', undefined)
    assert.equal(p.dnskeyTtl, 540)
    assert.equal(p.rrsigValidityDays, 26)
    assert.equal(p.zskRolloverDays, 60)
    assert.equal(p.kskRolloverDays, 1095)
    assert.equal(p.kskBits, 2048)
    assert.equal(p.securityType, 'NSEC3')
    assert.deepEqual(p.overrides, ['algorithm', 'dnskeyTtl', 'kskRolloverDays', 'rrsigValidityDays', 'securityType', 'zskRolloverDays'])
    assert.equal(requestedPolicy({ dnssecPolicy: { dnsKeyTtl: 300 } }, 'POST', undefined).dnskeyTtl, 300)
  })

  it('refuses values out of the documented ranges, wrong types and unknown fields, naming the field', () => {
    refused({ dnssecPolicy: { dnsKeyTtl: 299 } }, 'dnsKeyTtl')
    refused({ dnssecPolicy: { dnsKeyTtl: 172801 } }, 'dnsKeyTtl')
    refused({ dnssecPolicy: { rrsigValidity: 4 } }, 'rrsigValidity')
    refused({ dnssecPolicy: { rrsigValidity: 31 } }, 'rrsigValidity')
    refused({ dnssecPolicy: { zskRolloverFrequency: 29 } }, 'zskRolloverFrequency')
    refused({ dnssecPolicy: { zskRolloverFrequency: 121 } }, 'zskRolloverFrequency')
    refused({ dnssecPolicy: { kskRolloverFrequency: 364 } }, 'kskRolloverFrequency')
    refused({ dnssecPolicy: { kskRolloverFrequency: 1827 } }, 'kskRolloverFrequency')
    refused({ dnssecPolicy: { rrsigValidity: '10' } }, 'rrsigValidity')
    refused({ dnssecPolicy: { rrsigValidity: 10.5 } }, 'rrsigValidity')
    refused({ dnssecPolicy: { algorithm: 'RSASHA1' } }, 'algorithm')
    refused({ dnssecPolicy: { securityType: 'NSEC_ON_THE_FLY' } }, 'securityType')
    refused({ dnssecPolicy: { colour: 'blue' } }, 'colour')
    refused({ dnssecPolicy: [] }, 'dnssecPolicy')
  })

  it('keeps, replaces or merges the zone\'s overrides by method', () => {
    const current = requestedPolicy({ dnssecPolicy: { rrsigValidity: 20, securityType: 'NSEC3' } }, 'POST', undefined)
    assert.deepEqual(requestedPolicy({}, 'PUT', current), current, 'PUT {} (the Python client\'s resign) keeps the policy')
    assert.deepEqual(requestedPolicy({ dnssecPolicy: {} }, 'PUT', current), DEFAULT_POLICY, 'an empty dnssecPolicy returns to the defaults')
    const patched = requestedPolicy({ dnssecPolicy: { rrsigValidity: 7 } }, 'PATCH', current)
    assert.equal(patched.rrsigValidityDays, 7)
    assert.equal(patched.securityType, 'NSEC3')
    assert.equal(requestedPolicy({ dnssecPolicy: { rrsigValidity: 7 } }, 'PUT', current).securityType, 'NSEC')
  })

  it('tells which changes need new keys and which a new chain', () => {
    const rsa = requestedPolicy({ dnssecPolicy: { algorithm: 'RSASHA256' } }, 'POST', undefined)
    const nsec3 = requestedPolicy({ dnssecPolicy: { securityType: 'NSEC3' } }, 'POST', undefined)
    assert.deepEqual(policyChange(DEFAULT_POLICY, rsa), { newKeys: true, newChain: false })
    assert.deepEqual(policyChange(DEFAULT_POLICY, nsec3), { newKeys: false, newChain: true })
    assert.deepEqual(policyChange(DEFAULT_POLICY, { ...DEFAULT_POLICY, rrsigValidityDays: 20 }), { newKeys: false, newChain: false })
  })
})
