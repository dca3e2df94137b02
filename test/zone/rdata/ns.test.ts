import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('NS (RFC 1035 §3.3.11)', () => {
  it('round-trips the name uncompressed, case kept', () => {
    roundTrip('NS', 'host.example.net.', '04686f7374076578616d706c65036e657400')
    roundTrip('NS', 'Host.Example.NET.', '04486f7374074578616d706c65034e455400')
    roundTrip('NS', '.', '00')
    roundTrip('NS', 'a\\.b\\032c.example.', '05612e622063076578616d706c6500')
  })

  it('completes relative names with the origin', () => {
    roundTrip('NS', 'host', '04686f7374076578616d706c65036f726700', 'host.example.org.')
    roundTrip('NS', '@', '076578616d706c65036f726700', 'example.org.')
  })

  it('refuses bad names with the reason', () => {
    refuses('NS', 'a..example.', /nsdname: empty label/)
    refuses('NS', 'a'.repeat(64) + '.', /nsdname: label longer than 63 octets/)
    refuses('NS', '', /missing nsdname/)
    refuses('NS', 'a. b.', /unexpected "b\." after the last field/)
  })

  it('takes the generic form and writes a malformed name generically', () => {
    assert.equal(format('NS', parse('NS', '\\# 3 016100')), 'a.')
    refuses('NS', '\\# 2 0161', /does not match the NS layout/)
    refuses('NS', '\\# 2 c00c', /does not match the NS layout: label length byte over 63/)
    assert.equal(format('NS', Uint8Array.from([1, 0x61])), '\\# 2 0161')
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('NS', 'host.example.net.')
    assert.equal(hex(packetRdata({ type: 'NS', name: 'test.example.org', data: 'host.example.net' })), hex(wire))
    assert.equal(packetDecode('NS', wire).data, 'host.example.net')
  })
})
