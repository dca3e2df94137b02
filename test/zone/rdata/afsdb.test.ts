import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseTypeName, typeLabel } from '../../../src/zone/rdata/index.ts'
import { refuses, roundTrip } from '../../helpers/rdata.ts'

// dns-packet 5.6.1 has no AFSDB codec (it passes the data through as a buffer).
describe('AFSDB (RFC 1183 §1)', () => {
  it('is registered as type 18, spelled "AFSDB (18)" by the API', () => {
    assert.equal(parseTypeName('afsdb'), 18)
    assert.equal(typeLabel(18), 'AFSDB (18)')
  })

  it('round-trips a subtype and a hostname', () => {
    roundTrip('AFSDB', '1 afs.example.org.', '0001' + '03616673076578616d706c65036f726700')
    roundTrip('AFSDB', '2 AFS', '0002' + '03414653076578616d706c65036f726700', '2 AFS.example.org.')
  })

  it('refuses a bad subtype or a missing hostname', () => {
    refuses('AFSDB', 'x afs', /subtype must be a number from 0 to 65535, got "x"/)
    refuses('AFSDB', '1', /missing hostname/)
  })
})
