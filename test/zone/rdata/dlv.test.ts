import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, fromHex, hex, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const SHA1 = '2BB183AF5F22588179A53B0A98631FAD1A292118'

describe('DLV (RFC 4431 §2)', () => {
  it('round-trips with the DS layout and the bytes BIND writes', () => {
    roundTrip('DLV', `60485 5 1 ${SHA1}`, `ec450501${SHA1}`)
    roundTrip('DLV', `60485 RSASHA1 SHA-1 ${SHA1.slice(0, 20)} ${SHA1.slice(20).toLowerCase()}`, `ec450501${SHA1}`, `60485 5 1 ${SHA1}`)
  })

  it('refuses bad input with a reason', () => {
    refuses('DLV', '60485 5 1', /missing digest/)
    refuses('DLV', '60485 5 1 0g', /digest is not valid hex/)
    refuses('DLV', '60485 FOO 1 00', /algorithm/)
    refuses('DLV', '70000 5 1 00', /key tag must be a number from 0 to 65535/)
  })

  it('gives the digest length per digest type as a reason', () => {
    assert.deepEqual(reasons('DLV', '60485 5 1 00'), ['digest type 1 makes a 20-octet digest, but the digest is 1 octet(s)'])
  })

  it('takes the generic form and refuses truncated generic data', () => {
    assert.equal(hex(parse('DLV', `\\# 24 EC450501${SHA1}`)), `ec450501${SHA1}`.toLowerCase())
    refuses('DLV', '\\# 2 EC45', /does not match the DLV layout/)
    assert.equal(format('DLV', fromHex('ec45')), '\\# 2 EC45')
  })

  it('has the bytes dns-packet writes for the same DS data', () => {
    const data = { keyTag: 60485, algorithm: 5, digestType: 1, digest: Buffer.from(SHA1, 'hex') }
    assert.equal(hex(packetRdata({ type: 'DS', name: 'example.org', data })), hex(parse('DLV', `60485 5 1 ${SHA1}`)))
  })
})
