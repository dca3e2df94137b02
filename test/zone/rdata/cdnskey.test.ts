import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type dnsPacket from 'dns-packet'
import { hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

describe('CDNSKEY (RFC 7344 §3.2)', () => {
  it('round-trips with the DNSKEY layout', () => {
    roundTrip('CDNSKEY', '257 3 RSASHA256 AwEA AQ==', '0101030803010001', '257 3 8 AwEAAQ==')
  })

  it('takes the RFC 8078 §4 delete form "0 3 0 AA=="', () => {
    roundTrip('CDNSKEY', '0 3 0 AA==', '0000030000')
    assert.deepEqual(reasons('CDNSKEY', '0 3 0 AA=='), [])
  })

  it('gives reasons for algorithm 0 outside the delete form and for a bad protocol', () => {
    assert.deepEqual(reasons('CDNSKEY', '0 3 0 AAAA'), ['algorithm 0 is only for the delete form "0 3 0 AA==" (RFC 8078 §4)'])
    assert.deepEqual(reasons('CDNSKEY', '257 3 0 AA=='), ['algorithm 0 is only for the delete form "0 3 0 AA==" (RFC 8078 §4)'])
    assert.deepEqual(reasons('CDNSKEY', '257 2 8 AwEAAQ=='), ['protocol must be 3 (RFC 4034 §2.1.2), got 2'])
  })

  it('refuses bad input with a reason', () => {
    refuses('CDNSKEY', '0 3 0', /missing public key/)
    refuses('CDNSKEY', '0 3 0 A', /public key is not valid base64/)
    refuses('CDNSKEY', '0 3 0 AA== extra!', /public key is not valid base64/)
  })

  it('takes the generic form and refuses truncated generic data', () => {
    assert.equal(hex(parse('CDNSKEY', '\\# 5 0000030000')), '0000030000')
    refuses('CDNSKEY', '\\# 2 0000', /does not match the CDNSKEY layout/)
  })

  it('has the bytes dns-packet writes for the same DNSKEY data', () => {
    const wire = parse('CDNSKEY', '257 3 8 AwEAAQ==')
    const key = Buffer.from('AwEAAQ==', 'base64')
    assert.equal(hex(packetRdata({ type: 'DNSKEY', name: 'example.org', data: { flags: 257, algorithm: 8, key } })), hex(wire))
    assert.deepEqual((packetDecode('DNSKEY', wire) as dnsPacket.DnskeyAnswer).data, { flags: 257, algorithm: 8, key })
  })
})
