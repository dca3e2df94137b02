import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { formatRdata, parseRdata, tokenize, wireProblem } from '../../../src/zone/rdata/index.ts'
import { format, fromHex, hex, origin, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('A (RFC 1035 §3.4.1)', () => {
  it('round-trips addresses as four octets', () => {
    roundTrip('A', '192.0.2.1', 'c0000201')
    roundTrip('A', '0.0.0.0', '00000000')
    roundTrip('A', '255.255.255.255', 'ffffffff')
  })

  it('refuses what is not a dotted quad', () => {
    refuses('A', '192.0.2', /address must be an IPv4 address, got "192.0.2"/)
    refuses('A', '256.0.0.1', /IPv4/)
    refuses('A', '01.2.3.4', /IPv4/)
    refuses('A', '2001:db8::1', /IPv4/)
    refuses('A', '"192.0.2.1" x', /unexpected "x" after the last field/)
    refuses('A', '', /missing address/)
  })

  it('takes the RFC 3597 generic form and writes the type form', () => {
    const wire = parse('A', '\\# 4 0a000001')
    assert.equal(hex(wire), '0a000001')
    assert.equal(format('A', wire), '10.0.0.1')
    assert.equal(hex(parse('A', '\\# 4 0a 00 00 01')), '0a000001')
  })

  it('refuses generic data that does not fit the layout or its length', () => {
    refuses('A', '\\# 3 0a0000', /generic rdata does not match the A layout/)
    refuses('A', '\\# 5 0a00000001', /does not match the A layout: 1 octet\(s\) after the last field/)
    refuses('A', '\\# 4 0a00', /length 4 does not match its 2 octets/)
    refuses('A', '\\# x 0a000001', /needs a length/)
    refuses('A', '\\# 4 0a00000g', /not valid hex/)
  })

  it('writes malformed wire data in the generic form', () => {
    assert.match(wireProblem(1, fromHex('0a0000')) ?? '', /too short/)
    assert.equal(formatRdata(1, fromHex('0a0000')), '\\# 3 0A0000')
    assert.equal(formatRdata(1, new Uint8Array(0)), '\\# 0')
  })

  it('matches dns-packet both ways', () => {
    const wire = parseRdata(1, tokenize('192.0.2.1'), { origin })
    assert.equal(hex(packetRdata({ type: 'A', name: 'test.example.org', data: '192.0.2.1' })), hex(wire))
    assert.equal(packetDecode('A', wire).data, '192.0.2.1')
  })
})
