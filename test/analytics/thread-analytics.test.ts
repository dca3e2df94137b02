/**
 * The analytics of DNS worker threads: what a thread's sinks counted, handed over through a
 * real message channel (structured clone) and absorbed by the main thread's sinks, writes what
 * one sink would have written for all the queries; the main thread's limits hold; two threads'
 * raw samples of one second merge into one uniform sample.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { MessageChannel } from 'node:worker_threads'
import { ClientCountSink, type ClientCountRow } from '../../src/analytics/client-count-sink.ts'
import { CounterSink } from '../../src/analytics/counter-sink.ts'
import { HostCountSink, OVERFLOW_HOST, type HostCountRow } from '../../src/analytics/host-count-sink.ts'
import { QueryBatch } from '../../src/analytics/query-batch.ts'
import { QueryCollector } from '../../src/analytics/query-collector.ts'
import { QueryCountSink, type QueryCountRow } from '../../src/analytics/query-count-sink.ts'
import { RawSampleSink, type RawPart, type RawSample } from '../../src/analytics/raw-sample-sink.ts'
import { absorbPart, ThreadAnalytics, type AnalyticsPart } from '../../src/analytics/thread-analytics.ts'
import type { Client } from '../../src/dns/server/handle-query.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'
import { prng } from '../helpers/generated.ts'

const ZONE = wireKey(parseName('example.org.'))
const key = (name: string): string => wireKey(parseName(name))
const REQUEST = new Uint8Array(40)
const RESPONSE = new Uint8Array(64)

/** A part as the main thread receives it: through a message port (structured clone). */
async function throughPort (part: AnalyticsPart): Promise<AnalyticsPart> {
  const channel = new MessageChannel()
  const got = new Promise<AnalyticsPart>(resolve => channel.port2.once('message', resolve))
  channel.port1.postMessage(part)
  const received = await got
  channel.port1.close()
  return received
}

/** The main thread's sinks, writing into arrays. */
function mainSinks (limits: { maxHostsPerZone: number, maxHosts: number, maxClients: number, perSecond: number }): {
  sinks: Parameters<typeof absorbPart>[0], volume: QueryCountRow[], hosts: HostCountRow[], clients: ClientCountRow[], raw: RawSample[]
} {
  const volume: QueryCountRow[] = []
  const hosts: HostCountRow[] = []
  const clients: ClientCountRow[] = []
  const raw: RawSample[] = []
  const counts = new CounterSink()
  return {
    sinks: {
      counts,
      queryVolume: new QueryCountSink({ add: async (f) => { volume.push(...f.volume) } }, { flushMs: 60_000 }),
      hostVolume: new HostCountSink({ add: async (rows) => { hosts.push(...rows) } }, { flushMs: 60_000, maxHostsPerZone: limits.maxHostsPerZone, maxHosts: limits.maxHosts }),
      clientCounts: new ClientCountSink({ add: async (rows) => { clients.push(...rows) } }, { flushMs: 60_000, maxClients: limits.maxClients, locator: async () => undefined }),
      rawSamples: new RawSampleSink({ add: async (rows) => { raw.push(...rows); return rows.length } }, { flushMs: 60_000, perSecond: limits.perSecond }),
      collector: new QueryCollector(counts, { node: 'n1' })
    },
    volume,
    hosts,
    clients,
    raw
  }
}

