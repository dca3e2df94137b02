import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseTypeName, typeLabel } from '../../../src/zone/rdata/index.ts'
import { refuses, roundTrip } from '../../helpers/rdata.ts'

// dns-packet 5.6.1 has no URI codec (it passes the data through as a buffer).
describe('URI (RFC 7553 §4.5)', () => {
  it('is registered as type 256, spelled "URI (256)" by the API', () => {
    assert.equal(parseTypeName('uri'), 256)
    assert.equal(typeLabel(256), 'URI (256)')
  })

  it('round-trips priority, weight and the target to the end of the rdata', () => {
    roundTrip('URI', '10 1 "ftp://ftp1.example.org/public"', '000a0001' + Buffer.from('ftp://ftp1.example.org/public').toString('hex'))
    roundTrip('URI', '1 0 https://example.org/', '00010000' + Buffer.from('https://example.org/').toString('hex'), '1 0 "https://example.org/"')
    roundTrip('URI', '1 0 "a\\"b"', '00010000612262')
  })

  it('refuses an empty target and bad numbers', () => {
    refuses('URI', '10 1 ""', /target must not be empty/)
    refuses('URI', '10 1', /missing target/)
    refuses('URI', '10 65536 "x"', /weight must be a number from 0 to 65535/)
    refuses('URI', '\\# 4 000a0001', /does not match the URI layout: target is empty/)
  })
})
