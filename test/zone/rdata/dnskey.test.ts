import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type dnsPacket from 'dns-packet'
import { format, fromHex, hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

// An ECDSA P-256 key; wire from named-rrchecker -u.
const KEY = 'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ=='
const KEY_HEX = '99db2cc14cabdc33d6d77da63a2f15f71112584f234e8d1dc428e39e8a4a97e1aa271a555dc90701e17e2a4c4b6f120b7c32d44f4ac02bd894cf2d4be7778a19'

describe('DNSKEY (RFC 4034 §2)', () => {
  it('round-trips with the bytes BIND writes', () => {
    roundTrip('DNSKEY', `257 3 13 ${KEY}`, `0101030d${KEY_HEX}`)
    roundTrip('DNSKEY', '256 3 8 AwEAAQ==', '0100030803010001')
  })

  it('joins key pieces and reads algorithm mnemonics, writing numbers', () => {
    roundTrip('DNSKEY', `257 3 ECDSAP256SHA256 ( ${KEY.slice(0, 40)}\n ${KEY.slice(40)} )`, `0101030d${KEY_HEX}`, `257 3 13 ${KEY}`)
    roundTrip('DNSKEY', '256 3 rsasha1-nsec3-sha1 AwEAAQ==', '0100030703010001', '256 3 7 AwEAAQ==')
    roundTrip('DNSKEY', '256 3 NSEC3RSASHA1 AwEAAQ==', '0100030703010001', '256 3 7 AwEAAQ==')
    roundTrip('DNSKEY', '256 3 ECC-GOST AwEAAQ==', '0100030c03010001', '256 3 12 AwEAAQ==')
    roundTrip('DNSKEY', '256 3 ECDSA384 AwEAAQ==', '0100030e03010001', '256 3 14 AwEAAQ==')
    roundTrip('DNSKEY', '256 3 PRIVATEOID AwEAAQ==', '010003fe03010001', '256 3 254 AwEAAQ==')
  })

  it('refuses bad input with a reason', () => {
    refuses('DNSKEY', '256 3 8', /missing public key/)
    refuses('DNSKEY', '256 3', /missing algorithm/)
    refuses('DNSKEY', '65536 3 8 AAAA', /flags must be a number from 0 to 65535/)
    refuses('DNSKEY', '256 256 8 AAAA', /protocol must be a number from 0 to 255/)
    refuses('DNSKEY', '256 3 DELETE AAAA', /algorithm must be a number from 0 to 255 or a mnemonic/)
    refuses('DNSKEY', '256 3 8 AA', /public key is not valid base64/)
    refuses('DNSKEY', '256 3 8 AA==AA==', /public key is not valid base64/)
    refuses('DNSKEY', '256 3 8 AA*A', /public key is not valid base64/)
  })

  it('gives a protocol other than 3 and reserved flags as reasons', () => {
    assert.deepEqual(reasons('DNSKEY', '257 3 8 AwEAAQ=='), [])
    assert.deepEqual(reasons('DNSKEY', '385 3 8 AwEAAQ=='), [], 'zone key, REVOKE and SEP')
    assert.deepEqual(reasons('DNSKEY', '256 4 8 AwEAAQ=='), ['protocol must be 3 (RFC 4034 §2.1.2), got 4'])
    assert.deepEqual(reasons('DNSKEY', '512 3 8 AwEAAQ=='), ['flags 512: only 256 (zone key), 128 (revoke) and 1 (SEP) are defined'])
  })

  it('takes the generic form and refuses generic data without a key', () => {
    assert.equal(hex(parse('DNSKEY', '\\# 8 0100030803010001')), '0100030803010001')
    refuses('DNSKEY', '\\# 4 01000308', /does not match the DNSKEY layout: public key is empty/)
    refuses('DNSKEY', '\\# 3 010003', /does not match the DNSKEY layout/)
    assert.equal(format('DNSKEY', fromHex('010003')), '\\# 3 010003')
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('DNSKEY', `257 3 13 ${KEY}`)
    const key = Buffer.from(KEY, 'base64')
    assert.equal(hex(packetRdata({ type: 'DNSKEY', name: 'example.org', data: { flags: 257, algorithm: 13, key } })), hex(wire))
    assert.deepEqual((packetDecode('DNSKEY', wire) as dnsPacket.DnskeyAnswer).data, { flags: 257, algorithm: 13, key })
  })
})
