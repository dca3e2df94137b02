import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readSoa, soaSerialOffset } from '../../../src/zone/rdata/soa.ts'
import { nameToString } from '../../../src/zone/name.ts'
import { hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

const NAMES = '036e7331076578616d706c65036f7267000a686f73746d6173746572076578616d706c65036f726700'

describe('SOA (RFC 1035 §3.3.13)', () => {
  it('round-trips two names and five 32-bit numbers', () => {
    roundTrip('SOA', 'ns1.example.org. hostmaster.example.org. 2024010101 3600 900 604800 86400',
      NAMES + '78a3f175' + '00000e10' + '00000384' + '00093a80' + '00015180')
  })

  it('takes TTL units in the timers and writes seconds (RFC 2308 §4 for the minimum)', () => {
    roundTrip('SOA', 'ns1 hostmaster ( 1 1h 15m 1w 1d )', NAMES + '00000001' + '00000e10' + '00000384' + '00093a80' + '00015180',
      'ns1.example.org. hostmaster.example.org. 1 3600 900 604800 86400')
    roundTrip('SOA', 'ns1 hostmaster 1 1H30M 2D 1w2d3h4m5s 0', NAMES + '00000001' + '00001518' + '0002a300' + '000c08a5' + '00000000',
      'ns1.example.org. hostmaster.example.org. 1 5400 172800 788645 0')
  })

  it('takes the largest serial and refuses one beyond 32 bits or with units', () => {
    roundTrip('SOA', 'ns1 hostmaster 4294967295 1 1 1 1', NAMES + 'ffffffff' + '00000001'.repeat(4),
      'ns1.example.org. hostmaster.example.org. 4294967295 1 1 1 1')
    refuses('SOA', 'ns1 hostmaster 4294967296 1 1 1 1', /serial must be a number from 0 to 4294967295/)
    refuses('SOA', 'ns1 hostmaster 1h 1 1 1 1', /serial must be a number/)
  })

  it('refuses bad timers and missing fields', () => {
    refuses('SOA', 'ns1 hostmaster 1 1x 1 1 1', /refresh must be a number of seconds \(or like 1h30m\), got "1x"/)
    refuses('SOA', 'ns1 hostmaster 1 1 h 1 1', /retry must be a number of seconds/)
    refuses('SOA', 'ns1 hostmaster 1 1 1 4294967296 1', /expire must be a number of seconds/)
    refuses('SOA', 'ns1 hostmaster 1 1 1 1', /missing minimum/)
    refuses('SOA', 'ns1 hostmaster 1 1 1 1 1 1', /unexpected "1" after the last field/)
  })

  it('reads its fields and the serial offset', () => {
    const wire = parse('SOA', 'ns1 hostmaster 7 1 2 3 4')
    const soa = readSoa(wire)
    assert.equal(nameToString(soa.rname), 'hostmaster.example.org.')
    assert.deepEqual([soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum], [7, 1, 2, 3, 4])
    assert.equal(soaSerialOffset(wire), NAMES.length / 2)
  })

  it('matches dns-packet both ways', () => {
    const data = { mname: 'ns1.example.org', rname: 'hostmaster.example.org', serial: 2024010101, refresh: 3600, retry: 900, expire: 604800, minimum: 86400 }
    const wire = parse('SOA', 'ns1.example.org. hostmaster.example.org. 2024010101 3600 900 604800 86400')
    assert.equal(hex(packetRdata({ type: 'SOA', name: 'example.org', data })), hex(wire))
    assert.deepEqual(packetDecode('SOA', wire).data, data)
  })
})
