import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, hex, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('MF (RFC 1035 §3.3.5)', () => {
  it('round-trips the name uncompressed, case kept', () => {
    roundTrip('MF', 'host.example.net.', '04686f7374076578616d706c65036e657400')
    roundTrip('MF', 'Host.Example.NET.', '04486f7374074578616d706c65034e455400')
    roundTrip('MF', '.', '00')
    roundTrip('MF', 'a\\.b\\032c.example.', '05612e622063076578616d706c6500')
  })

  it('completes relative names with the origin', () => {
    roundTrip('MF', 'host', '04686f7374076578616d706c65036f726700', 'host.example.org.')
    roundTrip('MF', '@', '076578616d706c65036f726700', 'example.org.')
  })

  it('refuses bad names with the reason', () => {
    refuses('MF', 'a..example.', /madname: empty label/)
    refuses('MF', 'a'.repeat(64) + '.', /madname: label longer than 63 octets/)
    refuses('MF', '', /missing madname/)
    refuses('MF', 'a. b.', /unexpected "b\." after the last field/)
  })

  it('takes the generic form and writes a malformed name generically', () => {
    assert.equal(format('MF', parse('MF', '\\# 3 016100')), 'a.')
    refuses('MF', '\\# 2 0161', /does not match the MF layout/)
    refuses('MF', '\\# 2 c00c', /does not match the MF layout: label length byte over 63/)
    assert.equal(format('MF', Uint8Array.from([1, 0x61])), '\\# 2 0161')
  })

  it('is not in dns-packet 5.6.1, which has no MF codec', () => {
    assert.equal(hex(parse('MF', 'a.')), '016100')
  })
})
