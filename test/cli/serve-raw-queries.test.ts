/**
 * The running service keeps raw query samples: real queries over UDP and TCP from 127.0.0.2 and
 * 127.0.0.3, answered by a DNS worker thread, one with an EDNS Client Subnet option, each found
 * in `raw_queries` with the values the request and the response carried.
 */
import assert from 'node:assert/strict'
import { createSocket } from 'node:dgram'
import { connect } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { QueryFlag } from '../../src/dns/server/query-capture.ts'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { ZONE } from '../helpers/dns-clients.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

function query (id: number, name: string, type: number, opts: { rd?: boolean, cd?: boolean, ecs?: Uint8Array, edns?: boolean } = {}): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id, qr: false, opcode: 0, aa: false, tc: false, rd: opts.rd ?? false, ra: false, ad: false, cd: opts.cd ?? false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  if (opts.edns === true || opts.ecs !== undefined) w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: false, options: opts.ecs === undefined ? [] : [{ code: 8, data: opts.ecs }] })
  return w.finish()
}

interface Exchange { reply: Buffer, localPort: number }

/** One query over UDP from `from` to 127.0.0.1. */
async function udpFrom (from: string, port: number, request: Uint8Array): Promise<Exchange> {
  const socket = createSocket('udp4')
  try {
    await new Promise<void>(resolve => socket.bind(0, from, resolve))
    const reply = new Promise<Buffer>((resolve, reject) => {
      socket.once('message', resolve)
      setTimeout(() => reject(new Error('no answer over UDP')), 5000).unref()
    })
    socket.send(request, port, '127.0.0.1')
    return { reply: await reply, localPort: socket.address().port }
  } finally {
    socket.close()
  }
}

/** One query over TCP from `from` to 127.0.0.1. */
async function tcpFrom (from: string, port: number, request: Uint8Array): Promise<Exchange> {
  const socket = connect({ host: '127.0.0.1', port, localAddress: from })
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve)
      socket.once('error', reject)
    })
    const frame = Buffer.alloc(2 + request.length)
    frame.writeUInt16BE(request.length, 0)
    frame.set(request, 2)
    const reply = await new Promise<Buffer>((resolve, reject) => {
      let buffer = Buffer.alloc(0)
      socket.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk])
        if (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) resolve(buffer.subarray(2, 2 + buffer.readUInt16BE(0)))
      })
      socket.once('error', reject)
      socket.write(frame)
    })
    return { reply, localPort: socket.localPort! }
  } finally {
    socket.destroy()
  }
}

const A = 1; const MX = 15; const SOA = 6

