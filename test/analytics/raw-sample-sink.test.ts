import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { QueryBatch } from '../../src/analytics/query-batch.ts'
import { packetIds, PACKET_EPOCH_MS, RawSampleSink, type RawSample } from '../../src/analytics/raw-sample-sink.ts'
import { QueryFlag } from '../../src/dns/server/query-capture.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'

const ZONE = wireKey(parseName('example.org.'))
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0)

/** A seeded uniform generator in [0, 1): the same sample every run. */
function seeded (seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 0x100000000
  }
}

/** A batch of `n` responses at `time(i)`, NOERROR unless `rcode(i)` says otherwise; dnsId = i. */
function batch (n: number, time: (i: number) => number, rcode: (i: number) => number = () => 0): QueryBatch {
  const b = new QueryBatch(n, 'n1')
  for (let i = 0; i < n; i++) {
    b.time[i] = time(i)
    b.zone[i] = ZONE
    b.qname[i] = wireKey(parseName('www.example.org.'))
    b.qtype[i] = 1
    b.rcode[i] = rcode(i)
    b.dnsId[i] = i
    b.address[i] = '192.0.2.1'
    b.port[i] = 5300
    b.flags[i] = QueryFlag.RD
  }
  b.length = n
  return b
}

class Writer {
  rows: RawSample[] = []
  failing = false
  calls = 0
  async add (rows: readonly RawSample[]): Promise<number> {
    this.calls++
    if (this.failing) throw new Error('database down')
    this.rows.push(...rows)
    return rows.length
  }
}

