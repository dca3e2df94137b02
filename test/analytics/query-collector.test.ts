import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { QueryBatch } from '../../src/analytics/query-batch.ts'
import { QueryCollector } from '../../src/analytics/query-collector.ts'
import type { Client } from '../../src/dns/server/handle-query.ts'
import { QueryFlag } from '../../src/dns/server/query-capture.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'

const CLIENT: Client = { transport: 'udp', address: '192.0.2.7', port: 40001, family: 'IPv4' }
const ZONE = wireKey(parseName('example.org.'))
const QNAME = wireKey(parseName('www.example.org.'))

function capture (collector: QueryCollector, n: number, client: Client = CLIENT): void {
  for (let i = 0; i < n; i++) collector.query(client, ZONE, QNAME, 1, 0, 0, 40, 56 + (i % 8), QueryFlag.RD)
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
    collector.query({ transport: 'tcp', address: '2001:db8::9', port: 5353, family: 'IPv6' }, undefined, undefined, 0, 4, 16, 12, 65535, QueryFlag.EDNS | QueryFlag.TC)
    await collector.close()
    assert.equal(seen.length, 1)
    const { time, ...rest } = seen[0]!
    assert.ok(time > 0)
    assert.deepEqual(rest, { node: 'edge-7', zone: undefined, qname: undefined, qtype: 0, opcode: 4, rcode: 16, transport: 'tcp', family: 'IPv6', address: '2001:db8::9', port: 5353, requestSize: 12, responseSize: 65535, flags: QueryFlag.EDNS | QueryFlag.TC })
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
