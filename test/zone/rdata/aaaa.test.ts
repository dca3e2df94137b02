import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, fromHex, hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('AAAA (RFC 3596 §2.2)', () => {
  it('round-trips addresses in RFC 5952 form', () => {
    roundTrip('AAAA', '2001:db8::1', '20010db8000000000000000000000001')
    roundTrip('AAAA', '::', '00000000000000000000000000000000')
    roundTrip('AAAA', '::1', '00000000000000000000000000000001')
    roundTrip('AAAA', '1::', '00010000000000000000000000000000')
    roundTrip('AAAA', '2001:DB8:0:0:1:0:0:1', '20010db8000000000001000000000001', '2001:db8::1:0:0:1')
    roundTrip('AAAA', '2001:0:0:1::1', '20010000000000010000000000000001')
    roundTrip('AAAA', '2001:db8:0:1:1:1:1:1', '20010db8000000010001000100010001')
    roundTrip('AAAA', 'fe80:0000:0000:0000:0204:61ff:fe9d:f156', 'fe80000000000000020461fffe9df156', 'fe80::204:61ff:fe9d:f156')
  })

  it('writes IPv4-mapped and IPv4-compatible addresses with a dotted quad, as BIND does (RFC 5952 §5)', () => {
    roundTrip('AAAA', '::ffff:192.0.2.1', '00000000000000000000ffffc0000201')
    roundTrip('AAAA', '::ffff:c000:201', '00000000000000000000ffffc0000201', '::ffff:192.0.2.1')
    roundTrip('AAAA', '::1.2.3.4', '00000000000000000000000001020304')
    roundTrip('AAAA', '::0.1.0.0', '00000000000000000000000000010000')
    // Seven zero groups: hex, like ::1.
    roundTrip('AAAA', '::0.0.1.0', '00000000000000000000000000000100', '::100')
    roundTrip('AAAA', '::ffff:0:1.2.3.4', '0000000000000000ffff000001020304', '::ffff:0:102:304')
    roundTrip('AAAA', '64:ff9b::192.0.2.1', '0064ff9b0000000000000000c0000201', '64:ff9b::c000:201')
  })

  it('refuses what is not an IPv6 address', () => {
    refuses('AAAA', '2001:db8::1::2', /address must be an IPv6 address/)
    refuses('AAAA', '1:2:3:4:5:6:7', /IPv6/)
    refuses('AAAA', '1:2:3:4:5:6:7:8:9', /IPv6/)
    refuses('AAAA', '12345::', /IPv6/)
    refuses('AAAA', '192.0.2.1', /IPv6/)
    refuses('AAAA', '::ffff:256.0.0.1', /IPv6/)
    refuses('AAAA', '1:2:3:4:5:6:7::8', /IPv6/)
  })

  it('takes the generic form', () => {
    assert.equal(format('AAAA', parse('AAAA', '\\# 16 20010db8000000000000000000000001')), '2001:db8::1')
    refuses('AAAA', '\\# 4 0a000001', /does not match the AAAA layout/)
    assert.equal(format('AAAA', fromHex('20010db8')), '\\# 4 20010DB8')
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('AAAA', '2001:db8::1')
    assert.equal(hex(packetRdata({ type: 'AAAA', name: 'test.example.org', data: '2001:db8::1' })), hex(wire))
    assert.equal(packetDecode('AAAA', wire).data, '2001:db8::1')
  })
})
