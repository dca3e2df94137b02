import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, fromHex, hex, packetDecode, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

// RFC 4025 §3.1 examples; wire from named-rrchecker -u.
const KEY = 'AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ=='
const KEY_HEX = '010351537986ed35533b6064478eeeb27b5bd74dae149b6e81ba3a0521af82ab7801'

describe('IPSECKEY (RFC 4025 §2)', () => {
  it('round-trips each gateway type with the bytes BIND writes', () => {
    roundTrip('IPSECKEY', `10 0 2 . ${KEY}`, `0a0002${KEY_HEX}`)
    roundTrip('IPSECKEY', `10 1 2 192.0.2.38 ${KEY}`, `0a0102c0000226${KEY_HEX}`)
    roundTrip('IPSECKEY', `10 2 2 2001:0DB8:0:8002::2000:1 ${KEY}`, `0a020220010db8000080020000000020000001${KEY_HEX}`,
      `10 2 2 2001:db8:0:8002::2000:1 ${KEY}`)
    roundTrip('IPSECKEY', `10 3 2 mygateway.example.com. ${KEY}`, `0a0302096d7967617465776179076578616d706c6503636f6d00${KEY_HEX}`)
  })

  it('completes a relative gateway name, joins key pieces and allows no key (RFC 4025 §2.4)', () => {
    roundTrip('IPSECKEY', '10 3 2 gw AQNR U3mG', '0a0302026777076578616d706c65036f726700010351537986', '10 3 2 gw.example.org. AQNRU3mG')
    roundTrip('IPSECKEY', '10 3 2 @ AQNR', '0a0302076578616d706c65036f726700010351', '10 3 2 example.org. AQNR')
    roundTrip('IPSECKEY', '10 0 0 .', '0a0000')
    roundTrip('IPSECKEY', '255 1 0 192.0.2.1', 'ff0100c0000201')
  })

  it('refuses bad input with a reason', () => {
    refuses('IPSECKEY', '10 0 2', /missing gateway$/)
    refuses('IPSECKEY', '10 0', /missing algorithm/)
    refuses('IPSECKEY', '256 0 2 . AQNR', /precedence must be a number from 0 to 255/)
    refuses('IPSECKEY', '10 4 2 . AQNR', /gateway type must be 0, 1, 2 or 3, got "4"/)
    refuses('IPSECKEY', '10 0 256 . AQNR', /algorithm must be a number from 0 to 255/)
    refuses('IPSECKEY', '10 0 2 gw.example.org. AQNR', /gateway must be "." for gateway type 0/)
    refuses('IPSECKEY', '10 1 2 gw.example.org. AQNR', /gateway must be an IPv4 address/)
    refuses('IPSECKEY', '10 1 2 2001:db8::1 AQNR', /gateway must be an IPv4 address/)
    refuses('IPSECKEY', '10 2 2 192.0.2.1 AQNR', /gateway must be an IPv6 address/)
    refuses('IPSECKEY', '10 3 2 a..b AQNR', /gateway: empty label/)
    refuses('IPSECKEY', '10 1 2 192.0.2.1 AQN', /public key is not valid base64/)
  })

  it('gives a key that does not fit the algorithm as a reason (RFC 4025 §2.4)', () => {
    assert.deepEqual(reasons('IPSECKEY', `10 1 2 192.0.2.38 ${KEY}`), [])
    assert.deepEqual(reasons('IPSECKEY', '10 1 0 192.0.2.38'), [])
    assert.deepEqual(reasons('IPSECKEY', `10 1 0 192.0.2.38 ${KEY}`), ['algorithm 0 means no public key (RFC 4025 §2.4), but a key is present'])
    assert.deepEqual(reasons('IPSECKEY', '10 1 2 192.0.2.38'), ['algorithm 2 needs a public key (RFC 4025 §2.4)'])
  })

  it('takes the generic form and refuses malformed generic data', () => {
    assert.equal(hex(parse('IPSECKEY', `\\# 41 0a0102c0000226 ${KEY_HEX}`)), `0a0102c0000226${KEY_HEX}`)
    assert.equal(format('IPSECKEY', fromHex('0a03020000')), '10 3 2 . AA==')
    refuses('IPSECKEY', '\\# 6 0a0102c00002', /does not match the IPSECKEY layout/)
    refuses('IPSECKEY', '\\# 4 0a040200', /does not match the IPSECKEY layout: gateway type 4 is not defined/)
    refuses('IPSECKEY', '\\# 5 0a03020161', /does not match the IPSECKEY layout/)
    refuses('IPSECKEY', '\\# 2 0a00', /does not match the IPSECKEY layout/)
    assert.equal(format('IPSECKEY', fromHex('0a040200')), '\\# 4 0A040200')
  })

  it('is opaque data to dns-packet, which has no IPSECKEY codec', () => {
    const wire = parse('IPSECKEY', `10 3 2 mygateway.example.com. ${KEY}`)
    assert.equal(hex((packetDecode('IPSECKEY', wire) as { data: Buffer }).data), hex(wire))
  })
})
