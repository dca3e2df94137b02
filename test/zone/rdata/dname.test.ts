import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('DNAME (RFC 6672 §2.1)', () => {
  it('round-trips the name uncompressed, case kept', () => {
    roundTrip('DNAME', 'host.example.net.', '04686f7374076578616d706c65036e657400')
    roundTrip('DNAME', 'Host.Example.NET.', '04486f7374074578616d706c65034e455400')
    roundTrip('DNAME', '.', '00')
    roundTrip('DNAME', 'a\\.b\\032c.example.', '05612e622063076578616d706c6500')
  })

  it('completes relative names with the origin', () => {
    roundTrip('DNAME', 'host', '04686f7374076578616d706c65036f726700', 'host.example.org.')
    roundTrip('DNAME', '@', '076578616d706c65036f726700', 'example.org.')
  })

  it('refuses bad names with the reason', () => {
    refuses('DNAME', 'a..example.', /target: empty label/)
    refuses('DNAME', 'a'.repeat(64) + '.', /target: label longer than 63 octets/)
    refuses('DNAME', '', /missing target/)
    refuses('DNAME', 'a. b.', /unexpected "b\." after the last field/)
  })

  it('takes the generic form and writes a malformed name generically', () => {
    assert.equal(format('DNAME', parse('DNAME', '\\# 3 016100')), 'a.')
    refuses('DNAME', '\\# 2 0161', /does not match the DNAME layout/)
    refuses('DNAME', '\\# 2 c00c', /does not match the DNAME layout: label length byte over 63/)
    assert.equal(format('DNAME', Uint8Array.from([1, 0x61])), '\\# 2 0161')
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('DNAME', 'host.example.net.')
    assert.equal(hex(packetRdata({ type: 'DNAME', name: 'test.example.org', data: 'host.example.net' })), hex(wire))
    assert.equal(packetDecode('DNAME', wire).data, 'host.example.net')
  })
})
