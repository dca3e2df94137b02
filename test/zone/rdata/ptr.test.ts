import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('PTR (RFC 1035 §3.3.12)', () => {
  it('round-trips the name uncompressed, case kept', () => {
    roundTrip('PTR', 'host.example.net.', '04686f7374076578616d706c65036e657400')
    roundTrip('PTR', 'Host.Example.NET.', '04486f7374074578616d706c65034e455400')
    roundTrip('PTR', '.', '00')
    roundTrip('PTR', 'a\\.b\\032c.example.', '05612e622063076578616d706c6500')
  })

  it('completes relative names with the origin', () => {
    roundTrip('PTR', 'host', '04686f7374076578616d706c65036f726700', 'host.example.org.')
    roundTrip('PTR', '@', '076578616d706c65036f726700', 'example.org.')
  })

  it('refuses bad names with the reason', () => {
    refuses('PTR', 'a..example.', /ptrdname: empty label/)
    refuses('PTR', 'a'.repeat(64) + '.', /ptrdname: label longer than 63 octets/)
    refuses('PTR', '', /missing ptrdname/)
    refuses('PTR', 'a. b.', /unexpected "b\." after the last field/)
  })

  it('takes the generic form and writes a malformed name generically', () => {
    assert.equal(format('PTR', parse('PTR', '\\# 3 016100')), 'a.')
    refuses('PTR', '\\# 2 0161', /does not match the PTR layout/)
    refuses('PTR', '\\# 2 c00c', /does not match the PTR layout: label length byte over 63/)
    assert.equal(format('PTR', Uint8Array.from([1, 0x61])), '\\# 2 0161')
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('PTR', 'host.example.net.')
    assert.equal(hex(packetRdata({ type: 'PTR', name: 'test.example.org', data: 'host.example.net' })), hex(wire))
    assert.equal(packetDecode('PTR', wire).data, 'host.example.net')
  })
})
