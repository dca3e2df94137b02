import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type dnsPacket from 'dns-packet'
import { format, fromHex, hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import { formatTime32, parseTime32 } from '../../../src/zone/rdata/fields.ts'
import '../../../src/zone/rdata/index.ts'

// RFC 4034 §3.3 example (signature shortened); wire from named-rrchecker -u.
const SIG = 'oJB1W6WNGv+ldvQ3WDG0MQkg5IEhjRip8WTr'
const SIG_HEX = 'a090755ba58d1affa576f4375831b4310920e481218d18a9f164eb'
const TEXT = `A 5 3 86400 20030322173103 20030220173103 2642 example.com. ${SIG}`
const WIRE = `0001 05 03 00015180 3e7c9dd7 3e5510d7 0a52 076578616d706c6503636f6d00 ${SIG_HEX}`

describe('RRSIG (RFC 4034 §3)', () => {
  it('round-trips with the bytes BIND writes', () => {
    roundTrip('RRSIG', TEXT, WIRE)
  })

  it('reads times as seconds, types as TYPEnnn or numbers, names relative to the origin', () => {
    roundTrip('RRSIG', 'TYPE1234 13 2 300 1700000000 1690000000 1 . AAAA', '04d2 0d 02 0000012c 6553f100 64bb5a80 0001 00 000000',
      'TYPE1234 13 2 300 20231114221320 20230722042640 1 . AAAA')
    roundTrip('RRSIG', 'mx ECDSAP256SHA256 2 300 20231114221320 20230722042640 65535 example.org. AAAA', '000f 0d 02 0000012c 6553f100 64bb5a80 ffff 076578616d706c65036f726700 000000',
      'MX 13 2 300 20231114221320 20230722042640 65535 example.org. AAAA')
    roundTrip('RRSIG', '28 8 3 60 0000000001 0 7 sub AAAA', '001c 08 03 0000003c 00000001 00000000 0007 03737562076578616d706c65036f726700 000000',
      'AAAA 8 3 60 19700101000001 19700101000000 7 sub.example.org. AAAA')
  })

  it('refuses bad input with a reason', () => {
    refuses('RRSIG', TEXT.replace(` ${SIG}`, ''), /missing signature/)
    refuses('RRSIG', 'A 5 3 86400', /missing signature expiration/)
    refuses('RRSIG', TEXT.replace('A 5', 'FOO 5'), /type covered: "FOO" is not a type/)
    refuses('RRSIG', TEXT.replace('86400', '1h'), /original TTL must be a number/)
    refuses('RRSIG', TEXT.replace('86400', '4294967296'), /original TTL must be a number from 0 to 4294967295/)
    refuses('RRSIG', TEXT.replace('A 5 3', 'A 5 256'), /labels must be a number from 0 to 255/)
    refuses('RRSIG', TEXT.replace('20030322173103', '2003032217310'), /signature expiration must be YYYYMMDDHHmmSS/)
    refuses('RRSIG', TEXT.replace('20030322173103', '20030230173103'), /day 30 out of range/)
    refuses('RRSIG', TEXT.replace('20030322173103', '4294967296'), /signature expiration .* over 4294967295/)
    refuses('RRSIG', TEXT.replace('20030220173103', '+1'), /signature inception must be YYYYMMDDHHmmSS/)
    refuses('RRSIG', TEXT.replace(SIG, 'AAA'), /signature is not valid base64/)
    refuses('RRSIG', TEXT.replace('example.com.', 'a..b'), /signer's name: empty label/)
  })

  it('gives an expiration not after the inception as a reason', () => {
    assert.deepEqual(reasons('RRSIG', TEXT), [])
    assert.deepEqual(reasons('RRSIG', TEXT.replace('20030322173103', '20030220173103')), ['signature expiration is not after its inception (RFC 4034 §3.1.5)'])
    assert.deepEqual(reasons('RRSIG', TEXT.replace('20030322173103', '20010101000000')), ['signature expiration is not after its inception (RFC 4034 §3.1.5)'])
    // Serial number arithmetic: 1 is after 4294967295.
    assert.deepEqual(reasons('RRSIG', `A 5 3 86400 1 4294967295 2642 . ${SIG}`), [])
  })

  it('gives a signer with more labels than the owner as a reason, as BIND refuses it', () => {
    assert.deepEqual(reasons('RRSIG', TEXT.replace('A 5 3', 'A 5 2')), [])
    assert.deepEqual(reasons('RRSIG', TEXT.replace('A 5 3', 'A 5 1')), ["signer's name has 2 labels, more than the 1 of the owner (RFC 4034 §3.1.3, §3.1.7)"])
    assert.deepEqual(reasons('RRSIG', `A 5 0 86400 20030322173103 20030220173103 2642 . ${SIG}`), [])
  })

  it('takes the generic form and refuses truncated generic data', () => {
    const wire = fromHex(WIRE)
    assert.equal(hex(parse('RRSIG', `\\# ${wire.length} ${WIRE}`)), hex(wire))
    refuses('RRSIG', '\\# 19 0001 05 03 00015180 3e7c9dd7 3e5510d7 0a52 00', /does not match the RRSIG layout: signature is empty/)
    refuses('RRSIG', '\\# 18 0001 05 03 00015180 3e7c9dd7 3e5510d7 0a52', /does not match the RRSIG layout/)
    refuses('RRSIG', '\\# 22 0001 05 03 00015180 3e7c9dd7 3e5510d7 0a52 03616263', /does not match the RRSIG layout/)
    assert.equal(format('RRSIG', wire.subarray(0, 10)), `\\# 10 ${WIRE.replace(/ /g, '').slice(0, 20).toUpperCase()}`)
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('RRSIG', TEXT)
    const data = {
      typeCovered: 'A',
      algorithm: 5,
      labels: 3,
      originalTTL: 86400,
      expiration: 0x3e7c9dd7,
      inception: 0x3e5510d7,
      keyTag: 2642,
      signersName: 'example.com',
      signature: Buffer.from(SIG, 'base64')
    }
    assert.equal(hex(packetRdata({ type: 'RRSIG', name: 'example.org', data })), hex(wire))
    assert.deepEqual((packetDecode('RRSIG', wire) as dnsPacket.RrsigAnswer).data, data)
  })
})

describe('signature times (RFC 4034 §3.2)', () => {
  it('reads YYYYMMDDHHmmSS in UTC and up to ten digits as seconds, as BIND does', () => {
    assert.equal(parseTime32('20030322173103'), 0x3e7c9dd7)
    assert.equal(parseTime32('19700101000000'), 0)
    assert.equal(parseTime32('21060207062815'), 0xffffffff)
    assert.equal(parseTime32('21060207062816'), 0, 'taken modulo 2^32')
    assert.equal(parseTime32('19691231235959'), 0xffffffff, 'before 1970, modulo 2^32')
    assert.equal(parseTime32('20240229000000'), 1709164800, 'leap day')
    assert.equal(parseTime32('20231231235960'), 1704067200, 'leap second 60')
    assert.equal(parseTime32('0000000001'), 1)
    assert.equal(parseTime32('4294967295'), 0xffffffff)
    assert.match(String(parseTime32('20230229000000')), /day 29 out of range/)
    assert.match(String(parseTime32('20231301000000')), /month 13 out of range/)
    assert.match(String(parseTime32('20231231240000')), /time of day out of range/)
    assert.match(String(parseTime32('4294967296')), /over 4294967295/)
    assert.match(String(parseTime32('200303221731031')), /neither YYYYMMDDHHmmSS nor a number/)
    assert.match(String(parseTime32('-1')), /neither/)
  })

  it('writes the time nearest to now in serial number arithmetic, as BIND does', () => {
    const now = 1795345749 // 2026-11-22
    assert.equal(formatTime32(0x3e7c9dd7, now), '20030322173103')
    assert.equal(formatTime32(0, now), '19700101000000')
    // More than 2^31 seconds after now reads as before 1970 (BIND writes 19691231235959).
    assert.equal(formatTime32(0xffffffff, now), '19691231235959')
    // After 2038 + 68 years, small values are past 2106.
    assert.equal(formatTime32(0, 4294967295 + 1000), '21060207062816')
    assert.equal(formatTime32(1000, 4294967296), '21060207064456')
  })
})
