import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('NAPTR (RFC 3403 §4.1)', () => {
  it('round-trips order, preference, three strings and a replacement', () => {
    roundTrip('NAPTR', '100 10 "S" "SIP+D2U" "!^.*$!sip:info@example.org!" _sip._udp.example.org.',
      '0064' + '000a' + '0153' + '075349502b443255' + '1b215e2e2a24217369703a696e666f406578616d706c652e6f726721' +
      '045f736970045f756470076578616d706c65036f726700')
    roundTrip('NAPTR', '0 0 "" "" "" .', '0000000000000000')
  })

  it('quotes strings written bare and escapes quotes and backslashes', () => {
    roundTrip('NAPTR', '1 2 u E2U+sip "!^\\\\+(.*)$!\\"x\\"!" .', '00010002' + '0175' + '074532552b736970' + '0e215e5c2b282e2a2924212278222100',
      '1 2 "u" "E2U+sip" "!^\\\\+(.*)$!\\"x\\"!" .')
  })

  it('refuses strings over 255 octets and missing fields', () => {
    refuses('NAPTR', `1 2 "${'a'.repeat(256)}" "" "" .`, /flags longer than 255 octets/)
    refuses('NAPTR', '1 2 "S" "SIP" "re"', /missing replacement/)
  })

  it('matches dns-packet both ways', () => {
    const data = { order: 100, preference: 10, flags: 'S', services: 'SIP+D2U', regexp: '', replacement: '_sip._udp.example.org' }
    const wire = parse('NAPTR', '100 10 "S" "SIP+D2U" "" _sip._udp.example.org.')
    assert.equal(hex(packetRdata({ type: 'NAPTR', name: 'example.org', data })), hex(wire))
    assert.deepEqual(packetDecode('NAPTR', wire).data, data)
  })
})