describe('RawSampleSink', () => {
  it('keeps every response of a second under the budget, with every field', async () => {
    const w = new Writer()
    const sink = new RawSampleSink(w, { perSecond: 10, flushMs: 5000 })
    const b = batch(10, i => T0 + i * 50)
    b.ecsAddress[3] = '81.2.69.0'
    b.ecsPrefix[3] = 24
    b.flags[4] = QueryFlag.TCP | QueryFlag.IPV6 | QueryFlag.AA
    b.address[4] = '2001:db8::1'
    sink.write(b)
    await sink.close()
    assert.equal(w.rows.length, 10)
    assert.deepEqual(w.rows.map(r => r.dnsId), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    assert.deepEqual(w.rows[3], {
      day: '2026-11-25',
      packetId: w.rows[3]!.packetId,
      time: '2026-11-25T12:00:00.150Z',
      node: 'n1',
      zone: 'example.org.',
      qname: 'www.example.org.',
      qtype: 1,
      opcode: 0,
      rcode: 0,
      flags: QueryFlag.RD,
      transport: 'udp',
      ipVersion: 4,
      address: '192.0.2.1',
      port: 5300,
      ecsAddress: '81.2.69.0',
      ecsPrefix: 24,
      dnsId: 3,
      qdcount: 0,
      ancount: 0,
      nscount: 0,
      arcount: 0,
      requestSize: 0,
      responseSize: 0,
      responseMicros: 0
    })
    assert.deepEqual([w.rows[4]!.transport, w.rows[4]!.ipVersion, w.rows[4]!.flags, w.rows[4]!.address], ['tcp', 6, QueryFlag.AA, '2001:db8::1'])
    assert.equal(new Set(w.rows.map(r => r.packetId)).size, 10, 'unique packet ids')
    assert.deepEqual(sink.counts(), { seen: 10, written: 10, dropped: 0, duplicate: 0 })
  })

  it('keeps the budget per second above it, and every error response besides', async () => {
    const w = new Writer()
    const sink = new RawSampleSink(w, { perSecond: 5, flushMs: 5000, random: seeded(1) })
    // Two seconds of 40 responses each; every 8th a SERVFAIL, every 8th from the 4th an NXDOMAIN
    // (an answer like NOERROR: in the budget, not an error).
    sink.write(batch(80, i => T0 + Math.floor(i / 40) * 1000 + (i % 40) * 20, i => i % 8 === 0 ? 2 : i % 8 === 4 ? 3 : 0))
    await sink.close()
    const errors = w.rows.filter(r => r.rcode === 2)
    assert.deepEqual(errors.map(r => r.dnsId), [0, 8, 16, 24, 32, 40, 48, 56, 64, 72], 'every error kept')
    const bySecond = new Map<string, number>()
    for (const r of w.rows) if (r.rcode !== 2) bySecond.set(r.time.slice(0, 19), (bySecond.get(r.time.slice(0, 19)) ?? 0) + 1)
    assert.deepEqual([...bySecond.values()], [5, 5], 'five of each second')
    assert.equal(new Set(w.rows.map(r => r.dnsId)).size, w.rows.length, 'no response twice')
  })

  it('samples uniformly above the budget', async () => {
    // 400 seconds of 100 responses, 10 kept per second: each position in the second kept about
    // 400 × 10 / 100 = 40 times. A seeded generator makes the counts the same every run.
    const w = new Writer()
    const sink = new RawSampleSink(w, { perSecond: 10, flushMs: 5000, maxPending: 1_000_000, random: seeded(7) })
    for (let s = 0; s < 400; s++) sink.write(batch(100, i => T0 + s * 1000 + i))
    await sink.close()
    assert.equal(w.rows.length, 4000)
    const byPosition = new Array<number>(100).fill(0)
    for (const r of w.rows) byPosition[r.dnsId]!++
    // Chi-square with 99 degrees of freedom: 99 on average, above 148 one time in a thousand.
    const chi = byPosition.reduce((sum, n) => sum + (n - 40) ** 2 / 40, 0)
    assert.ok(chi < 148, `chi-square ${chi.toFixed(1)}: not uniform`)
    // Early and late responses of a second alike (a reservoir that kept the first ones would fail).
    const early = byPosition.slice(0, 50).reduce((a, b) => a + b, 0)
    assert.ok(Math.abs(early - 2000) < 200, `first half of each second kept ${early} times of 4000`)
  })

  it('writes a second once it is complete, and every second on close', async () => {
    const w = new Writer()
    let now = T0 + 1000
    const sink = new RawSampleSink(w, { perSecond: 100, flushMs: 5000, now: () => now })
    sink.write(batch(3, i => T0 + i))
    sink.write(batch(1, () => T0 + 1000, () => 2))
    await sink.flush()
    assert.deepEqual(w.rows.map(r => r.rcode), [2], 'the error at once; the second is still open')
    now = T0 + 4000
    await sink.flush()
    assert.deepEqual(w.rows.map(r => r.rcode), [2, 0, 0, 0], 'the second written 3 s after it ended')
    sink.write(batch(2, i => T0 + 3900 + i))
    await sink.close()
    assert.equal(w.rows.length, 6)
  })

  it('keeps the samples of a failed write for the next, up to its bound, and counts what it drops', async () => {
    const w = new Writer()
    const errors: unknown[] = []
    const sink = new RawSampleSink(w, { perSecond: 1000, flushMs: 5000, maxPending: 25, onError: err => errors.push(err) })
    w.failing = true
    sink.write(batch(10, i => T0 + i))
    await assert.rejects(sink.flush(true), /database down/)
    sink.write(batch(10, i => T0 + 2000 + i))
    await assert.rejects(sink.flush(true), /database down/)
    assert.equal(sink.waiting().length, 20, 'both kept')
    sink.write(batch(10, i => T0 + 4000 + i))
    await assert.rejects(sink.flush(true), /database down/)
    assert.equal(sink.waiting().length, 25)
    assert.equal(sink.counts().dropped, 5)
    assert.equal(sink.waiting()[0]!.time, '2026-11-25T12:00:00.005Z', 'the oldest dropped first')
    w.failing = false
    await sink.close()
    assert.equal(w.rows.length, 25)
    assert.deepEqual(sink.counts(), { seen: 30, written: 25, dropped: 5, duplicate: 0 })
    assert.equal(errors.length, 3)
  })

  it('counts as duplicate a sample the store already had', async () => {
    const sink = new RawSampleSink({ add: async (rows) => rows.length - 1 }, { perSecond: 10, flushMs: 5000 })
    sink.write(batch(3, i => T0 + i))
    await sink.close()
    assert.deepEqual(sink.counts(), { seen: 3, written: 2, dropped: 0, duplicate: 1 })
  })
})

describe('packetIds', () => {
  it('are unique and growing for a node, carry the time and the node, and stay below 2^53', () => {
    const next = packetIds('ns-ams-1')
    const ids: number[] = []
    for (let i = 0; i < 100; i++) ids.push(next(T0)) // 100 in one millisecond: borrows the next ones
    ids.push(next(T0 + 10))
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!)
    const node = ids[0]! % 256
    assert.ok(ids.every(id => id % 256 === node))
    assert.equal(Math.floor(ids[0]! / 256 / 32), T0 - PACKET_EPOCH_MS)
    assert.equal(Math.floor(ids[100]! / 256 / 32), T0 + 10 - PACKET_EPOCH_MS)
    const other = packetIds('ns-lax-2')(T0)
    assert.notEqual(other % 256, node, 'another node, other low bits')
    assert.ok(Number.isSafeInteger(packetIds('n')(Date.UTC(2060, 0, 1))))
  })
})
