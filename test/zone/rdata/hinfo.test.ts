import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('HINFO (RFC 1035 §3.3.2)', () => {
  it('round-trips two character-strings, quoted on output', () => {
    roundTrip('HINFO', '"INTEL-386" "Unix"', '09494e54454c2d33383604556e6978')
    roundTrip('HINFO', 'RFC8482 ""', '0752464338343832' + '00', '"RFC8482" ""')
    roundTrip('HINFO', '"a b" "\\"\\\\\\255"', '03612062' + '03225cff', '"a b" "\\"\\\\\\255"')
  })

  it('refuses a missing or extra string', () => {
    refuses('HINFO', '"x86"', /missing os/)
    refuses('HINFO', '"x86" "Linux" "more"', /unexpected "more"/)
    refuses('HINFO', `"${'a'.repeat(256)}" ""`, /cpu longer than 255 octets/)
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('HINFO', '"INTEL-386" "Unix"')
    assert.equal(hex(packetRdata({ type: 'HINFO', name: 'example.org', data: { cpu: 'INTEL-386', os: 'Unix' } })), hex(wire))
    assert.deepEqual(packetDecode('HINFO', wire).data, { cpu: 'INTEL-386', os: 'Unix' })
  })
})
