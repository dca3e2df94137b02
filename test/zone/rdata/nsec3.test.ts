import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type dnsPacket from 'dns-packet'
import { RdataError } from '../../../src/zone/rdata/index.ts'
import { decodeBase32Hex, encodeBase32Hex } from '../../../src/zone/rdata/fields.ts'
import { format, fromHex, hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'

const HASH = '2T7B4G4VSA5SMI47K61MV5BV1A22BOJR'
const HASH_HEX = '174eb2409fe28bcb4887a1836f957f0a8425e27b'

describe('NSEC3 (RFC 5155 §3)', () => {
  it('round-trips with the bytes BIND writes: salt and hash in upper case, types in number order', () => {
    // Wire from named-rrchecker -u.
    roundTrip('NSEC3', `1 1 12 aabbccdd ( ${HASH.toLowerCase()} MX DNSKEY NS SOA NSEC3PARAM RRSIG )`,
      `0101000c04aabbccdd14${HASH_HEX}000722010000000290`, `1 1 12 AABBCCDD ${HASH} NS SOA MX RRSIG DNSKEY NSEC3PARAM`)
    roundTrip('NSEC3', `1 0 0 - ${HASH}`, `010000000014${HASH_HEX}`)
    roundTrip('NSEC3', '2 0 65535 00 2T7B4G4V A', '0200ffff010005174eb2409f000140', '2 0 65535 00 2T7B4G4V A')
  })

  it('refuses bad input with a reason', () => {
    refuses('NSEC3', '1 1 12 aabbccdd', /missing next hashed owner name/)
    refuses('NSEC3', '1 1 12', /missing salt/)
    refuses('NSEC3', '256 1 12 - ' + HASH, /hash algorithm must be a number from 0 to 255/)
    refuses('NSEC3', '1 1 65536 - ' + HASH, /iterations must be a number from 0 to 65535/)
    refuses('NSEC3', '1 1 12 abc ' + HASH, /salt is not valid hex/)
    refuses('NSEC3', '1 1 12 0 ' + HASH, /salt is not valid hex/)
    refuses('NSEC3', '1 1 12 "" ' + HASH, /salt must be hex digits or "-"/)
    refuses('NSEC3', '1 1 12 ' + 'ab'.repeat(256) + ' ' + HASH, /salt longer than 255 octets/)
    refuses('NSEC3', '1 1 12 ab cd ' + HASH, /next hashed owner name is not valid base32hex/)
    refuses('NSEC3', '1 1 12 - ' + HASH.slice(0, -1), /not valid base32hex/)
    refuses('NSEC3', '1 1 12 - 2T7B4G4V========', /not valid base32hex/)
    refuses('NSEC3', '1 1 12 - 2T7B4G4VSA', /non-zero bits after the last octet/)
    refuses('NSEC3', '1 1 12 - WXYZ', /not valid base32hex/)
    refuses('NSEC3', '1 1 12 - -', /not valid base32hex/)
    refuses('NSEC3', `1 1 12 - ${HASH} A 12`, /"12" is not a type mnemonic/)
  })

  it('gives a hash of the wrong length and unknown flags as reasons', () => {
    assert.deepEqual(reasons('NSEC3', `1 1 12 - ${HASH} A`), [])
    assert.deepEqual(reasons('NSEC3', '1 0 12 - 2T7B4G4V A'), ['hash algorithm 1 makes 20-octet hashes, but the next hashed owner name is 5 octet(s)'])
    assert.deepEqual(reasons('NSEC3', `1 2 12 - ${HASH} A`), ['flags 2: only 1 (Opt-Out) is defined (RFC 5155 §3.1.2)'])
    assert.deepEqual(reasons('NSEC3', '2 0 12 - 2T7B4G4V'), [], 'no length is known for other hash algorithms')
  })

  it('takes the generic form and refuses malformed generic data', () => {
    assert.equal(hex(parse('NSEC3', `\\# 26 0100000c00 14 ${HASH_HEX}`)), `0100000c0014${HASH_HEX}`)
    assert.equal(format('NSEC3', fromHex(`0100000c0014${HASH_HEX}000140`)), `1 0 12 - ${HASH} A`)
    refuses('NSEC3', '\\# 6 0100000c0000', /does not match the NSEC3 layout: next hashed owner name is empty/)
    refuses('NSEC3', '\\# 5 0100000c00', /does not match the NSEC3 layout/)
    refuses('NSEC3', '\\# 8 0100000c05aabbcc', /does not match the NSEC3 layout/)
    refuses('NSEC3', `\\# 27 0100000c00 14 ${HASH_HEX} 00`, /window header runs past the end/)
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('NSEC3', `1 1 12 aabbccdd ${HASH} NS SOA MX RRSIG DNSKEY NSEC3PARAM`)
    const data = {
      algorithm: 1,
      flags: 1,
      iterations: 12,
      salt: Buffer.from('aabbccdd', 'hex'),
      nextDomain: Buffer.from(HASH_HEX, 'hex'),
      rrtypes: ['NS', 'SOA', 'MX', 'RRSIG', 'DNSKEY', 'NSEC3PARAM']
    }
    assert.equal(hex(packetRdata({ type: 'NSEC3', name: 'example.org', data })), hex(wire))
    assert.deepEqual((packetDecode('NSEC3', wire) as dnsPacket.Nsec3Answer).data, data)
  })
})

describe('base32hex (RFC 4648 §7)', () => {
  it('encodes and decodes the RFC 4648 §10 test vectors without padding', () => {
    const vectors: Array<[string, string]> = [['', ''], ['f', 'CO'], ['fo', 'CPNG'], ['foo', 'CPNMU'], ['foob', 'CPNMUOG'], ['fooba', 'CPNMUOJ1'], ['foobar', 'CPNMUOJ1E8']]
    for (const [plain, encoded] of vectors) {
      const bytes = new TextEncoder().encode(plain)
      assert.equal(encodeBase32Hex(bytes), encoded)
      assert.equal(hex(decodeBase32Hex(encoded, 'x')), hex(bytes))
      assert.equal(hex(decodeBase32Hex(encoded.toLowerCase(), 'x')), hex(bytes))
    }
  })

  it('refuses lengths that cannot end a quantum, padding and letters past V', () => {
    for (const text of ['C', 'CPN', 'CPNMUO', 'CO======', 'CW', 'C0=']) {
      assert.throws(() => decodeBase32Hex(text, 'x'), RdataError, text)
    }
  })
})
