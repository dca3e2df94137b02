import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type dnsPacket from 'dns-packet'
import { format, fromHex, hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const SHA1 = '2BB183AF5F22588179A53B0A98631FAD1A292118'
const SHA256 = 'D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A'

describe('DS (RFC 4034 §5)', () => {
  it('round-trips with the bytes BIND writes, digest in upper-case hex', () => {
    // RFC 4034 §5.4 example; wire from named-rrchecker -u.
    roundTrip('DS', `60485 5 1 ${SHA1}`, `ec450501${SHA1}`)
    roundTrip('DS', `60485 5 2 ${SHA256.toLowerCase()}`, `ec450502${SHA256}`, `60485 5 2 ${SHA256}`)
  })

  it('joins digest pieces and reads algorithm and digest type mnemonics', () => {
    roundTrip('DS', '60485 RSASHA1 1 ( 2BB183AF5F22588179A53B0A\n 98631FAD1A292118 )', `ec450501${SHA1}`, `60485 5 1 ${SHA1}`)
    roundTrip('DS', `1 rsasha256 SHA-256 ${SHA256}`, `00010802${SHA256}`, `1 8 2 ${SHA256}`)
    roundTrip('DS', `1 ECDSAP256SHA256 SHA256 ${SHA256}`, `00010d02${SHA256}`, `1 13 2 ${SHA256}`)
    roundTrip('DS', `1 ED25519 SHA-384 ${'AB'.repeat(48)}`, `00010f04${'ab'.repeat(48)}`, `1 15 4 ${'AB'.repeat(48)}`)
  })

  it('refuses bad input with a reason', () => {
    refuses('DS', '60485 5 1', /missing digest/)
    refuses('DS', '60485 5', /missing digest type/)
    refuses('DS', '65536 5 1 AB', /key tag must be a number from 0 to 65535/)
    refuses('DS', '1 256 1 AB', /algorithm must be a number from 0 to 255/)
    refuses('DS', '1 RSASHA3 1 AB', /algorithm .* mnemonic/)
    refuses('DS', '1 5 SHA-512 AB', /digest type .* mnemonic/)
    refuses('DS', '1 5 1 ABC', /digest is not valid hex/)
    refuses('DS', '1 5 1 XY', /digest is not valid hex/)
    refuses('DS', '1 5 1 -', /digest is not valid hex/)
  })

  it('gives the digest length per digest type as a reason', () => {
    assert.deepEqual(reasons('DS', `1 8 1 ${SHA1}`), [])
    assert.deepEqual(reasons('DS', `1 8 2 ${SHA1}`), ['digest type 2 makes a 32-octet digest, but the digest is 20 octet(s)'])
    assert.deepEqual(reasons('DS', `1 8 1 ${SHA256}`), ['digest type 1 makes a 20-octet digest, but the digest is 32 octet(s)'])
    assert.deepEqual(reasons('DS', `1 8 4 ${SHA256}`), ['digest type 4 makes a 48-octet digest, but the digest is 32 octet(s)'])
    assert.deepEqual(reasons('DS', '1 8 3 AB'), [], 'no length is known for GOST (3)')
  })

  it('takes the generic form and refuses generic data that does not fit', () => {
    assert.equal(hex(parse('DS', `\\# 24 EC450501 ${SHA1}`)), `ec450501${SHA1}`.toLowerCase())
    refuses('DS', '\\# 4 EC450501', /does not match the DS layout: digest is empty/)
    refuses('DS', '\\# 3 EC4505', /does not match the DS layout/)
    refuses('DS', '\\# 6 EC45050100', /length 6 does not match its 5 octets/)
    assert.equal(format('DS', fromHex('ec4505')), '\\# 3 EC4505')
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('DS', `60485 5 2 ${SHA256}`)
    const digest = Buffer.from(SHA256, 'hex')
    assert.equal(hex(packetRdata({ type: 'DS', name: 'example.org', data: { keyTag: 60485, algorithm: 5, digestType: 2, digest } })), hex(wire))
    const decoded = packetDecode('DS', wire) as dnsPacket.DSAnswer
    assert.deepEqual(decoded.data, { keyTag: 60485, algorithm: 5, digestType: 2, digest })
  })
})
