import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { QueryBatch } from '../../src/analytics/query-batch.ts'
import { QueryCollector } from '../../src/analytics/query-collector.ts'
import type { Client } from '../../src/dns/server/handle-query.ts'
import { QueryFlag, type EcsOption } from '../../src/dns/server/query-capture.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'

const CLIENT: Client = { transport: 'udp', address: '192.0.2.7', port: 40001, family: 'IPv4' }
const ZONE = wireKey(parseName('example.org.'))
const QNAME = wireKey(parseName('www.example.org.'))

const REQUEST = new Uint8Array(40)
const RESPONSE = new Uint8Array(64)

function capture (collector: QueryCollector, n: number, client: Client = CLIENT): void {
  for (let i = 0; i < n; i++) collector.query(client, ZONE, QNAME, 1, 0, 0, REQUEST, RESPONSE, 56 + (i % 8), QueryFlag.RD, performance.now(), undefined)
}

/** A header: id, flag octets, the four counts. */
function header (id: number, h2: number, h3: number, counts: [number, number, number, number], size: number): Uint8Array {
  const b = new Uint8Array(size)
  b[0] = id >> 8
  b[1] = id & 0xff
  b[2] = h2
  b[3] = h3
  for (let k = 0; k < 4; k++) {
    b[4 + 2 * k] = counts[k]! >> 8
    b[5 + 2 * k] = counts[k]! & 0xff
  }
  return b
}

/** A Client Subnet option's data (FAMILY, SOURCE PREFIX-LENGTH, SCOPE PREFIX-LENGTH, ADDRESS) at `at` of a larger array. */
function ecsAt (family: number, prefix: number, address: number[], at = 5): EcsOption {
  const data = [family >> 8, family & 0xff, prefix, 0, ...address]
  const bytes = new Uint8Array(at + data.length + 3)
  bytes.set(data, at)
  return { bytes, at, length: data.length }
}

