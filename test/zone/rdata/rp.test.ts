import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('RP (RFC 1183 §2.2)', () => {
  it('round-trips a mailbox and a TXT owner', () => {
    roundTrip('RP', 'mbox.example.org. txt.example.org.', '046d626f78076578616d706c65036f726700' + '03747874076578616d706c65036f726700')
    roundTrip('RP', 'john\\.doe.example.org. .', '086a6f686e2e646f65076578616d706c65036f72670000')
    roundTrip('RP', '. .', '0000')
  })

  it('refuses a missing TXT owner', () => {
    refuses('RP', 'mbox', /missing txt/)
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('RP', 'mbox.example.org. txt.example.org.')
    assert.equal(hex(packetRdata({ type: 'RP', name: 'example.org', data: { mbox: 'mbox.example.org', txt: 'txt.example.org' } })), hex(wire))
    assert.deepEqual(packetDecode('RP', wire).data, { mbox: 'mbox.example.org', txt: 'txt.example.org' })
  })
})
