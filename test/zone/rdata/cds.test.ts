import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type dnsPacket from 'dns-packet'
import { hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const SHA256 = 'D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A'

describe('CDS (RFC 7344 §3.1)', () => {
  it('round-trips with the DS layout', () => {
    roundTrip('CDS', `60485 RSASHA256 2 ${SHA256.slice(0, 32)} ${SHA256.slice(32)}`, `ec450802${SHA256}`, `60485 8 2 ${SHA256}`)
  })

  it('takes the RFC 8078 §4 delete form "0 0 0 00" as BIND writes it', () => {
    roundTrip('CDS', '0 0 0 00', '0000000000')
    assert.deepEqual(reasons('CDS', '0 0 0 00'), [])
  })

  it('gives reasons for a digest of the wrong length and for algorithm 0 outside the delete form', () => {
    assert.deepEqual(reasons('CDS', '1 8 2 AABB'), ['digest type 2 makes a 32-octet digest, but the digest is 2 octet(s)'])
    assert.deepEqual(reasons('CDS', '0 0 0 0000'), ['algorithm 0 is only for the delete form "0 0 0 00" (RFC 8078 §4)'])
    assert.deepEqual(reasons('CDS', `1 0 2 ${SHA256}`), ['algorithm 0 is only for the delete form "0 0 0 00" (RFC 8078 §4)'])
  })

  it('refuses bad input with a reason', () => {
    refuses('CDS', '0 0 0', /missing digest/)
    refuses('CDS', '0 0 0 0', /digest is not valid hex/)
    refuses('CDS', '0 0 256 00', /digest type must be a number from 0 to 255/)
    refuses('CDS', '-1 0 0 00', /key tag must be a number/)
  })

  it('takes the generic form and refuses truncated generic data', () => {
    assert.equal(hex(parse('CDS', '\\# 5 0000000000')), '0000000000')
    refuses('CDS', '\\# 4 00000000', /does not match the CDS layout/)
  })

  it('has the bytes dns-packet writes for the same DS data', () => {
    const wire = parse('CDS', `60485 8 2 ${SHA256}`)
    const digest = Buffer.from(SHA256, 'hex')
    assert.equal(hex(packetRdata({ type: 'DS', name: 'example.org', data: { keyTag: 60485, algorithm: 8, digestType: 2, digest } })), hex(wire))
    assert.deepEqual((packetDecode('DS', wire) as dnsPacket.DSAnswer).data, { keyTag: 60485, algorithm: 8, digestType: 2, digest })
  })
})