describe('QueryCollector', () => {
  it('hands full batches to the sink after the answer path, and the rest on flush', async () => {
    const sizes: number[] = []
    const collector = new QueryCollector({ write: (b: QueryBatch) => { sizes.push(b.length) } }, { node: 'n1', batchSize: 10, batches: 4 })
    capture(collector, 25)
    assert.deepEqual(sizes, [], 'nothing is written while the answer path runs')
    await collector.flush()
    assert.deepEqual(sizes, [10, 10, 5])
    assert.deepEqual(collector.counts(), { captured: 25, dropped: 0, written: 25, failed: 0 })
    await collector.close()
  })

  it('hands a partly filled batch over on its own every flushMs', async () => {
    let written = 0
    let done: () => void
    const wrote = new Promise<void>(resolve => { done = resolve })
    const collector = new QueryCollector({ write: (b: QueryBatch) => { written += b.length; done() } }, { node: 'n1', batchSize: 100, flushMs: 10 })
    capture(collector, 3)
    // The collector's timer does not keep the process alive; this test must.
    const alive = setTimeout(() => {}, 60_000)
    await wrote
    clearTimeout(alive)
    assert.equal(written, 3)
    await collector.close()
  })

  it('keeps every field of a query, with transport and family', async () => {
    const seen: ReturnType<QueryBatch['record']>[] = []
    const collector = new QueryCollector({ write: (b: QueryBatch) => { seen.push(...b.records()) } }, { node: 'edge-7', batchSize: 8 })
    const request = header(0xbeef, 0x21, 0x10, [1, 0, 0, 1], 12)
    const response = header(0xbeef, 0x87, 0xa0, [1, 513, 2, 3], 40)
    const before = Date.now()
    const received = performance.now() - 2.5
    collector.query({ transport: 'tcp', address: '2001:db8::9', port: 5353, family: 'IPv6' }, undefined, undefined, 0, 4, 16, request, response, 65535,
      QueryFlag.EDNS | QueryFlag.TC | QueryFlag.RA | QueryFlag.AD, received, ecsAt(2, 56, [0x20, 0x01, 0x0d, 0xb8, 0, 0x12, 0x34]))
    const after = Date.now()
    await collector.close()
    assert.equal(seen.length, 1)
    const { time, responseMicros, ...rest } = seen[0]!
    assert.ok(time >= before - 5 && time <= after + 5, `time ${time} within [${before}, ${after}]`)
    assert.ok(responseMicros >= 2500 && responseMicros < 2500 + (after - before + 5) * 1000, `responseMicros ${responseMicros}`)
    assert.deepEqual(rest, {
      node: 'edge-7',
      zone: undefined,
      qname: undefined,
      qtype: 0,
      opcode: 4,
      rcode: 16,
      transport: 'tcp',
      family: 'IPv6',
      address: '2001:db8::9',
      port: 5353,
      requestSize: 12,
      responseSize: 65535,
      flags: QueryFlag.EDNS | QueryFlag.TC | QueryFlag.RA | QueryFlag.AD,
      dnsId: 0xbeef,
      qdcount: 1,
      ancount: 513,
      nscount: 2,
      arcount: 3,
      ecsAddress: '2001:db8:12:3400::',
      ecsPrefix: 56
    })
  })

  it('keeps a valid Client Subnet option and leaves out an invalid one', async () => {
    const seen: ReturnType<QueryBatch['record']>[] = []
    const collector = new QueryCollector({ write: (b: QueryBatch) => { seen.push(...b.records()) } }, { node: 'n1', batchSize: 4 })
    const cases: [EcsOption | undefined, string, number][] = [
      [ecsAt(1, 24, [81, 2, 69]), '81.2.69.0', 24],
      [ecsAt(1, 32, [192, 0, 2, 1]), '192.0.2.1', 32],
      [ecsAt(1, 0, []), '0.0.0.0', 0],
      [ecsAt(2, 48, [0x20, 0x01, 0x0d, 0xb8, 0, 0]), '2001:db8::', 48],
      [ecsAt(1, 20, [81, 2, 64]), '81.2.64.0', 20],
      [undefined, '', 0],
      [ecsAt(1, 20, [81, 2, 79]), '', 0], // a bit set beyond the prefix
      [ecsAt(1, 24, [81, 2, 69, 0]), '', 0], // an octet too many
      [ecsAt(1, 24, [81, 2]), '', 0], // an octet too few
      [ecsAt(1, 33, [1, 2, 3, 4, 0]), '', 0], // longer than an IPv4 address
      [ecsAt(3, 8, [10]), '', 0], // no such family
      [{ bytes: Uint8Array.of(0, 1, 24), at: 0, length: 3 }, '', 0] // too short
    ]
    for (const [ecs] of cases) collector.query(CLIENT, ZONE, QNAME, 1, 0, 0, REQUEST, RESPONSE, 64, 0, performance.now(), ecs)
    await collector.close()
    assert.deepEqual(seen.map(r => [r.ecsAddress, r.ecsPrefix]), cases.map(([, address, prefix]) => [address, prefix]))
  })

  it('with a slow sink, queues at most its batches and counts the queries it drops, then recovers', async () => {
    const batches = new Set<QueryBatch>()
    let release: () => void = () => {}
    let stalled = true
    const collector = new QueryCollector({
      write: async (b: QueryBatch) => {
        batches.add(b)
        if (stalled) await new Promise<void>(resolve => { release = resolve })
      }
    }, { node: 'n1', batchSize: 100, batches: 4 })
    // Far more than the collector holds, over several turns of the event loop.
    for (let turn = 0; turn < 20; turn++) {
      capture(collector, 5_000)
      await new Promise(resolve => setImmediate(resolve))
    }
    const stats = collector.counts()
    assert.equal(stats.captured, 400, 'four batches of 100, no more')
    assert.equal(stats.dropped, 100_000 - 400)
    assert.equal(stats.written, 0)
    assert.equal(batches.size, 1, 'one batch at a time goes to the sink')
    stalled = false
    release()
    await collector.flush()
    assert.deepEqual(collector.counts(), { captured: 400, dropped: 99_600, written: 400, failed: 0 })
    assert.ok(batches.size <= 4, 'the batches are reused, not reallocated')
    capture(collector, 150)
    await collector.close()
    assert.equal(collector.counts().written, 550)
    assert.ok(batches.size <= 4)
  })

  it('counts the queries of a batch the sink fails on and keeps going', async () => {
    const errors: unknown[] = []
    let calls = 0
    const collector = new QueryCollector({
      write: (_b: QueryBatch) => {
        if (++calls === 1) throw new Error('sink down')
      }
    }, { node: 'n1', batchSize: 10, onError: err => errors.push(err) })
    capture(collector, 15)
    await collector.close()
    assert.deepEqual(collector.counts(), { captured: 15, dropped: 0, written: 5, failed: 10 })
    assert.equal(errors.length, 1)
  })

  it('counts a rejected write as failed', async () => {
    const collector = new QueryCollector({ write: async () => { throw new Error('no') } }, { node: 'n1', batchSize: 10 })
    capture(collector, 3)
    await collector.close()
    assert.deepEqual(collector.counts(), { captured: 3, dropped: 0, written: 0, failed: 3 })
  })
})
