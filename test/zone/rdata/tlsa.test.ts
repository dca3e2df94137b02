import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type dnsPacket from 'dns-packet'
import { format, fromHex, hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const SHA256 = '0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6'

describe('TLSA (RFC 6698 §2)', () => {
  it('round-trips with the bytes BIND writes, data in upper-case hex with pieces joined', () => {
    // Wire from named-rrchecker -u.
    roundTrip('TLSA', `3 1 1 ${SHA256}`, `030101${SHA256}`)
    roundTrip('TLSA', `3 1 1 ( ${SHA256.slice(0, 30).toLowerCase()}\n ${SHA256.slice(30)} )`, `030101${SHA256}`, `3 1 1 ${SHA256}`)
    roundTrip('TLSA', '0 0 0 308201', '000000308201', '0 0 0 308201')
  })

  it('refuses bad input with a reason', () => {
    refuses('TLSA', '3 1 1', /missing certificate association data/)
    refuses('TLSA', '3 1', /missing matching type/)
    refuses('TLSA', '256 1 1 AB', /certificate usage must be a number from 0 to 255/)
    refuses('TLSA', 'PKIX-TA 0 1 AB', /certificate usage must be a number/)
    refuses('TLSA', '3 1 1 A', /certificate association data is not valid hex/)
    refuses('TLSA', '3 1 1 -', /certificate association data is not valid hex/)
  })

  it('gives data of the wrong length for a hashed matching type as a reason', () => {
    assert.deepEqual(reasons('TLSA', `3 1 1 ${SHA256}`), [])
    assert.deepEqual(reasons('TLSA', `3 1 2 ${SHA256}`), ['matching type 2 makes 64-octet hashes, but the data is 32 octet(s) (RFC 6698 §2.1.3)'])
    assert.deepEqual(reasons('TLSA', '3 1 1 AABB'), ['matching type 1 makes 32-octet hashes, but the data is 2 octet(s) (RFC 6698 §2.1.3)'])
    assert.deepEqual(reasons('TLSA', '3 1 0 AABB'), [])
  })

  it('takes the generic form and refuses generic data without association data', () => {
    assert.equal(hex(parse('TLSA', `\\# 35 030101 ${SHA256}`)), `030101${SHA256}`.toLowerCase())
    refuses('TLSA', '\\# 3 030101', /does not match the TLSA layout: certificate association data is empty/)
    refuses('TLSA', '\\# 2 0301', /does not match the TLSA layout/)
    assert.equal(format('TLSA', fromHex('0301')), '\\# 2 0301')
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('TLSA', `3 1 1 ${SHA256}`)
    const data = { usage: 3, selector: 1, matchingType: 1, certificate: Buffer.from(SHA256, 'hex') }
    assert.equal(hex(packetRdata({ type: 'TLSA', name: '_443._tcp.example.org', data })), hex(wire))
    assert.deepEqual((packetDecode('TLSA', wire) as dnsPacket.TlsaAnswer).data, data)
  })
})
