/**
 * The query capture over real sockets (port 0 on 127.0.0.1, and ::1 when it can be bound):
 * every answered query reaches the sink as one record with the client's address, port and
 * IP version, the transport, the node name, the octets in and out, the rcode and the flags;
 * the fast path (cached replies) is captured too, and counted by the counter sink.
 */
import assert from 'node:assert/strict'
import { createSocket } from 'node:dgram'
import type { AddressInfo, Server } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { CounterSink } from '../../../src/analytics/counter-sink.ts'
import { nameOfKey, type QueryBatch, type QueryRecord } from '../../../src/analytics/query-batch.ts'
import { QueryCollector } from '../../../src/analytics/query-collector.ts'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import { QueryFlag } from '../../../src/dns/server/query-capture.ts'
import { listenTcp } from '../../../src/dns/server/tcp-listener.ts'
import { listenUdp, type UdpListener } from '../../../src/dns/server/udp-listener.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { MessageWriter } from '../../../src/dns/wire/writer.ts'
import { parseName } from '../../../src/zone/name.ts'
import { parseTypeName } from '../../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { tcpExchange, udpExchange } from '../../helpers/dns-clients.ts'

const NODE = 'ns-test-1'
let many = ''
for (let i = 0; i < 60; i++) many += `many IN A 10.0.0.${i}\n`
const ZONE = `$TTL 3600
@    IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@    IN NS  ns1
ns1  IN A   192.0.2.53
www  IN A   192.0.2.80
${many}`

function query (name: string, type: string, opts: { edns?: boolean, dnssecOk?: boolean, rd?: boolean, cd?: boolean, id?: number, ecs?: Uint8Array } = {}): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: opts.id ?? 7, qr: false, opcode: 0, aa: false, tc: false, rd: opts.rd ?? false, ra: false, ad: false, cd: opts.cd ?? false, rcode: 0 })
  w.question({ name: parseName(name), type: parseTypeName(type)!, class: 1 })
  // A cookie before the Client Subnet option: the capture finds it among others.
  const options = opts.ecs === undefined ? [] : [{ code: 10, data: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8) }, { code: 8, data: opts.ecs }]
  if (opts.edns !== false) w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: opts.dnssecOk ?? false, options })
  return w.finish()
}

/** Whether ::1 can be bound here (some containers have no IPv6). */
async function ipv6Loopback (): Promise<boolean> {
  const s = createSocket('udp6')
  try {
    return await new Promise<boolean>((resolve) => {
      s.once('error', () => resolve(false))
      s.bind(0, '::1', () => resolve(true))
    })
  } finally {
    s.close()
  }
}
const haveIpv6 = await ipv6Loopback()

