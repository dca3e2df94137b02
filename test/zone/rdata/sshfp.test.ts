import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type dnsPacket from 'dns-packet'
import { format, fromHex, hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const SHA1 = 'DD465C09CFA51FB45020CC83316FFF21B9EC74AC'
const SHA256 = '123456789ABCDEF67890123456789ABCDEF67890123456789ABCDEF123456789'

describe('SSHFP (RFC 4255 §3)', () => {
  it('round-trips with the bytes BIND writes, fingerprint in upper-case hex', () => {
    // Wire from named-rrchecker -u.
    roundTrip('SSHFP', `1 1 ${SHA1.toLowerCase()}`, `0101${SHA1}`, `1 1 ${SHA1}`)
    roundTrip('SSHFP', `4 2 ( ${SHA256.slice(0, 32)} ${SHA256.slice(32)} )`, `0402${SHA256}`, `4 2 ${SHA256}`)
  })

  it('refuses bad input with a reason', () => {
    refuses('SSHFP', '1 1', /missing fingerprint/)
    refuses('SSHFP', '1', /missing fingerprint type/)
    refuses('SSHFP', '1 1 abc', /fingerprint is not valid hex/)
    refuses('SSHFP', '256 1 ab', /algorithm must be a number from 0 to 255/)
    refuses('SSHFP', 'RSA 1 ab', /algorithm must be a number/)
  })

  it('gives the fingerprint length per fingerprint type as a reason', () => {
    assert.deepEqual(reasons('SSHFP', `1 1 ${SHA1}`), [])
    assert.deepEqual(reasons('SSHFP', `4 2 ${SHA256}`), [])
    assert.deepEqual(reasons('SSHFP', `1 2 ${SHA1}`), ['fingerprint type 2 makes a 32-octet fingerprint, but the fingerprint is 20 octet(s)'])
    assert.deepEqual(reasons('SSHFP', `1 1 ${SHA256}`), ['fingerprint type 1 makes a 20-octet fingerprint, but the fingerprint is 32 octet(s)'])
    assert.deepEqual(reasons('SSHFP', '1 3 0123'), [])
  })

  it('takes the generic form and refuses generic data without a fingerprint', () => {
    assert.equal(hex(parse('SSHFP', `\\# 22 0101 ${SHA1}`)), `0101${SHA1}`.toLowerCase())
    refuses('SSHFP', '\\# 2 0101', /does not match the SSHFP layout: fingerprint is empty/)
    refuses('SSHFP', '\\# 1 01', /does not match the SSHFP layout/)
    assert.equal(format('SSHFP', fromHex('01')), '\\# 1 01')
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('SSHFP', `4 2 ${SHA256}`)
    const data = { algorithm: 4, hash: 2, fingerprint: SHA256 }
    assert.equal(hex(packetRdata({ type: 'SSHFP', name: 'host.example.org', data })), hex(wire))
    assert.deepEqual((packetDecode('SSHFP', wire) as dnsPacket.SshfpAnswer).data, data)
  })
})
