import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('MX (RFC 1035 §3.3.9)', () => {
  it('round-trips a preference and an exchange', () => {
    roundTrip('MX', '10 mail.example.org.', '000a046d61696c076578616d706c65036f726700')
    roundTrip('MX', '65535 Mail', 'ffff044d61696c076578616d706c65036f726700', '65535 Mail.example.org.')
  })

  it('round-trips the null MX (RFC 7505)', () => {
    roundTrip('MX', '0 .', '000000')
  })

  it('refuses a bad preference or exchange', () => {
    refuses('MX', '65536 mail', /preference must be a number from 0 to 65535, got 65536/)
    refuses('MX', '-1 mail', /preference must be a number/)
    refuses('MX', '"10" mail', /preference must be a number/)
    refuses('MX', '10', /missing exchange/)
    refuses('MX', '10 a..b', /exchange: empty label/)
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('MX', '10 mail.example.org.')
    assert.equal(hex(packetRdata({ type: 'MX', name: 'example.org', data: { preference: 10, exchange: 'mail.example.org' } })), hex(wire))
    assert.deepEqual(packetDecode('MX', wire).data, { preference: 10, exchange: 'mail.example.org' })
  })
})