describe('ThreadAnalytics and absorbPart', () => {
  it('write, from two threads\' hand-overs, the counts, hosts, clients and samples of all their queries', async () => {
    const limits = { maxHostsPerZone: 100, maxHosts: 100, maxClients: 100 }
    const threads = [new ThreadAnalytics({ node: 'n1', rawPerSecond: 1000, ...limits }), new ThreadAnalytics({ node: 'n1', rawPerSecond: 1000, ...limits })]
    const main = mainSinks({ ...limits, perSecond: 1000 })
    const asked: Array<[number, string, number, string]> = [] // thread, name, rcode, client address
    for (let i = 0; i < 40; i++) {
      const t = i % 2
      const name = i % 5 === 0 ? 'missing.example.org.' : `h${i % 3}.example.org.`
      const rcode = i % 5 === 0 ? 3 : i === 7 ? 2 : 0
      const address = `192.0.2.${1 + (i % 4)}`
      const client: Client = { transport: i % 8 === 0 ? 'tcp' : 'udp', address, port: 40000 + i, family: 'IPv4' }
      threads[t]!.collector.query(client, ZONE, key(name), 1, 0, rcode, REQUEST, RESPONSE, 64, 0, performance.now(), undefined)
      asked.push([t, name, rcode, address])
      // Hand over in the middle too: parts add up.
      if (i === 19) for (const th of threads) { await th.collector.flush(); absorbPart(main.sinks, await throughPort(th.handOver(false))) }
    }
    for (const th of threads) {
      await th.collector.flush()
      absorbPart(main.sinks, await throughPort(th.handOver(true)))
    }
    const s = main.sinks
    assert.equal(s.counts.total, 40)
    assert.equal(s.counts.byTransport.tcp, 5)
    assert.deepEqual(s.counts.byRcode(), new Map([[0, 31], [2, 1], [3, 8]]))
    await s.queryVolume.flush()
    await s.hostVolume.flush()
    await s.clientCounts.flush()
    await s.rawSamples!.flush(true)
    assert.deepEqual(main.volume.map(r => [r.zone, r.node, r.counts.rsp_total, r.counts.tcp, r.counts.udp]), [['example.org.', 'n1', 40, 5, 35]])
    const hostTotals = (name: string): number => asked.filter(a => a[1] === name).length
    assert.deepEqual(main.hosts.map(r => [r.host, r.counts.rsp_total]).sort(), ['h0.example.org.', 'h1.example.org.', 'h2.example.org.', 'missing.example.org.'].map(h => [h, hostTotals(h)]).sort())
    assert.deepEqual(main.clients.map(r => [r.clientIp, r.responses]).sort(), [1, 2, 3, 4].map(n => [`192.0.2.${n}`, 10]))
    // All 40 kept (below the budget): 39 from the reservoirs, the SERVFAIL as an error; ids distinct and growing.
    assert.equal(main.raw.length, 40)
    assert.equal(main.raw.filter(r => r.rcode === 2).length, 1)
    const ids = main.raw.map(r => r.packetId)
    assert.ok(ids.every(id => id > 0))
    assert.equal(new Set(ids).size, 40)
  })

  it('keeps the main thread\'s limits: hosts past them to the overflow host, clients past them to the overflow row', async () => {
    const thread = new ThreadAnalytics({ node: 'n1', rawPerSecond: 0, maxHostsPerZone: 10, maxHosts: 10, maxClients: 10 })
    const main = mainSinks({ maxHostsPerZone: 3, maxHosts: 3, maxClients: 2, perSecond: 1 })
    for (let i = 0; i < 6; i++) {
      thread.collector.query({ transport: 'udp', address: `198.51.100.${i}`, port: 5300, family: 'IPv4' }, ZONE, key(`n${i}.example.org.`), 1, 0, 0, REQUEST, RESPONSE, 64, 0, performance.now(), undefined)
    }
    await thread.collector.flush()
    const part = await throughPort(thread.handOver(true))
    assert.equal(part.raw, undefined, 'no raw samples at a budget of 0')
    absorbPart(main.sinks, part)
    await main.sinks.hostVolume.flush()
    await main.sinks.clientCounts.flush()
    assert.equal(main.hosts.length, 4)
    assert.deepEqual(main.hosts.find(h => h.host === OVERFLOW_HOST)?.counts.rsp_total, 3)
    assert.equal(main.sinks.hostVolume.overflowed, 3)
    assert.deepEqual(main.clients.map(r => [r.clientIp, r.responses]).sort(), [['', 4], ['198.51.100.0', 1], ['198.51.100.1', 1]])
    assert.equal(main.sinks.clientCounts.overflowed, 4)
  })

  it('hands the host counts over only when asked', async () => {
    const thread = new ThreadAnalytics({ node: 'n1', rawPerSecond: 10, maxHostsPerZone: 10, maxHosts: 10, maxClients: 10 })
    thread.collector.query({ transport: 'udp', address: '192.0.2.1', port: 1, family: 'IPv4' }, ZONE, key('www.example.org.'), 1, 0, 0, REQUEST, RESPONSE, 64, 0, performance.now(), undefined)
    await thread.collector.flush()
    const first = thread.handOver(false)
    assert.equal(first.hosts, undefined)
    assert.notEqual(first.volume, undefined)
    const second = thread.handOver(true)
    assert.equal(second.volume, undefined, 'counts go once')
    assert.equal(second.hosts?.counted.hosts, 1)
  })
})

