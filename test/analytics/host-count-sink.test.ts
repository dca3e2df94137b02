import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { HostCountSink, OVERFLOW_HOST, type HostCountRow, type HostCountWriter } from '../../src/analytics/host-count-sink.ts'
import { QueryBatch } from '../../src/analytics/query-batch.ts'
import { QueryFlag } from '../../src/dns/server/query-capture.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'

const key = (name: string): string => wireKey(parseName(name))
const ORG = key('example.org.')
const NET = key('example.net.')
const DAY1 = Date.UTC(2026, 10, 24, 23, 59, 59, 999)
const DAY2 = Date.UTC(2026, 10, 25, 0, 0, 0, 0)

interface Q { time?: number, zone?: string, qname: string, qtype?: number, rcode?: number, tcp?: boolean, v6?: boolean }

function batchOf (queries: Q[], node = 'n1'): QueryBatch {
  const b = new QueryBatch(queries.length, node)
  queries.forEach((q, i) => {
    b.time[i] = q.time ?? DAY1
    b.zone[i] = q.zone ?? ORG
    b.qname[i] = key(q.qname)
    b.qtype[i] = q.qtype ?? 1
    b.rcode[i] = q.rcode ?? 0
    b.flags[i] = (q.tcp === true ? QueryFlag.TCP : 0) | (q.v6 === true ? QueryFlag.IPV6 : 0)
  })
  b.length = queries.length
  return b
}

class Recorder implements HostCountWriter {
  flushes: HostCountRow[][] = []
  fail = 0
  async add (rows: HostCountRow[]): Promise<void> {
    if (this.fail > 0) {
      this.fail--
      throw new Error('database down')
    }
    this.flushes.push(rows)
  }
}

/** Rows by "day zone host node", counters as written. */
function byKey (rows: HostCountRow[]): Record<string, Record<string, number>> {
  return Object.fromEntries(rows.map(r => [`${r.day} ${r.zone} ${r.host} ${r.node}`, r.counts]))
}

const LIMITS = { maxHostsPerZone: 1000, maxHosts: 1000 }

