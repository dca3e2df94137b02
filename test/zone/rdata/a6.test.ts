import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { wireProblem } from '../../../src/zone/rdata/index.ts'
import { format, fromHex, refuses, roundTrip } from '../../helpers/rdata.ts'

const FOO = '03666f6f076578616d706c6500' // foo.example.

// Wire bytes as BIND 9.18 `named-rrchecker -u` writes them for the same text.
describe('A6 (RFC 2874 §3.1)', () => {
  it('prefix length 0: the whole address and no prefix name', () => {
    roundTrip('A6', '0 2001:db8::1', '00' + '20010db8000000000000000000000001')
  })

  it('prefix length 1-127: 16 - floor(prefix length / 8) suffix octets and a prefix name', () => {
    roundTrip('A6', '64 ::1:2:3:4 foo.example.', '40' + '0001000200030004' + FOO)
    roundTrip('A6', '127 ::1 foo.', '7f' + '01' + '03666f6f00')
    roundTrip('A6', '120 ::ff foo.', '78' + 'ff' + '03666f6f00')
    roundTrip('A6', '1 7fff:: foo.', '01' + '7fff0000000000000000000000000000' + '03666f6f00')
    roundTrip('A6', '48 ::1 foo', '30' + '00000000000000000001' + '03666f6f076578616d706c65036f726700', '48 ::1 foo.example.org.')
  })

  it('prefix length 128: no suffix', () => {
    roundTrip('A6', '128 foo.example.', '80' + FOO)
  })

  it('drops address bits inside the prefix, as BIND does', () => {
    roundTrip('A6', '65 ::ffff:1:2:3:4 foo.example.', '41' + '0001000200030004' + FOO, '65 ::1:2:3:4 foo.example.')
    roundTrip('A6', '127 ::ffff foo.', '7f' + '01' + '03666f6f00', '127 ::1 foo.')
    roundTrip('A6', '1 ffff:: foo.', '01' + '7fff0000000000000000000000000000' + '03666f6f00', '1 7fff:: foo.')
  })

  it('refuses bad prefix lengths, addresses and missing names', () => {
    refuses('A6', '129 foo.', /prefix length must be a number from 0 to 128, got "129"/)
    refuses('A6', '64 ::1', /missing prefix name/)
    refuses('A6', '64 192.0.2.1 foo.', /address suffix must be an IPv6 address, got "192.0.2.1"/)
    refuses('A6', '0 ::1 foo.', /unexpected "foo\." after the last field/)
    refuses('A6', '128 ::1 foo.', /prefix name: .*|unexpected/)
    refuses('A6', '', /missing prefix length/)
  })

  it('checks the wire layout: length from the prefix length, zero pad bits, the name', () => {
    assert.equal(wireProblem(38, fromHex('7f01' + '00')), undefined)
    assert.match(wireProblem(38, fromHex('7f02' + '00')) ?? '', /pad bits/)
    assert.match(wireProblem(38, fromHex('81' + '00')) ?? '', /prefix length 129 is over 128/)
    assert.match(wireProblem(38, fromHex('40' + '00010002')) ?? '', /too short/)
    assert.match(wireProblem(38, fromHex('00' + '20010db8000000000000000000000001' + '00')) ?? '', /1 octet\(s\) after the last field/)
    assert.match(wireProblem(38, fromHex('80')) ?? '', /name runs past the end/)
    assert.equal(format('A6', fromHex('7f02' + '00')), '\\# 3 7F0200')
  })
})