/** A batch of `n` NOERROR responses in second `second`, told apart by DNS id from `firstId`. */
function batchOf (n: number, second: number, firstId: number): QueryBatch {
  const b = new QueryBatch(n, 'n1')
  for (let i = 0; i < n; i++) {
    b.time[i] = second * 1000 + i / n * 999
    b.dnsId[i] = firstId + i
    b.zone[i] = ZONE
    b.qname[i] = ZONE
    b.address[i] = '192.0.2.1'
  }
  b.length = n
  return b
}

describe('RawSampleSink.absorb', () => {
  it('merges two threads\' reservoirs of a second into one uniform sample of the budget', async () => {
    const random = prng(20261126)
    const budget = 10
    const second = 1_795_600_000
    const trials = 3000
    const included = new Float64Array(100)
    for (let trial = 0; trial < trials; trial++) {
      // 30 responses answered by the main sink's own thread, 70 by another, in the same second.
      const kept: RawSample[] = []
      const main = new RawSampleSink({ add: async (rows) => { kept.push(...rows); return rows.length } }, { flushMs: 60_000, perSecond: budget, random })
      const other = new RawSampleSink({ add: async () => 0 }, { flushMs: 60_000, perSecond: budget, random })
      main.write(batchOf(30, second, 0))
      other.write(batchOf(70, second, 30))
      main.absorb(other.handOver() as RawPart)
      await main.flush(true)
      assert.equal(kept.length, budget)
      for (const s of kept) included[s.dnsId]!++
    }
    // Each of the 100 responses is in the sample with probability 10 / 100.
    for (let id = 0; id < 100; id++) {
      const p = included[id]! / trials
      assert.ok(p > 0.07 && p < 0.13, `response ${id} kept in ${(p * 100).toFixed(1)} % of the samples (expected 10 %)`)
    }
  })

  it('hands over the seconds before the one given (each once, when it is over), every second when none is', () => {
    const other = new RawSampleSink({ add: async () => 0 }, { flushMs: 60_000, perSecond: 10 })
    other.write(batchOf(3, 100, 0))
    other.write(batchOf(2, 101, 10))
    assert.deepEqual(other.handOver(101)!.seconds.map(([second, seen, kept]) => [second, seen, kept.length]), [[100, 3, 3]])
    assert.deepEqual(other.handOver(101), undefined)
    other.write(batchOf(1, 101, 20))
    assert.deepEqual(other.handOver()!.seconds.map(([second, seen, kept]) => [second, seen, kept.length]), [[101, 3, 3]])
    assert.equal(other.handOver(), undefined)
  })

  it('adds a second it has not seen as it comes, and keeps both threads\' responses when they fit the budget', async () => {
    const kept: RawSample[] = []
    const main = new RawSampleSink({ add: async (rows) => { kept.push(...rows); return rows.length } }, { flushMs: 60_000, perSecond: 10 })
    const other = new RawSampleSink({ add: async () => 0 }, { flushMs: 60_000, perSecond: 10 })
    main.write(batchOf(4, 100, 0))
    other.write(batchOf(5, 100, 10))
    other.write(batchOf(3, 101, 20))
    main.absorb(other.handOver() as RawPart)
    await main.flush(true)
    assert.deepEqual(kept.map(s => s.dnsId).sort((a, b) => a - b), [0, 1, 2, 3, 10, 11, 12, 13, 14, 20, 21, 22])
    // Ids in time order within a second.
    const first = kept.filter(s => s.time < new Date(101_000).toISOString())
    assert.deepEqual(first.map(s => s.packetId), [...first.map(s => s.packetId)].sort((a, b) => a - b))
  })
})
