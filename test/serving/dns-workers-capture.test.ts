/**
 * The query capture through DNS worker threads: each worker counts and samples what it answers
 * and hands that over; the main thread's sinks absorb it. A raw sample written by the main
 * thread carries every field as the request and response had them (DNS id, RD, CD, the
 * response's counts, RA, AD, the Client Subnet option, a response time), over UDP and TCP, on
 * the full path and the fast path, and the counts add up.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ClientCountSink } from '../../src/analytics/client-count-sink.ts'
import { CounterSink } from '../../src/analytics/counter-sink.ts'
import { HostCountSink, type HostCountRow } from '../../src/analytics/host-count-sink.ts'
import { QueryCollector } from '../../src/analytics/query-collector.ts'
import { QueryCountSink } from '../../src/analytics/query-count-sink.ts'
import { RawSampleSink, type RawSample } from '../../src/analytics/raw-sample-sink.ts'
import { absorbPart } from '../../src/analytics/thread-analytics.ts'
import type { CaptureTarget } from '../../src/serving/dns-worker-protocol.ts'
import { QueryFlag } from '../../src/dns/server/query-capture.ts'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { exampleIndex, tcpExchange, udpExchange } from '../helpers/dns-clients.ts'
import { serveInWorkers, type WorkerServer } from '../helpers/dns-workers.ts'

function request (id: number, name: string, opts: { rd?: boolean, cd?: boolean, ecs?: Uint8Array }): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id, qr: false, opcode: 0, aa: false, tc: false, rd: opts.rd ?? false, ra: false, ad: false, cd: opts.cd ?? false, rcode: 0 })
  w.question({ name: parseName(name), type: 1, class: 1 })
  w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: false, options: opts.ecs === undefined ? [] : [{ code: 8, data: opts.ecs }] })
  return w.finish()
}

describe('query capture through DNS worker threads', () => {
  const seen: RawSample[] = []
  const hostRows: HostCountRow[] = []
  const counts = new CounterSink()
  const sinks = {
    counts,
    queryVolume: new QueryCountSink({ add: async () => {} }, { flushMs: 60_000 }),
    hostVolume: new HostCountSink({ add: async (rows) => { hostRows.push(...rows) } }, { flushMs: 60_000, maxHostsPerZone: 100, maxHosts: 100 }),
    clientCounts: new ClientCountSink({ add: async () => {} }, { flushMs: 60_000, maxClients: 100, locator: async () => undefined }),
    rawSamples: new RawSampleSink({ add: async (rows) => { seen.push(...rows); return rows.length } }, { flushMs: 60_000, perSecond: 1000 }),
    collector: new QueryCollector(counts, { node: 'test' })
  }
  const capture: CaptureTarget = {
    query: sinks.collector.query.bind(sinks.collector),
    absorb: (part) => absorbPart(sinks, part),
    limits: { rawPerSecond: 1000, maxHostsPerZone: 100, maxHosts: 100, maxClients: 100 }
  }
  let server: WorkerServer
  before(async () => {
    server = await serveInWorkers(exampleIndex(), 2, true, undefined, capture)
  })
  after(async () => {
    await server?.close()
    await sinks.collector.close()
    assert.deepEqual(server?.problems ?? [], [])
  })

  for (const transport of ['udp', 'tcp'] as const) {
    it(`carries every captured field over ${transport}`, async () => {
      const exchange = transport === 'udp' ? udpExchange : tcpExchange
      const base = transport === 'udp' ? 0x4000 : 0x8000
      const sent = [
        { bytes: request(base + 1, 'www.example.org.', { rd: true, ecs: Uint8Array.of(0, 1, 24, 0, 81, 2, 69) }), ecs: ['81.2.69.0', 24] },
        // Asked again: answered from the cached reply by whichever worker gets it.
        { bytes: request(base + 2, 'www.example.org.', { cd: true, ecs: Uint8Array.of(0, 2, 32, 0, 0x20, 0x01, 0x0d, 0xb8) }), ecs: ['2001:db8::', 32] },
        { bytes: request(base + 3, 'nothing.example.org.', {}), ecs: ['', 0] }
      ]
      const replies: { reply: Buffer, localPort: number, micros: number }[] = []
      const counted = counts.total
      for (const s of sent) {
        const t0 = performance.now()
        const r = await exchange('127.0.0.1', server.port, s.bytes)
        replies.push({ ...r, micros: (performance.now() - t0) * 1000 })
      }
      await server.workers.flushCapture()
      // Everything handed over by then: counted, and every second's sample written.
      assert.equal(counts.total - counted, sent.length)
      await sinks.rawSamples.flush(true)
      await sinks.hostVolume.flush()
      assert.ok(hostRows.some(h => h.host === 'www.example.org.'), 'host counts handed over')
      // Packet ids are given on the main thread: distinct over both workers.
      assert.equal(new Set(seen.map(r => r.packetId)).size, seen.length)
      sent.forEach((s, i) => {
        const id = (s.bytes[0]! << 8) | s.bytes[1]!
        const records = seen.filter(r => r.dnsId === id)
        assert.equal(records.length, 1)
        const r = records[0]!
        const { reply, localPort, micros } = replies[i]!
        const m = decodeMessage(reply)
        assert.equal(r.transport, transport)
        assert.equal(r.port, localPort)
        assert.equal(r.address, '127.0.0.1')
        assert.equal(r.requestSize, s.bytes.length)
        assert.equal(r.responseSize, reply.length)
        assert.equal(r.rcode, m.rcode)
        assert.deepEqual([r.qdcount, r.ancount, r.nscount, r.arcount], [reply.readUInt16BE(4), reply.readUInt16BE(6), reply.readUInt16BE(8), reply.readUInt16BE(10)])
        assert.equal(r.flags, QueryFlag.EDNS | QueryFlag.AA | (i === 0 ? QueryFlag.RD : 0) | (i === 1 ? QueryFlag.CD : 0))
        assert.deepEqual([r.ecsAddress, r.ecsPrefix], s.ecs)
        assert.ok(r.responseMicros > 0 && r.responseMicros <= micros, `response time ${r.responseMicros} µs within the round trip of ${micros} µs`)
      })
    })
  }
})
