import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('CNAME (RFC 1035 §3.3.1)', () => {
  it('round-trips the name uncompressed, case kept', () => {
    roundTrip('CNAME', 'host.example.net.', '04686f7374076578616d706c65036e657400')
    roundTrip('CNAME', 'Host.Example.NET.', '04486f7374074578616d706c65034e455400')
    roundTrip('CNAME', '.', '00')
    roundTrip('CNAME', 'a\\.b\\032c.example.', '05612e622063076578616d706c6500')
  })

  it('completes relative names with the origin', () => {
    roundTrip('CNAME', 'host', '04686f7374076578616d706c65036f726700', 'host.example.org.')
    roundTrip('CNAME', '@', '076578616d706c65036f726700', 'example.org.')
  })

  it('refuses bad names with the reason', () => {
    refuses('CNAME', 'a..example.', /cname: empty label/)
    refuses('CNAME', 'a'.repeat(64) + '.', /cname: label longer than 63 octets/)
    refuses('CNAME', '', /missing cname/)
    refuses('CNAME', 'a. b.', /unexpected "b\." after the last field/)
  })

  it('takes the generic form and writes a malformed name generically', () => {
    assert.equal(format('CNAME', parse('CNAME', '\\# 3 016100')), 'a.')
    refuses('CNAME', '\\# 2 0161', /does not match the CNAME layout/)
    refuses('CNAME', '\\# 2 c00c', /does not match the CNAME layout: label length byte over 63/)
    assert.equal(format('CNAME', Uint8Array.from([1, 0x61])), '\\# 2 0161')
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('CNAME', 'host.example.net.')
    assert.equal(hex(packetRdata({ type: 'CNAME', name: 'test.example.org', data: 'host.example.net' })), hex(wire))
    assert.equal(packetDecode('CNAME', wire).data, 'host.example.net')
  })
})
