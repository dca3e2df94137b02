import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseTypeName, typeLabel } from '../../../src/zone/rdata/index.ts'
import { refuses, roundTrip } from '../../helpers/rdata.ts'

// dns-packet 5.6.1 has no KX codec (it passes the data through as a buffer).
describe('KX (RFC 2230 §3.1)', () => {
  it('is registered as type 36, spelled "KX (36)" by the API', () => {
    assert.equal(parseTypeName('kx'), 36)
    assert.equal(typeLabel(36), 'KX (36)')
  })

  it('round-trips a preference and an exchanger', () => {
    roundTrip('KX', '10 kx.example.org.', '000a026b78076578616d706c65036f726700')
    roundTrip('KX', '0 kx', '0000026b78076578616d706c65036f726700', '0 kx.example.org.')
  })

  it('refuses a bad preference or a missing exchanger', () => {
    refuses('KX', '70000 kx', /preference must be a number from 0 to 65535/)
    refuses('KX', '10', /missing exchanger/)
  })
})
