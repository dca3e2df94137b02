import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, fromHex, hex, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

describe('NSEC3PARAM (RFC 5155 §4)', () => {
  it('round-trips with the bytes BIND writes, "-" for no salt', () => {
    // Wire from named-rrchecker -u.
    roundTrip('NSEC3PARAM', '1 0 12 aabbccdd', '0100000c04aabbccdd', '1 0 12 AABBCCDD')
    roundTrip('NSEC3PARAM', '1 0 0 -', '0100000000')
    roundTrip('NSEC3PARAM', '1 0 65535 ' + 'ab'.repeat(255), '0100ffffff' + 'ab'.repeat(255), '1 0 65535 ' + 'AB'.repeat(255))
  })

  it('refuses bad input with a reason', () => {
    refuses('NSEC3PARAM', '1 0 12', /missing salt/)
    refuses('NSEC3PARAM', '1 0 12 - extra', /unexpected "extra" after the last field/)
    refuses('NSEC3PARAM', '1 0 12 aabbc', /salt is not valid hex/)
    refuses('NSEC3PARAM', '1 0 12 0x00', /salt is not valid hex/)
    refuses('NSEC3PARAM', '1 0 12 ""', /salt must be hex digits or "-"/)
    refuses('NSEC3PARAM', '1 0 12 ' + 'ab'.repeat(256), /salt longer than 255 octets/)
    refuses('NSEC3PARAM', '1 256 12 -', /flags must be a number from 0 to 255/)
    refuses('NSEC3PARAM', '1 0 -1 -', /iterations must be a number/)
  })

  it('gives non-zero flags as a reason (RFC 5155 §4.1.2)', () => {
    assert.deepEqual(reasons('NSEC3PARAM', '1 0 0 -'), [])
    assert.deepEqual(reasons('NSEC3PARAM', '1 1 0 -'), ['flags must be 0 in NSEC3PARAM (RFC 5155 §4.1.2), got 1'])
  })

  it('takes the generic form and refuses malformed generic data', () => {
    assert.equal(hex(parse('NSEC3PARAM', '\\# 5 0100000c00')), '0100000c00')
    refuses('NSEC3PARAM', '\\# 5 0100000c01', /does not match the NSEC3PARAM layout/)
    refuses('NSEC3PARAM', '\\# 4 0100000c', /does not match the NSEC3PARAM layout/)
    refuses('NSEC3PARAM', '\\# 6 0100000c0000', /does not match the NSEC3PARAM layout: 1 octet\(s\) after the last field/)
    assert.equal(format('NSEC3PARAM', fromHex('0100000c02aa')), '\\# 6 0100000C02AA')
  })
})