describe('sqlite: raw query samples written by the running service', () => {
  let t: TestService
  before(async () => {
    t = await startTestService('admin password', { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_NODE_NAME: 'edge-9', ZONAL_DNS_RRL: '0' })
    await storeZone(t.service.store, 'default', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
    await t.service.dns.loaded
    // A zone stored after start is loaded by the next version poll.
    while (decodeMessage((await udpFrom('127.0.0.1', t.service.dns.port, query(1, 'example.org.', SOA))).reply).rcode !== 0) {
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  })
  after(async () => await t?.stop())

  /** What the first test sent and saw, for the report. */
  const sentAndSeen: Array<{ from: string, request: Uint8Array, transport: string, ecs: readonly [string, number], zone: string, qname: string, reply: Buffer, localPort: number, row: Record<string, unknown> }> = []
  let t0 = 0

  it('finds every query answered in the table, with the exact values', async () => {
    const port = t.service.dns.port
    const asked = [
      { how: udpFrom, from: '127.0.0.2', request: query(0x7001, 'mail.example.org.', A, { rd: true, ecs: Uint8Array.of(0, 1, 24, 0, 81, 2, 69) }), transport: 'udp', ecs: ['81.2.69.0', 24], zone: 'example.org.', qname: 'mail.example.org.' },
      { how: udpFrom, from: '127.0.0.3', request: query(0x7002, 'missing.example.org.', A, { cd: true, edns: true }), transport: 'udp', ecs: ['', 0], zone: 'example.org.', qname: 'missing.example.org.' },
      { how: tcpFrom, from: '127.0.0.2', request: query(0x7003, 'example.org.', MX), transport: 'tcp', ecs: ['', 0], zone: 'example.org.', qname: 'example.org.' },
      { how: tcpFrom, from: '127.0.0.3', request: query(0x7004, 'example.com.', A, { ecs: Uint8Array.of(0, 2, 48, 0, 0x20, 0x01, 0x0d, 0xb8, 0, 0x07) }), transport: 'tcp', ecs: ['2001:db8:7::', 48], zone: '', qname: 'example.com.' }
    ] as const
    t0 = Date.now()
    const exchanges: (Exchange & { micros: number })[] = []
    for (const a of asked) {
      const started = performance.now()
      const e = await a.how(a.from, port, a.request)
      exchanges.push({ ...e, micros: (performance.now() - started) * 1000 })
    }
    const t1 = Date.now()
    await t.service.queries!.flush()
    await t.service.rawSamples!.flush(true)
    const db = (t.service.store as any).engineImpl.db
    const rows = await db.selectFrom('raw_queries').selectAll().where('dns_id', 'in', asked.map(a => (a.request[0]! << 8) | a.request[1]!)).orderBy('dns_id').execute() as Array<Record<string, unknown>>
    assert.equal(rows.length, asked.length)
    asked.forEach((a, i) => {
      const r = rows[i]!
      const { reply, localPort, micros } = exchanges[i]!
      const m = decodeMessage(reply)
      const time = Date.parse(r.packet_time as string)
      assert.ok(time >= t0 - 1 && time <= t1 + 1, `${String(r.packet_time)} within the exchanges`)
      assert.equal(r.day, new Date(time).toISOString().slice(0, 10))
      assert.ok(Number.isSafeInteger(Number(r.packet_id)))
      assert.ok(Number(r.response_micros) > 0 && Number(r.response_micros) <= micros, `response time ${String(r.response_micros)} µs within the round trip of ${micros} µs`)
      const flags = (a.request[2]! & 1) | ((a.request[3]! & 0x10) !== 0 ? QueryFlag.CD : 0) | (a.request[11] === 1 ? QueryFlag.EDNS : 0) | (m.aa ? QueryFlag.AA : 0) | (m.tc ? QueryFlag.TC : 0)
      assert.deepEqual({ ...r, packet_id: 0, packet_time: '', day: '', response_micros: 0 }, {
        day: '',
        packet_id: 0,
        packet_time: '',
        node: 'edge-9',
        zone: a.zone,
        qname: a.qname,
        qtype: m.questions[0]!.type,
        opcode: 0,
        rcode: m.rcode,
        flags,
        transport: a.transport,
        ip_version: 4,
        address: a.from,
        port: localPort,
        ecs_address: a.ecs[0],
        ecs_prefix: a.ecs[1],
        dns_id: m.id,
        qdcount: reply.readUInt16BE(4),
        ancount: reply.readUInt16BE(6),
        nscount: reply.readUInt16BE(8),
        arcount: reply.readUInt16BE(10),
        request_size: a.request.length,
        response_size: reply.length,
        response_micros: 0
      })
    })
    assert.deepEqual(rows.map(r => r.rcode), [0, 3, 0, 5])
    assert.equal(new Set(rows.map(r => String(r.packet_id))).size, rows.length)
    asked.forEach((a, i) => sentAndSeen.push({ ...a, reply: exchanges[i]!.reply, localPort: exchanges[i]!.localPort, row: rows[i]! }))
  })

  it('reports them: POST the raw query report, poll GET /requests/{id}, the rows of the account\'s zones as JSON and CSV', async () => {
    assert.equal(sentAndSeen.length, 4, 'the queries of the test before')
    const login = await t.service.app.inject({ method: 'POST', url: '/v1/authorization/token', payload: 'grant_type=password&username=admin&password=admin%20password', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    const token = (JSON.parse(login.body) as { accessToken: string }).accessToken
    const headers = { authorization: `Bearer ${token}` }
    const body = { rawQuerySample: { accountName: 'default', packetStartDateTime: new Date(t0 - 1000).toISOString(), packetEndDateTime: new Date().toISOString() } }
    const posted = await t.service.app.inject({ method: 'POST', url: '/v2/reports/dns_resolution/sample/raw_query', payload: body, headers })
    assert.equal(posted.statusCode, 201, posted.body)
    const { requestId } = JSON.parse(posted.body) as { requestId: string }
    assert.match(requestId, /^RQS-/)
    const read = async (accept: string) => {
      for (;;) {
        const res = await t.service.app.inject({ method: 'GET', url: `/requests/${requestId}`, headers: { ...headers, accept } })
        if (res.statusCode !== 202) return res
        await new Promise(resolve => setTimeout(resolve, 50))
      }
    }
    const res = await read('application/json')
    assert.equal(res.statusCode, 200, res.body)
    const ids = new Set(sentAndSeen.map(s => (s.request[0]! << 8) | s.request[1]!))
    const reported = (JSON.parse(res.body) as Array<Record<string, unknown>>).filter(r => ids.has(r.dnsId as number))
    // The query for example.com. was answered by no zone: no account's report shows it.
    const expected = sentAndSeen.filter(s => s.zone !== '').map(s => {
      const { reply, row } = s
      const m = decodeMessage(reply)
      return {
        accountName: 'default',
        udpTcpIndicator: s.transport.toUpperCase(),
        tldSldIndicator: 'SLD',
        queryResponseIndicator: 'Response',
        responseMicroSet: Number(row.response_micros),
        ucapPacketErr: 0,
        resolverPort: s.localPort,
        resolverIP: s.from,
        truncatedIndicator: m.tc ? 1 : 0,
        recursionDesired: m.rd ? 1 : 0,
        recursionAvailable: m.ra ? 1 : 0,
        rcode: m.rcode,
        qdcount: reply.readUInt16BE(4),
        packetId: Number(row.packet_id),
        packetDatetime: row.packet_time,
        opcode: 0,
        dnsMsgLength: reply.length,
        dnsId: m.id,
        clientPort: s.localPort,
        clientIp: s.ecs[0] === '' ? s.from : s.ecs[0],
        checkingDisabled: m.cd ? 1 : 0,
        authenticDataIndicator: m.ad ? 1 : 0,
        authenticAnswerIndicator: m.aa ? 1 : 0,
        arcount: reply.readUInt16BE(10),
        ancount: reply.readUInt16BE(6),
        nscount: reply.readUInt16BE(8),
        qname: s.qname,
        qtype: s.qname === 'example.org.' ? 'MX' : 'A',
        zoneName: 'example.org.',
        ipVersion: 4
      }
    })
    assert.deepEqual(reported, expected)
    assert.deepEqual(reported.map(r => [r.clientIp, r.resolverIP, r.recursionDesired, r.checkingDisabled]), [['81.2.69.0', '127.0.0.2', 1, 0], ['127.0.0.3', '127.0.0.3', 0, 1], ['127.0.0.2', '127.0.0.2', 0, 0]])
    const csv = await read('text/csv')
    assert.equal(csv.statusCode, 200)
    const lines = csv.body.split('\r\n').filter(l => l !== '')
    const header = lines[0]!.split(',')
    const csvRows = lines.slice(1).map(l => Object.fromEntries(l.split(',').map((v, i) => [header[i]!, v]))).filter(r => ids.has(Number(r.dnsId)))
    assert.deepEqual(csvRows, expected.map(e => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, String(v)]))))
  })
})
