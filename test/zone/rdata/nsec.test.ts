import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type dnsPacket from 'dns-packet'
import { format, fromHex, hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const NEXT = '04686f7374076578616d706c6503636f6d00' // host.example.com.
// A MX RRSIG NSEC | CAA | TYPE1234 | TYPE65534; wire from named-rrchecker -u.
const BITMAP = '0006400100000003' + '010140' + '041b' + '00'.repeat(26) + '20' + 'ff20' + '00'.repeat(31) + '02'

describe('NSEC (RFC 4034 §4)', () => {
  it('round-trips with the bytes BIND writes, types in number order as mnemonics or TYPEnnn', () => {
    roundTrip('NSEC', 'host.example.com. A MX RRSIG NSEC CAA TYPE1234 TYPE65534', NEXT + BITMAP)
    roundTrip('NSEC', 'host.example.com. ( TYPE65534 nsec rrsig TYPE1234 a CAA MX TYPE1 )', NEXT + BITMAP,
      'host.example.com. A MX RRSIG NSEC CAA TYPE1234 TYPE65534')
    roundTrip('NSEC', 'a NSEC RRSIG', '0161076578616d706c65036f726700' + '000600000000000' + '3', 'a.example.org. RRSIG NSEC')
    roundTrip('NSEC', '. TYPE0 OPT ANY', '00' + '0020' + '80' + '00000000' + '40' + '00'.repeat(25) + '01')
  })

  it('allows an empty bit map in the layout but gives missing NSEC and RRSIG as a reason (RFC 4035 §2.3)', () => {
    roundTrip('NSEC', 'host.example.com.', NEXT)
    assert.deepEqual(reasons('NSEC', 'host.example.com.'), ['type bit map must include NSEC and RRSIG (RFC 4035 §2.3)'])
    assert.deepEqual(reasons('NSEC', 'host.example.com. A NSEC'), ['type bit map must include NSEC and RRSIG (RFC 4035 §2.3)'])
    assert.deepEqual(reasons('NSEC', 'host.example.com. A RRSIG NSEC'), [])
  })

  it('refuses bad input with a reason', () => {
    refuses('NSEC', '', /missing next domain name/)
    refuses('NSEC', 'host.example.com. A FOO', /"FOO" is not a type mnemonic or TYPEnnn/)
    refuses('NSEC', 'host.example.com. A 12', /"12" is not a type mnemonic or TYPEnnn/)
    refuses('NSEC', 'host.example.com. TYPE65536', /"TYPE65536" is not a type/)
    refuses('NSEC', 'host.example.com. A "MX"', /"MX" is not a type/)
    refuses('NSEC', 'host..example.com. A', /next domain name: empty label/)
  })

  it('takes the generic form and refuses malformed generic data', () => {
    assert.equal(hex(parse('NSEC', '\\# 7 00000140 010140')), '00000140010140')
    assert.equal(format('NSEC', fromHex('00000140010140')), '. A CAA')
    refuses('NSEC', '\\# 3 000100', /does not match the NSEC layout: type bit map: window 1 has bitmap length 0/)
    refuses('NSEC', '\\# 8 0000014001024000', /ends with a zero octet/)
    refuses('NSEC', '\\# 4 03616263', /does not match the NSEC layout/)
    refuses('NSEC', '\\# 2 0000', /window header runs past the end/)
    assert.equal(format('NSEC', fromHex('00000140000140')), '\\# 7 00000140000140', 'windows out of order')
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('NSEC', 'host.example.com. A MX RRSIG NSEC CAA TYPE1234 TYPE65534')
    const rrtypes = ['A', 'MX', 'RRSIG', 'NSEC', 'CAA', 'UNKNOWN_1234', 'UNKNOWN_65534']
    assert.equal(hex(packetRdata({ type: 'NSEC', name: 'example.org', data: { nextDomain: 'host.example.com', rrtypes } })), hex(wire))
    assert.deepEqual((packetDecode('NSEC', wire) as dnsPacket.NsecAnswer).data, { nextDomain: 'host.example.com', rrtypes })
  })
})
