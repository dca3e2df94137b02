import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type dnsPacket from 'dns-packet'
import { format, fromHex, hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const SHA256 = '0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6'

describe('SMIMEA (RFC 8162 §2)', () => {
  it('round-trips with the TLSA layout and the bytes BIND writes', () => {
    roundTrip('SMIMEA', `3 1 1 ${SHA256.toLowerCase()}`, `030101${SHA256}`, `3 1 1 ${SHA256}`)
    roundTrip('SMIMEA', '0 0 0 30 82 01', '000000308201', '0 0 0 308201')
  })

  it('refuses bad input with a reason', () => {
    refuses('SMIMEA', '3 1 1', /missing certificate association data/)
    refuses('SMIMEA', '3 1 1 xyz', /not valid hex/)
    refuses('SMIMEA', '3 1 300 00', /matching type must be a number from 0 to 255/)
  })

  it('gives data of the wrong length for a hashed matching type as a reason', () => {
    assert.deepEqual(reasons('SMIMEA', '3 0 1 00'), ['matching type 1 makes 32-octet hashes, but the data is 1 octet(s) (RFC 6698 §2.1.3)'])
  })

  it('takes the generic form and refuses truncated generic data', () => {
    assert.equal(hex(parse('SMIMEA', '\\# 4 03010100')), '03010100')
    refuses('SMIMEA', '\\# 3 030101', /does not match the SMIMEA layout/)
    assert.equal(format('SMIMEA', fromHex('03')), '\\# 1 03')
  })

  it('has the bytes dns-packet writes for the same TLSA data', () => {
    const wire = parse('SMIMEA', `3 1 1 ${SHA256}`)
    const data = { usage: 3, selector: 1, matchingType: 1, certificate: Buffer.from(SHA256, 'hex') }
    assert.equal(hex(packetRdata({ type: 'TLSA', name: 'example.org', data })), hex(wire))
    assert.deepEqual((packetDecode('TLSA', wire) as dnsPacket.TlsaAnswer).data, data)
  })
})
