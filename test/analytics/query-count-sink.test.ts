import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { FanOutSink } from '../../src/analytics/fan-out-sink.ts'
import { QueryBatch } from '../../src/analytics/query-batch.ts'
import { COUNTED_TYPES, QueryCountSink, type QueryCountRow, type QueryCountWriter } from '../../src/analytics/query-count-sink.ts'
import type { QuerySink } from '../../src/analytics/query-sink.ts'
import { QueryFlag } from '../../src/dns/server/query-capture.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'

const ORG = wireKey(parseName('example.org.'))
const NET = wireKey(parseName('example.net.'))
const DAY1 = Date.UTC(2026, 10, 24, 23, 59, 59, 999)
const DAY2 = Date.UTC(2026, 10, 25, 0, 0, 0, 0)

type Flush = { volume: QueryCountRow[], rcodes: QueryCountRow[] }

function batchOf (queries: Array<{ time?: number, zone?: string, qtype: number, rcode?: number, tcp?: boolean, v6?: boolean }>): QueryBatch {
  const b = new QueryBatch(queries.length, 'n1')
  queries.forEach((q, i) => {
    b.time[i] = q.time ?? DAY1
    b.zone[i] = q.zone ?? ORG
    b.qtype[i] = q.qtype
    b.rcode[i] = q.rcode ?? 0
    b.flags[i] = (q.tcp === true ? QueryFlag.TCP : 0) | (q.v6 === true ? QueryFlag.IPV6 : 0) | QueryFlag.RD
  })
  b.length = queries.length
  return b
}

class Recorder implements QueryCountWriter {
  flushes: Flush[] = []
  fail = 0
  async add (flush: Flush): Promise<void> {
    if (this.fail > 0) {
      this.fail--
      throw new Error('database down')
    }
    this.flushes.push(flush)
  }
}

function key (r: QueryCountRow): string {
  return `${r.day} ${r.zone} ${r.node}`
}

describe('QueryCountSink', () => {
  it('counts volume by transport and IP version, every counted type, rcodes, per UTC day and zone', async () => {
    const writer = new Recorder()
    const sink = new QueryCountSink(writer, { flushMs: 3_600_000 })
    sink.write(batchOf([
      { qtype: 1 },
      { qtype: 1, tcp: true },
      { qtype: 28, v6: true, rcode: 3 },
      { qtype: 28, v6: true, tcp: true, rcode: 1 },
      { qtype: 99, rcode: 2 },
      { qtype: 999, rcode: 4 }, // not a counted type: in the total only
      { qtype: 16, rcode: 16 }, // BADVERS: other
      { qtype: 1, zone: '', rcode: 5 }, // no zone answered
      { qtype: 6, time: DAY2 },
      { qtype: 6, time: DAY2, zone: NET, v6: true, tcp: true }
    ]))
    // Every counted type once, in a second batch.
    sink.write(batchOf(COUNTED_TYPES.map(([, qtype]) => ({ qtype, zone: NET, time: DAY2 }))))
    await sink.close()
    assert.equal(writer.flushes.length, 1)
    const { volume, rcodes } = writer.flushes[0]!
    const v = new Map(volume.map(r => [key(r), r.counts]))
    const r = new Map(rcodes.map(x => [key(x), x.counts]))
    assert.deepEqual([...v.keys()].sort(), ['2026-11-24  n1', '2026-11-24 example.org. n1', '2026-11-25 example.net. n1', '2026-11-25 example.org. n1'])
    assert.deepEqual(v.get('2026-11-24 example.org. n1'), {
      rsp_total: 7, tcp: 2, udp: 5, ipv4: 5, ipv6: 2, ipv4_tcp: 1, ipv4_udp: 4, ipv6_tcp: 1, ipv6_udp: 1, type_a: 2, type_aaaa: 2, type_spf: 1, type_txt: 1
    })
    assert.deepEqual(r.get('2026-11-24 example.org. n1'), { noerror: 2, formerr: 1, servfail: 1, nxdomain: 1, notimp: 1, other: 1 })
    assert.deepEqual(v.get('2026-11-24  n1'), { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_a: 1 })
    assert.deepEqual(r.get('2026-11-24  n1'), { refused: 1 })
    assert.deepEqual(v.get('2026-11-25 example.org. n1'), { rsp_total: 1, udp: 1, ipv4: 1, ipv4_udp: 1, type_soa: 1 })
    const net = v.get('2026-11-25 example.net. n1')!
    const n = COUNTED_TYPES.length
    assert.equal(net.rsp_total, n + 1)
    assert.deepEqual([net.udp, net.tcp, net.ipv4, net.ipv6, net.ipv4_udp, net.ipv6_tcp], [n, 1, n, 1, n, 1])
    for (const [name] of COUNTED_TYPES) assert.equal(net[`type_${name}`], name === 'soa' ? 2 : 1, name)
    assert.deepEqual(r.get('2026-11-25 example.net. n1'), { noerror: n + 1 })
  })

  it('keeps the counts of a failed write for the next flush, with what was counted since', async () => {
    const writer = new Recorder()
    const errors: unknown[] = []
    const sink = new QueryCountSink(writer, { flushMs: 3_600_000, onError: (err) => errors.push(err) })
    sink.write(batchOf([{ qtype: 1 }, { qtype: 1, rcode: 3 }]))
    writer.fail = 1
    await assert.rejects(sink.flush(), /database down/)
    assert.equal(errors.length, 1)
    sink.write(batchOf([{ qtype: 1 }]))
    await sink.flush()
    assert.equal(writer.flushes.length, 1)
    assert.deepEqual(writer.flushes[0]!.volume.map(x => x.counts), [{ rsp_total: 3, udp: 3, ipv4: 3, ipv4_udp: 3, type_a: 3 }])
    assert.deepEqual(writer.flushes[0]!.rcodes.map(x => x.counts), [{ noerror: 2, nxdomain: 1 }])
    // Written once: nothing is left.
    await sink.close()
    assert.equal(writer.flushes.length, 1)
    assert.deepEqual(sink.pending(), { volume: [], rcodes: [] })
  })

  it('writes every flush interval once started', async () => {
    const writer = new Recorder()
    let written!: () => void
    const done = new Promise<void>(resolve => { written = resolve })
    const sink = new QueryCountSink({ add: async (f) => { await writer.add(f); written() } }, { flushMs: 10 })
    sink.write(batchOf([{ qtype: 1 }]))
    sink.start()
    await done
    await sink.close()
    assert.equal(writer.flushes.length, 1)
  })
})

describe('FanOutSink', () => {
  it('gives every batch to every sink', async () => {
    const seen: string[] = []
    const sync: QuerySink = { write: (b) => { seen.push(`sync ${b.length}`) } }
    const slow: QuerySink = { write: async (b) => { await Promise.resolve(); seen.push(`async ${b.length}`) } }
    await new FanOutSink([sync, slow]).write(batchOf([{ qtype: 1 }, { qtype: 2 }]))
    assert.deepEqual(seen, ['sync 2', 'async 2'])
  })
})
