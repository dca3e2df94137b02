import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('SRV (RFC 2782)', () => {
  it('round-trips priority, weight, port and target', () => {
    roundTrip('SRV', '0 5 5060 sip.example.org.', '0000' + '0005' + '13c4' + '03736970076578616d706c65036f726700')
    roundTrip('SRV', '65535 65535 65535 .', 'ffffffffffff00')
  })

  it('refuses numbers out of range and missing fields', () => {
    refuses('SRV', '0 5 65536 sip', /port must be a number from 0 to 65535, got 65536/)
    refuses('SRV', '0 x 1 sip', /weight must be a number/)
    refuses('SRV', '0 5 5060', /missing target/)
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('SRV', '10 5 5060 sip.example.org.')
    const data = { priority: 10, weight: 5, port: 5060, target: 'sip.example.org' }
    assert.equal(hex(packetRdata({ type: 'SRV', name: '_sip._udp.example.org', data })), hex(wire))
    assert.deepEqual(packetDecode('SRV', wire).data, data)
  })
})
