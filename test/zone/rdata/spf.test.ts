import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

// dns-packet 5.6.1 has no SPF codec; the layout is TXT's, which txt.test.ts cross-checks.
describe('SPF (RFC 4408 §3.1.1)', () => {
  it('round-trips the TXT layout under type 99', () => {
    roundTrip('SPF', '"v=spf1 -all"', '0b763d73706631202d616c6c')
    roundTrip('SPF', 'v=spf1 ~all', '06763d73706631047e616c6c', '"v=spf1" "~all"')
  })

  it('splits long strings at 255 octets', () => {
    const wire = parse('SPF', `"${'y'.repeat(300)}"`)
    assert.deepEqual([wire.length, wire[0], wire[256]], [302, 255, 45])
    assert.equal(format('SPF', wire), `"${'y'.repeat(255)}" "${'y'.repeat(45)}"`)
  })

  it('refuses empty rdata', () => {
    refuses('SPF', '', /missing text/)
  })
})
