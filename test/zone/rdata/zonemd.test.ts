import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, fromHex, hex, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

// RFC 8976 Appendix A.1 example digest (SHA-384).
const SHA384 = 'C68090D90A7AED716BC459F9340E3D7C1370D4D24B7E2FC3A1DDC0B9A87153B9A9713B3C9AE5CC27777F98B8E730044C'

describe('ZONEMD (RFC 8976 §2)', () => {
  it('round-trips with the bytes BIND writes, digest in upper-case hex', () => {
    // Wire from named-rrchecker -u.
    roundTrip('ZONEMD', `2018031900 1 1 ${SHA384.toLowerCase()}`, `7848b91c0101${SHA384}`, `2018031900 1 1 ${SHA384}`)
    roundTrip('ZONEMD', `2018031900 1 1 ( ${SHA384.slice(0, 48)}\n ${SHA384.slice(48)} )`, `7848b91c0101${SHA384}`, `2018031900 1 1 ${SHA384}`)
    roundTrip('ZONEMD', '4294967295 240 3 000102030405060708090A0B', 'fffffffff003000102030405060708090a0b')
  })

  it('refuses bad input with a reason', () => {
    refuses('ZONEMD', '2018031900 1 1', /missing digest/)
    refuses('ZONEMD', '2018031900 1', /missing hash algorithm/)
    refuses('ZONEMD', '4294967296 1 1 00', /serial must be a number from 0 to 4294967295/)
    refuses('ZONEMD', '1 1 SHA384 00', /hash algorithm must be a number/)
    refuses('ZONEMD', '1 1 1 0', /digest is not valid hex/)
    refuses('ZONEMD', '1 1 1 -', /digest is not valid hex/)
  })

  it('gives the digest length per hash algorithm and a digest under 12 octets as reasons', () => {
    assert.deepEqual(reasons('ZONEMD', `1 1 1 ${SHA384}`), [])
    assert.deepEqual(reasons('ZONEMD', `1 1 2 ${SHA384}${'00'.repeat(16)}`), [])
    assert.deepEqual(reasons('ZONEMD', `1 1 2 ${SHA384}`), ['hash algorithm 2 makes a 64-octet digest, but the digest is 48 octet(s) (RFC 8976 §2.2.3)'])
    assert.deepEqual(reasons('ZONEMD', '1 1 1 00'), ['hash algorithm 1 makes a 48-octet digest, but the digest is 1 octet(s) (RFC 8976 §2.2.3)'])
    assert.deepEqual(reasons('ZONEMD', '1 1 3 000102030405060708090A'), ['digest must be at least 12 octets (RFC 8976 §2.2.4), got 11'])
    assert.deepEqual(reasons('ZONEMD', '1 1 3 000102030405060708090A0B'), [])
  })

  it('takes the generic form and refuses truncated generic data', () => {
    assert.equal(hex(parse('ZONEMD', `\\# 54 7848b91c0101 ${SHA384}`)), `7848b91c0101${SHA384}`.toLowerCase())
    refuses('ZONEMD', '\\# 6 7848b91c0101', /does not match the ZONEMD layout: digest is empty/)
    refuses('ZONEMD', '\\# 5 7848b91c01', /does not match the ZONEMD layout/)
    assert.equal(format('ZONEMD', fromHex('7848b91c01')), '\\# 5 7848B91C01')
  })
})