describe('HostCountSink', () => {
  it('counts volume and rcodes per UTC day, zone, host and node; skips queries no zone answered', async () => {
    const writer = new Recorder()
    const sink = new HostCountSink(writer, { flushMs: 3_600_000, ...LIMITS })
    sink.write(batchOf([
      { qname: 'www.example.org.' },
      { qname: 'WWW.Example.org.', qtype: 28, v6: true },
      { qname: 'nope.example.org.', rcode: 3, tcp: true },
      { qname: 'nope.example.org.', qtype: 16, rcode: 3 },
      { qname: 'example.com.', zone: '', rcode: 5 },
      { qname: 'www.example.org.', time: DAY2, qtype: 15 },
      { qname: 'example.net.', zone: NET, qtype: 6, rcode: 16 }
    ]))
    sink.write(batchOf([{ qname: 'www.example.org.' }], 'n2'))
    await sink.close()
    assert.equal(writer.flushes.length, 1)
    assert.deepEqual(byKey(writer.flushes[0]!), {
      '2026-11-24 example.org. www.example.org. n1': { rsp_total: 2, udp: 2, ipv4: 1, ipv6: 1, ipv4_udp: 1, ipv6_udp: 1, type_a: 1, type_aaaa: 1, noerror: 2 },
      '2026-11-24 example.org. nope.example.org. n1': { rsp_total: 2, tcp: 1, udp: 1, ipv4: 2, ipv4_tcp: 1, ipv4_udp: 1, type_a: 1, type_txt: 1, nxdomain: 2 },
      '2026-11-25 example.org. www.example.org. n1': { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_mx: 1, noerror: 1 },
      '2026-11-24 example.net. example.net. n1': { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_soa: 1, other: 1 },
      '2026-11-24 example.org. www.example.org. n2': { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_a: 1, noerror: 1 }
    })
    assert.equal(sink.overflowed, 0)
  })

  it('counts hosts past the per-zone and overall limits under the overflow host, until the next flush', async () => {
    const writer = new Recorder()
    const sink = new HostCountSink(writer, { flushMs: 3_600_000, maxHostsPerZone: 2, maxHosts: 3 })
    sink.write(batchOf([
      { qname: 'a.example.org.' },
      { qname: 'b.example.org.', rcode: 3 },
      { qname: 'c.example.org.', rcode: 3 }, // third of the zone: overflow
      { qname: 'a.example.org.' }, // known: its own row
      { qname: 'd.example.org.', rcode: 3, time: DAY2 }, // the zone's limit spans days
      { qname: 'x.example.net.', zone: NET },
      { qname: 'y.example.net.', zone: NET } // fourth in all: overflow
    ]))
    assert.equal(sink.overflowed, 3)
    await sink.flush()
    assert.deepEqual(byKey(writer.flushes[0]!), {
      '2026-11-24 example.org. a.example.org. n1': { rsp_total: 2, udp: 2, ipv4: 2, ipv4_udp: 2, type_a: 2, noerror: 2 },
      '2026-11-24 example.org. b.example.org. n1': { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_a: 1, nxdomain: 1 },
      [`2026-11-24 example.org. ${OVERFLOW_HOST} n1`]: { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_a: 1, nxdomain: 1 },
      [`2026-11-25 example.org. ${OVERFLOW_HOST} n1`]: { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_a: 1, nxdomain: 1 },
      '2026-11-24 example.net. x.example.net. n1': { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_a: 1, noerror: 1 },
      [`2026-11-24 example.net. ${OVERFLOW_HOST} n1`]: { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_a: 1, noerror: 1 }
    })
    // After a flush the limits start afresh.
    sink.write(batchOf([{ qname: 'c.example.org.' }, { qname: 'd.example.org.' }]))
    await sink.close()
    assert.deepEqual(Object.keys(byKey(writer.flushes[1]!)), ['2026-11-24 example.org. c.example.org. n1', '2026-11-24 example.org. d.example.org. n1'])
    assert.equal(sink.overflowed, 3)
  })

  it('keeps the counts of a failed write for the next flush, with what was counted since', async () => {
    const writer = new Recorder()
    const errors: unknown[] = []
    const sink = new HostCountSink(writer, { flushMs: 3_600_000, ...LIMITS, onError: (err) => errors.push(err) })
    sink.write(batchOf([{ qname: 'www.example.org.' }, { qname: 'nope.example.org.', rcode: 3 }]))
    writer.fail = 1
    await assert.rejects(sink.flush(), /database down/)
    assert.equal(errors.length, 1)
    sink.write(batchOf([{ qname: 'www.example.org.' }]))
    await sink.flush()
    assert.deepEqual(byKey(writer.flushes[0]!), {
      '2026-11-24 example.org. www.example.org. n1': { rsp_total: 2, udp: 2, ipv4: 2, ipv4_udp: 2, type_a: 2, noerror: 2 },
      '2026-11-24 example.org. nope.example.org. n1': { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_a: 1, nxdomain: 1 }
    })
    await sink.close()
    assert.equal(writer.flushes.length, 1)
    assert.deepEqual(sink.pending(), [])
  })

  it('keeps many hosts apart as their counters grow past the first rows, through a failed write and a hand-over', async () => {
    const writer = new Recorder()
    const sink = new HostCountSink(writer, { flushMs: 3_600_000, maxHostsPerZone: 1000, maxHosts: 1000 })
    // 300 hosts (their counter rows outgrow the first block twice), host i asked i + 1 times, some over TCP.
    const queries: Q[] = []
    for (let i = 0; i < 300; i++) for (let k = 0; k <= i; k++) queries.push({ qname: `h${i}.example.org.`, tcp: k % 2 === 1 })
    sink.write(batchOf(queries.slice(0, 20_000)))
    writer.fail = 1
    await assert.rejects(sink.flush(), /database down/)
    sink.write(batchOf(queries.slice(20_000)))
    // Handed to another sink (as a DNS worker's are), then written there.
    const other = new HostCountSink(writer, { flushMs: 3_600_000, maxHostsPerZone: 1000, maxHosts: 1000 })
    other.absorb(sink.handOver()!)
    await other.flush()
    const rows = byKey(writer.flushes[0]!)
    assert.equal(Object.keys(rows).length, 300)
    for (let i = 0; i < 300; i++) {
      const r = rows[`2026-11-24 example.org. h${i}.example.org. n1`]!
      assert.deepEqual([r.rsp_total, r.tcp ?? 0, r.udp], [i + 1, Math.floor((i + 1) / 2), Math.ceil((i + 1) / 2)], `h${i}`)
    }
  })

  it('gives back a failed write within the limits: hosts counted meanwhile keep their rows, the rest go to the overflow host', async () => {
    let fail: ((err: Error) => void) | undefined
    const writing = (): boolean => fail !== undefined
    const written: HostCountRow[][] = []
    let calls = 0
    const sink = new HostCountSink({
      add: async (rows) => {
        if (calls++ === 0) return await new Promise<void>((_resolve, reject) => { fail = reject })
        written.push(rows)
      }
    }, { flushMs: 3_600_000, maxHostsPerZone: 1, maxHosts: 10 })
    sink.write(batchOf([{ qname: 'a.example.org.' }]))
    const first = sink.flush()
    while (!writing()) await new Promise(resolve => setImmediate(resolve))
    // While the write is under way, another host fills the zone's one place.
    sink.write(batchOf([{ qname: 'b.example.org.' }, { qname: 'b.example.org.' }]))
    fail?.(new Error('database down'))
    await assert.rejects(first, /database down/)
    await sink.flush()
    assert.deepEqual(byKey(written[0]!), {
      '2026-11-24 example.org. b.example.org. n1': { rsp_total: 2, udp: 2, ipv4: 2, ipv4_udp: 2, type_a: 2, noerror: 2 },
      [`2026-11-24 example.org. ${OVERFLOW_HOST} n1`]: { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_a: 1, noerror: 1 }
    })
    assert.equal(sink.overflowed, 1)
  })
})
