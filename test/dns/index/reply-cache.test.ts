/**
 * The reply cache's bounds and eviction (S3-FIFO): a flood of questions asked once does not
 * evict the replies asked again, the octet budget holds, stale entries go when reached, and forgetting
 * one zone leaves the others.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { REPLY_OVERHEAD, ReplyCache } from '../../../src/dns/index/reply-cache.ts'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { parseName } from '../../../src/zone/name.ts'

/** A request whose question name is `\x01a\0` (octets 12 to 15). */
const REQUEST = new Uint8Array([0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0x61, 0, 0, 1, 0, 1])
const NAME_END = 15

function reply (size: number): Uint8Array {
  return new Uint8Array(size)
}

describe('ReplyCache', () => {
  it('keeps the replies asked again through a flood of 20,000 questions asked once', () => {
    const zone = new ZoneData(parseName('example.org.'), 1, 1)
    const cache = new ReplyCache(1000)
    for (let i = 0; i < 500; i++) cache.put(`hot${i}`, zone, '', reply(10), REQUEST, NAME_END, false, [])
    for (let i = 0; i < 500; i++) assert.ok(cache.get(`hot${i}`, REQUEST, NAME_END, false) !== undefined)
    for (let i = 0; i < 20_000; i++) cache.put(`flood${i}`, zone, '', reply(10), REQUEST, NAME_END, false, [])
    assert.equal(cache.size, 1000)
    let kept = 0
    for (let i = 0; i < 500; i++) if (cache.get(`hot${i}`, REQUEST, NAME_END, false) !== undefined) kept++
    assert.equal(kept, 500, 'every reply asked twice survived')
    assert.equal(cache.evictions, 20_000 + 500 - 1000)
  })

  it('stays within its octet budget', () => {
    const zone = new ZoneData(parseName('example.org.'), 1, 1)
    const cache = new ReplyCache(1000, 12 * (400 + REPLY_OVERHEAD))
    for (let i = 0; i < 100; i++) cache.put(`q${i}`, zone, '', reply(400), REQUEST, NAME_END, false, [])
    assert.ok(cache.bytes <= 12 * (400 + REPLY_OVERHEAD))
    assert.equal(cache.size, 12)
  })

  it('drops a stale entry when eviction reaches it, hit or not,, and forgets one zone only', () => {
    const a = new ZoneData(parseName('example.org.'), 1, 1)
    const b = new ZoneData(parseName('example.net.'), 1, 1)
    const cache = new ReplyCache(10)
    for (let i = 0; i < 5; i++) cache.put(`b${i}`, b, '', reply(10), REQUEST, NAME_END, false, [])
    for (let i = 0; i < 5; i++) cache.put(`a${i}`, a, '', reply(10), REQUEST, NAME_END, false, [])
    for (let i = 0; i < 5; i++) cache.get(`a${i}`, REQUEST, NAME_END, false)
    for (let i = 0; i < 5; i++) cache.get(`b${i}`, REQUEST, NAME_END, false)
    a.epoch++
    assert.equal(cache.get('a0', REQUEST, NAME_END, false), undefined, 'a changed zone\'s reply is stale')
    for (let i = 0; i < 5; i++) cache.put(`n${i}`, b, '', reply(10), REQUEST, NAME_END, false, [])
    assert.equal(cache.entriesOf(b), 10, 'the stale entries made room, though they had been hit')
    cache.forget(b)
    assert.equal(cache.entriesOf(b), 0)
    assert.equal(cache.get('b0', REQUEST, NAME_END, false), undefined)
  })

  it('takes a forgotten zone\'s entries and octets out at once, and goes on evicting the others in order', () => {
    const a = new ZoneData(parseName('example.org.'), 1, 1)
    const b = new ZoneData(parseName('example.net.'), 1, 1)
    const cache = new ReplyCache(6)
    for (let i = 0; i < 3; i++) {
      cache.put(`a${i}`, a, '', reply(10), REQUEST, NAME_END, false, [])
      cache.put(`b${i}`, b, '', reply(10), REQUEST, NAME_END, false, [])
    }
    cache.get('a0', REQUEST, NAME_END, false)
    cache.put('a3', a, '', reply(10), REQUEST, NAME_END, false, [])
    assert.equal(cache.size, 6)
    cache.forget(b)
    assert.equal(cache.size, [...cache.keys()].filter(k => k.startsWith('a')).length)
    assert.deepEqual([...cache.keys()].filter(k => k.startsWith('b')), [])
    assert.equal(cache.bytes, cache.size * (10 + REPLY_OVERHEAD))
    for (let i = 4; i < 12; i++) cache.put(`a${i}`, a, '', reply(10), REQUEST, NAME_END, false, [])
    assert.equal(cache.size, 6)
    assert.equal(cache.bytes, 6 * (10 + REPLY_OVERHEAD))
    assert.ok(cache.entry('a0') !== undefined, 'the entry asked again stayed')
  })

  it('keeps a few replies per question for spellings that compress differently', () => {
    const zone = new ZoneData(parseName('example.org.'), 1, 1)
    const cache = new ReplyCache()
    const upper = Uint8Array.from(REQUEST)
    upper[13] = 0x41
    cache.put('q', zone, '', reply(10), REQUEST, NAME_END, false, [{ at: 0, octets: '\x01a\x00', equal: true }])
    assert.equal(cache.get('q', upper, NAME_END, true), undefined, 'the check fails for `A`')
    cache.put('q', zone, '', reply(11), upper, NAME_END, true, [{ at: 0, octets: '\x01a\x00', equal: false }])
    assert.equal(cache.get('q', upper, NAME_END, true)?.bytes.length, 11)
    assert.equal(cache.get('q', REQUEST, NAME_END, false)?.bytes.length, 10)
    assert.equal(cache.size, 1)
    assert.equal(cache.bytes, 21 + 2 * REPLY_OVERHEAD)
  })
})
