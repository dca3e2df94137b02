/**
 * The response rate limiter with an injected clock and addresses: token buckets per client
 * network and response identity, slip, exemptions, the bounded table.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ResponseRateLimiter, type RateLimitOptions, type RateVerdict } from '../../../src/dns/server/rate-limiter.ts'

function limiter (opts: Partial<RateLimitOptions> = {}): { rrl: ResponseRateLimiter, clock: { t: number } } {
  const clock = { t: 1_000_000 }
  const rrl = new ResponseRateLimiter({ responsesPerSecond: 5, slip: 2, exempt: [], now: () => clock.t, ...opts })
  return { rrl, clock }
}

function burst (rrl: ResponseRateLimiter, address: string, identity: string, n: number): RateVerdict[] {
  return Array.from({ length: n }, () => rrl.check(address, identity))
}

const count = (verdicts: RateVerdict[], v: RateVerdict): number => verdicts.filter(x => x === v).length

describe('ResponseRateLimiter', () => {
  it('sends one second\'s worth, then drops, truncating every slip-th response over the limit', () => {
    const { rrl } = limiter()
    const v = burst(rrl, '192.0.2.1', 'A/1/x', 11)
    assert.deepEqual(v, ['send', 'send', 'send', 'send', 'send', 'drop', 'slip', 'drop', 'slip', 'drop', 'slip'])
  })

  it('refills at the configured rate as time passes', () => {
    const { rrl, clock } = limiter()
    burst(rrl, '192.0.2.1', 'A/1/x', 5)
    assert.equal(rrl.check('192.0.2.1', 'A/1/x') !== 'send', true)
    clock.t += 400 // 5 per second: two tokens
    assert.deepEqual(burst(rrl, '192.0.2.1', 'A/1/x', 3).map(v => v === 'send'), [true, true, false])
    clock.t += 60_000 // the bucket holds one second's worth at most
    assert.equal(count(burst(rrl, '192.0.2.1', 'A/1/x', 10), 'send'), 5)
  })

  it('with slip 0 drops everything over the limit, with slip 1 truncates everything', () => {
    const none = limiter({ slip: 0 }).rrl
    assert.equal(count(burst(none, '192.0.2.1', 'A/1/x', 20), 'slip'), 0)
    const all = limiter({ slip: 1 }).rrl
    assert.deepEqual(burst(all, '192.0.2.1', 'A/1/x', 8).slice(5), ['slip', 'slip', 'slip'])
  })

  it('keeps one bucket per IPv4 /24 and per IPv6 /56', () => {
    const { rrl } = limiter()
    burst(rrl, '192.0.2.1', 'A/1/x', 5)
    assert.notEqual(rrl.check('192.0.2.200', 'A/1/x'), 'send', 'same /24 shares the bucket')
    assert.equal(rrl.check('192.0.3.1', 'A/1/x'), 'send', 'the next /24 has its own')
    assert.equal(rrl.check('::ffff:198.51.100.9', 'A/1/x'), 'send')
    burst(rrl, '2001:db8:0:100::1', 'A/1/x', 5)
    assert.notEqual(rrl.check('2001:db8:0:1ff:ffff::2', 'A/1/x'), 'send', 'same /56 shares the bucket')
    assert.equal(rrl.check('2001:db8:0:200::1', 'A/1/x'), 'send', 'the next /56 has its own')
  })

  it('keeps one bucket per response identity', () => {
    const { rrl } = limiter()
    burst(rrl, '192.0.2.1', 'A/1/x', 5)
    assert.notEqual(rrl.check('192.0.2.1', 'A/1/x'), 'send')
    assert.equal(rrl.check('192.0.2.1', 'A/28/x'), 'send')
    assert.equal(rrl.check('192.0.2.1', 'N/x'), 'send')
  })

  it('never limits exempt addresses or ranges', () => {
    const { rrl } = limiter({ exempt: ['203.0.113.0/24', '2001:db8::/32', '127.0.0.1'] })
    for (const address of ['203.0.113.7', '2001:db8:ffff::1', '127.0.0.1']) {
      assert.equal(count(burst(rrl, address, 'A/1/x', 50), 'send'), 50, address)
    }
    assert.equal(rrl.size, 0, 'exempt clients take no room')
    assert.equal(count(burst(rrl, '127.0.0.2', 'A/1/x', 50), 'send'), 5)
  })

  it('refuses exemptions that are not addresses or ranges', () => {
    assert.throws(() => limiter({ exempt: ['10.0.0.0/40'] }), /not an address or range/)
    assert.throws(() => limiter({ responsesPerSecond: 0 }), /positive/)
  })

  it('holds at most maxEntries buckets, dropping the oldest to make room', () => {
    const { rrl, clock } = limiter({ maxEntries: 3 })
    burst(rrl, '192.0.2.1', 'A/1/x', 5)
    for (let i = 0; i < 10; i++) {
      rrl.check(`198.51.${i}.1`, 'A/1/x')
      assert.ok(rrl.size <= 3)
      clock.t += 1
    }
    assert.equal(rrl.check('192.0.2.1', 'A/1/x'), 'send', 'the spent bucket was evicted')
  })

  it('forgets buckets idle long enough to be full again', () => {
    const { rrl, clock } = limiter()
    for (let i = 0; i < 100; i++) rrl.check(`10.0.${i}.1`, 'A/1/x')
    assert.equal(rrl.size, 100)
    clock.t += 1000
    for (let i = 0; i < 60; i++) rrl.check('192.0.2.1', 'E/5')
    assert.equal(rrl.size, 1)
  })
})