for (const udpBatch of [true, false]) {
  describe(`query capture over UDP and TCP (UDP through ${udpBatch ? 'the batched socket' : 'node:dgram'})`, () => {
    const origin = parseName('example.org.')
    const index = new ZoneIndex()
    const zone = ZoneData.from(origin, 1, 1, parseZoneText(ZONE, { origin, includes: 'refuse' }).records)
    index.set(zone)
    const counts = new CounterSink()
    const seen: QueryRecord[] = []
    const sink = {
      write (batch: QueryBatch) {
        seen.push(...batch.records())
        counts.write(batch)
      }
    }
    const collector = new QueryCollector(sink, { node: NODE, batchSize: 4, batches: 64 })
    const opts = { index, capture: collector }
    const fail = (err: unknown): void => { throw err }
    let udp: UdpListener
    let tcp: Server
    let udp6: UdpListener | undefined
    let udpPort: number
    let tcpPort: number

    before(async () => {
      udp = await listenUdp('127.0.0.1', 0, opts, fail, undefined, false, udpBatch)
      tcp = await listenTcp('127.0.0.1', 0, opts, fail)
      if (haveIpv6) udp6 = await listenUdp('::1', 0, opts, fail, undefined, false, udpBatch)
      udpPort = udp.address().port
      tcpPort = (tcp.address() as AddressInfo).port
    })
    after(async () => {
      udp?.close()
      udp6?.close()
      await new Promise(resolve => tcp?.close(resolve))
      await collector.close()
    })

    /** The records captured by one exchange (the sink sees them once the collector is flushed). */
    async function captured (exchange: () => Promise<unknown>): Promise<QueryRecord[]> {
      await collector.flush()
      const from = seen.length
      await exchange()
      await collector.flush()
      return seen.slice(from)
    }

    it('records a UDP answer with the client\'s address, port, IP version, the sizes, the rcode, the flags and the node name', async () => {
      const request = query('WWW.Example.org.', 'A', { dnssecOk: true, rd: true, cd: true })
      const t0 = Date.now()
      let exchange: Awaited<ReturnType<typeof udpExchange>> | undefined
      const records = await captured(async () => { exchange = await udpExchange('127.0.0.1', udpPort, request) })
      assert.equal(records.length, 1)
      const r = records[0]!
      assert.equal(decodeMessage(exchange!.reply).rcode, 0)
      // The time is the wall clock read through the monotonic clock: within a millisecond.
      assert.ok(r.time >= t0 - 1 && r.time <= Date.now() + 1)
      assert.equal(r.node, NODE)
      assert.equal(nameOfKey(r.zone!), 'example.org.')
      assert.equal(nameOfKey(r.qname!), 'www.example.org.', 'names are lower-cased')
      assert.equal(r.qtype, 1)
      assert.equal(r.opcode, 0)
      assert.equal(r.rcode, 0)
      assert.equal(r.transport, 'udp')
      assert.equal(r.family, 'IPv4')
      assert.equal(r.address, '127.0.0.1')
      assert.equal(r.port, exchange!.localPort)
      assert.equal(r.requestSize, request.length)
      assert.equal(r.responseSize, exchange!.reply.length)
      assert.equal(r.flags, QueryFlag.RD | QueryFlag.CD | QueryFlag.EDNS | QueryFlag.DO | QueryFlag.AA)
    })

    it('records NXDOMAIN over TCP with the TCP client\'s port', async () => {
      const request = query('nothing.example.org.', 'AAAA', { edns: false })
      let exchange: Awaited<ReturnType<typeof tcpExchange>> | undefined
      const records = await captured(async () => { exchange = await tcpExchange('127.0.0.1', tcpPort, request) })
      assert.equal(records.length, 1)
      const r = records[0]!
      assert.equal(r.rcode, 3)
      assert.equal(r.transport, 'tcp')
      assert.equal(r.port, exchange!.localPort)
      assert.equal(r.qtype, 28)
      assert.equal(nameOfKey(r.zone!), 'example.org.')
      assert.equal(r.requestSize, request.length)
      assert.equal(r.responseSize, exchange!.reply.length)
      assert.equal(r.flags, QueryFlag.AA)
    })

    it('records REFUSED for a zone not served, without a zone', async () => {
      const records = await captured(async () => await udpExchange('127.0.0.1', udpPort, query('example.com.', 'A')))
      assert.equal(records.length, 1)
      assert.equal(records[0]!.rcode, 5)
      assert.equal(records[0]!.zone, undefined)
      assert.equal(nameOfKey(records[0]!.qname!), 'example.com.')
    })

    it('records the same question asked twice twice, the second answered by the fast path from the cached reply', async () => {
      const request = query('ns1.example.org.', 'A')
      const records = await captured(async () => {
        const first = await udpExchange('127.0.0.1', udpPort, request)
        const cachedBefore = index.replies.size
        const hitsBefore = index.replies.hits
        assert.ok(index.replies.entriesOf(zone) > 0, 'the first answer is cached')
        const second = await udpExchange('127.0.0.1', udpPort, request)
        assert.equal(index.replies.size, cachedBefore, 'the second answer is the cached one')
        assert.equal(index.replies.hits, hitsBefore + 1, 'answered from the cache')
        assert.deepEqual(second.reply.subarray(2), first.reply.subarray(2))
      })
      assert.equal(records.length, 2)
      for (const r of records) {
        assert.equal(nameOfKey(r.qname!), 'ns1.example.org.')
        assert.equal(nameOfKey(r.zone!), 'example.org.')
        assert.equal(r.rcode, 0)
        assert.equal(r.requestSize, request.length)
        assert.equal(r.flags, QueryFlag.EDNS | QueryFlag.AA)
      }
      assert.equal(records[0]!.responseSize, records[1]!.responseSize)
    })

    for (const transport of ['udp', 'tcp'] as const) {
      it(`records the request's id, RD, CD and Client Subnet and the response's counts, RA, AD and time over ${transport}, on the full path and the fast path`, async () => {
        const exchange = transport === 'udp' ? udpExchange : tcpExchange
        const port = transport === 'udp' ? udpPort : tcpPort
        const ecs = Uint8Array.of(0, 1, 24, 0, 81, 2, 69)
        const name = transport === 'udp' ? 'ns1.example.org.' : 'www.example.org.'
        const requests = [
          query(name, 'A', { id: 0x1f2e, rd: true, ecs }),
          query(name, 'A', { id: 0xa001, cd: true, ecs: Uint8Array.of(0, 2, 48, 0, 0x20, 0x01, 0x0d, 0xb8, 0, 0) }),
          query(name, 'A', { id: 0x0102 })
        ]
        const replies: Buffer[] = []
        const rounds: number[] = []
        const hitsBefore = index.replies.hits
        index.replies.clear()
        const records = await captured(async () => {
          for (const request of requests) {
            const t0 = performance.now()
            replies.push((await exchange('127.0.0.1', port, request)).reply)
            rounds.push((performance.now() - t0) * 1000)
          }
        })
        assert.equal(index.replies.hits, hitsBefore + 2, 'the first is answered by the full path, the others from the cached reply')
        assert.equal(records.length, 3)
        const expected = [['81.2.69.0', 24], ['2001:db8::', 48], ['', 0]]
        records.forEach((r, i) => {
          const reply = replies[i]!
          assert.equal(r.transport, transport)
          assert.equal(r.dnsId, (requests[i]![0]! << 8) | requests[i]![1]!)
          assert.equal(r.dnsId, reply.readUInt16BE(0))
          assert.deepEqual([r.qdcount, r.ancount, r.nscount, r.arcount], [reply.readUInt16BE(4), reply.readUInt16BE(6), reply.readUInt16BE(8), reply.readUInt16BE(10)])
          assert.deepEqual([r.qdcount, r.ancount, r.arcount], [1, 1, 1])
          const m = decodeMessage(reply)
          assert.equal((r.flags & QueryFlag.RD) !== 0, i === 0)
          assert.equal((r.flags & QueryFlag.CD) !== 0, i === 1)
          assert.equal((r.flags & QueryFlag.RA) !== 0, m.ra)
          assert.equal((r.flags & QueryFlag.AD) !== 0, m.ad)
          assert.deepEqual([r.ecsAddress, r.ecsPrefix], expected[i])
          assert.ok(r.responseMicros > 0 && r.responseMicros <= rounds[i]!, `response time ${r.responseMicros} µs within the round trip of ${rounds[i]} µs`)
        })
      })
    }

    it('records TC on a truncated UDP answer', async () => {
      const records = await captured(async () => await udpExchange('127.0.0.1', udpPort, query('many.example.org.', 'A', { edns: false })))
      assert.equal(records.length, 1)
      assert.equal(records[0]!.flags & QueryFlag.TC, QueryFlag.TC)
    })

    it('records a malformed request answered FORMERR without a question', async () => {
      const bad = query('www.example.org.', 'A').slice(0, 20)
      const records = await captured(async () => await udpExchange('127.0.0.1', udpPort, bad))
      assert.equal(records.length, 1)
      assert.equal(records[0]!.rcode, 1)
      assert.equal(records[0]!.qname, undefined)
      assert.equal(records[0]!.requestSize, 20)
    })

    it('records the IP version of an IPv6 client', { skip: haveIpv6 ? false : '::1 cannot be bound on this machine' }, async () => {
      let exchange: Awaited<ReturnType<typeof udpExchange>> | undefined
      const records = await captured(async () => { exchange = await udpExchange('::1', udp6!.address().port, query('www.example.org.', 'A')) })
      assert.equal(records.length, 1)
      assert.equal(records[0]!.family, 'IPv6')
      assert.equal(records[0]!.address, '::1')
      assert.equal(records[0]!.port, exchange!.localPort)
    })

    it('feeds the counter sink: every record counted by rcode, qtype, transport and zone', async () => {
      await collector.flush()
      assert.equal(counts.total, seen.length)
      assert.equal(collector.counts().captured, seen.length)
      assert.equal(collector.counts().dropped, 0)
      assert.equal(counts.byTransport.tcp, seen.filter(r => r.transport === 'tcp').length)
      assert.equal(counts.byTransport.udp + counts.byTransport.tcp, seen.length)
      assert.equal(counts.byRcode().get(3), 1)
      assert.equal(counts.byRcode().get(5), 1)
      assert.equal(counts.byQtype().get(28), 1)
      assert.equal(counts.byZone().get('example.org.'), seen.filter(r => r.zone !== undefined).length)
    })
  })
}
