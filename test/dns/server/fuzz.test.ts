/**
 * Fuzzing the query path (STYLE.md §7 "Fuzz-style tests"; Knot `tests-fuzz/fuzz_packet.c`):
 * random packets and mutations of valid queries — bit flips, truncation, extended lengths,
 * compression pointers to themselves or forward, huge counts, OPT records with odd options,
 * TSIG records in the wrong places — from one seed, so every run sends the same packets.
 * - `handleQuery` and `answerTransfer` directly, many thousands: nothing may throw; whatever
 *   comes back is a well-formed response to the request (same id, QR set);
 * - the UDP and the TCP listener over real sockets, a few hundred each (TCP also with frames
 *   split across writes and bogus length prefixes): no error reaches the listener's error
 *   handler, and afterwards a valid query still gets the right answer.
 * A packet that once broke something is kept in `REGRESSIONS`.
 */
import assert from 'node:assert/strict'
import { createSocket } from 'node:dgram'
import { connect, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { answerTransfer } from '../../../src/dns/answer/axfr.ts'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import { handleQuery, type Client } from '../../../src/dns/server/handle-query.ts'
import { Opcode, Rcode } from '../../../src/dns/wire/constants.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { decodeMessage, type Message, type WireRecord } from '../../../src/dns/wire/message.ts'
import { signMessage, type TsigKey } from '../../../src/dns/wire/tsig.ts'
import { MessageWriter, Section } from '../../../src/dns/wire/writer.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { formatRdata } from '../../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { serveInWorkers, type WorkerServer } from '../../helpers/dns-workers.ts'

const UDP: Client = { transport: 'udp', address: '127.0.0.1', port: 5300, family: 'IPv4' }
const TCP: Client = { ...UDP, transport: 'tcp' }
const KEY: TsigKey = { name: parseName('xfr-key.'), algorithm: 'hmac-sha256', secret: new Uint8Array(Buffer.from('fuzz secret')) }
const LOOPBACK = new Uint8Array([127, 0, 0, 1])

const ZONE = `$ORIGIN example.org.
$TTL 3600
@        IN SOA   ns1 hostmaster 2024010101 7200 3600 1209600 300
@        IN NS    ns1
@        IN MX    10 mail
ns1      IN A     192.0.2.53
mail     IN A     192.0.2.25
www      IN CNAME web
web      IN A     192.0.2.80
*.wild   IN TXT   "wildcard"
sub      IN NS    ns.sub
ns.sub   IN A     192.0.2.200
old      IN DNAME new
x.new    IN A     192.0.2.77
loop1    IN CNAME loop2
loop2    IN CNAME loop1
${Array.from({ length: 60 }, (_, i) => `many IN A 10.0.0.${i}`).join('\n')}
`

function zoneIndex (): ZoneIndex {
  const origin = parseName('example.org.')
  const zone = ZoneData.from(origin, 2024010101, 1, parseZoneText(ZONE, { origin, includes: 'refuse' }).records)
  zone.transfer = { ranges: [{ start: LOOPBACK, end: LOOPBACK }], key: KEY }
  const index = new ZoneIndex()
  index.set(zone)
  return index
}

/** Deterministic PRNG (mulberry32). */
function prng (seed: number): (n: number) => number {
  let a = seed
  return (n: number) => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)
  }
}

interface Build {
  id?: number
  opcode?: number
  questions?: [string, number][]
  answer?: WireRecord[]
  additional?: WireRecord[]
  opt?: { options: { code: number, data: Uint8Array }[], udpSize?: number, version?: number }
  sign?: boolean
}

/** A query as the seeds need it; records are written as given, in place. */
function build (b: Build): Uint8Array {
  const w = new MessageWriter(4096)
  w.header({ id: b.id ?? 0x4242, qr: false, opcode: b.opcode ?? Opcode.QUERY, aa: false, tc: false, rd: true, ra: false, ad: false, cd: false, rcode: 0 })
  for (const [name, type] of b.questions ?? [['www.example.org.', RRType.A]]) w.question({ name: parseName(name), type, class: 1 })
  for (const r of b.answer ?? []) w.record(Section.Answer, r)
  for (const r of b.additional ?? []) w.record(Section.Additional, r)
  if (b.opt !== undefined) w.opt({ udpSize: b.opt.udpSize ?? 1232, extendedRcode: 0, version: b.opt.version ?? 0, dnssecOk: true, options: b.opt.options })
  const bytes = w.finish()
  return b.sign === true ? signMessage(bytes, { key: KEY, priorMac: undefined, timersOnly: false, now: Math.floor(Date.now() / 1000) }).message : bytes
}

/** The TSIG record of a signed query, to put where it does not belong. */
function tsigRecord (): WireRecord {
  const signed = build({ sign: true })
  return decodeMessage(signed).tsig!.record
}

const opt = (rdata: number[]): WireRecord => ({ name: new Uint8Array([0]), type: RRType.OPT, class: 1232, ttl: 0, rdata: new Uint8Array(rdata) })

/** Valid and nearly valid requests the mutations start from. */
function seeds (): Uint8Array[] {
  const tsig = tsigRecord()
  const a = (name: string): WireRecord => ({ name: parseName(name), type: RRType.A, class: 1, ttl: 60, rdata: new Uint8Array([192, 0, 2, 1]) })
  return [
    build({}),
    build({ questions: [['Www.Example.ORG.', RRType.A]], opt: { options: [] } }),
    build({ questions: [['many.example.org.', RRType.A]] }),
    build({ questions: [['x.old.example.org.', RRType.A]], opt: { options: [] } }),
    build({ questions: [['loop1.example.org.', RRType.A]] }),
    build({ questions: [['a.b.wild.example.org.', RRType.ANY]], opt: { options: [] } }),
    build({ questions: [['host.sub.example.org.', RRType.MX]] }),
    build({ questions: [['example.com.', RRType.A]] }),
    build({ questions: [['example.org.', RRType.SOA]], sign: true }),
    build({ questions: [['example.org.', RRType.SOA]], opt: { options: [] }, sign: true }),
    build({ questions: [['example.org.', RRType.AXFR]], sign: true }),
    build({ questions: [['example.org.', RRType.IXFR]], sign: true }),
    build({ questions: [['example.org.', RRType.SOA]], opcode: Opcode.NOTIFY }),
    build({ questions: [['www.example.org.', RRType.A], ['web.example.org.', RRType.A]] }),
    build({ questions: [] }),
    // OPT with odd options: a cookie, an unknown code, empty data, a length past the end, many.
    build({ opt: { options: [{ code: 10, data: new Uint8Array(8).fill(7) }, { code: 65001, data: new Uint8Array(0) }] } }),
    build({ opt: { options: Array.from({ length: 40 }, (_, i) => ({ code: i, data: new Uint8Array(i % 5) })) } }),
    build({ opt: { options: [], udpSize: 0, version: 255 } }),
    build({ additional: [opt([0, 10, 0, 200, 1, 2])] }),
    build({ additional: [opt([0, 10]), opt([])] }),
    build({ answer: [opt([])] }),
    build({ additional: [{ ...opt([]), name: parseName('example.org.') }] }),
    // TSIG in the wrong places: in the answer section, not last, twice, before OPT.
    build({ answer: [tsig] }),
    build({ additional: [tsig, a('x.example.org.')] }),
    build({ additional: [tsig, tsig] }),
    build({ additional: [tsig], opt: { options: [] } }),
    build({ additional: [{ ...tsig, rdata: tsig.rdata.subarray(0, 10) }] }),
    build({ answer: [a('www.example.org.')], additional: [a('ns.example.org.')] })
  ]
}

/** One mutation of `seed` (or a random packet), chosen by `rand`. */
function mutate (seed: Uint8Array, rand: (n: number) => number): Uint8Array {
  const m = Uint8Array.from(seed)
  const at = (): number => 12 + rand(Math.max(1, m.length - 12))
  switch (rand(11)) {
    case 0: // bit flips
      for (let k = 0; k <= rand(8); k++) m[rand(m.length)]! ^= 1 << rand(8)
      return m
    case 1: // random bytes
      for (let k = 0; k <= rand(6); k++) m[rand(m.length)] = rand(256)
      return m
    case 2: // truncation
      return m.subarray(0, rand(m.length))
    case 3: { // extended: random bytes after the end
      const out = new Uint8Array(m.length + 1 + rand(300))
      out.set(m)
      for (let i = m.length; i < out.length; i++) out[i] = rand(256)
      return out
    }
    case 4: { // an extended length: a label or 16-bit length field made bigger
      const p = at()
      if (rand(2) === 0) m[p] = 63 + rand(193)
      else if (p + 1 < m.length) { m[p] = 0xff; m[p + 1] = rand(256) }
      return m
    }
    case 5: { // compression pointers: to itself, forward, into the header, chains
      const p = at()
      if (p + 1 >= m.length) return m
      const target = [p, p + 2 + rand(64), rand(12), 12, m.length, 0x3fff][rand(6)]!
      m[p] = 0xc0 | ((target >> 8) & 0x3f)
      m[p + 1] = target & 0xff
      return m
    }
    case 6: { // huge or random section counts
      const field = 4 + 2 * rand(4)
      const value = [0xffff, 0, 1, 2, rand(65536)][rand(5)]!
      m[field] = value >> 8
      m[field + 1] = value & 0xff
      return m
    }
    case 7: // header bits: opcode, QR, rcode, Z
      m[2] = rand(256)
      m[3] = rand(256)
      return m
    case 8: { // splice two seeds
      const other = SEEDS[rand(SEEDS.length)]!
      const cut = rand(m.length)
      const from = rand(other.length)
      const out = new Uint8Array(cut + other.length - from)
      out.set(m.subarray(0, cut))
      out.set(other.subarray(from), cut)
      return out
    }
    case 9: { // a random packet
      return Uint8Array.from({ length: rand(600) }, () => rand(256))
    }
    default: { // a run of the same byte (long labels, 0xff counts, zeros)
      const p = at()
      const v = [0, 0xff, 0xc0, 0x3f, rand(256)][rand(5)]!
      m.fill(v, p, Math.min(m.length, p + 1 + rand(40)))
      return m
    }
  }
}

const SEEDS = seeds()

/**
 * The packets that once broke something, as hex, sent first in every run. None so far: a million
 * packets from other seeds (50,000 × 20) found no exception and no malformed response.
 */
const REGRESSIONS: string[] = []

function packets (count: number, seed: number): Uint8Array[] {
  const rand = prng(seed)
  const out: Uint8Array[] = REGRESSIONS.map(hex => new Uint8Array(Buffer.from(hex, 'hex')))
  while (out.length < count) {
    let m: Uint8Array = SEEDS[rand(SEEDS.length)]!
    for (let k = 0; k <= rand(3); k++) m = mutate(m, rand)
    out.push(m)
  }
  return out
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/** A well-formed response to `request`: decodable, QR set, the request's id. */
function checkResponse (request: Uint8Array, response: Uint8Array): string | undefined {
  let m: Message
  try {
    m = decodeMessage(response)
  } catch (err) {
    return `response does not decode (${(err as Error).message})`
  }
  if (!m.qr) return 'response without QR'
  if (request.length >= 2 && m.id !== ((request[0]! << 8) | request[1]!)) return 'response with another id'
  return undefined
}

/** The answer to www.example.org. A, checked. */
function assertWww (response: Uint8Array | Buffer, id: number): void {
  const m = decodeMessage(response)
  assert.equal(m.id, id)
  assert.equal(m.rcode, 0)
  assert.deepEqual(m.answers.map(r => formatRdata(r.type, r.rdata)), ['web.example.org.', '192.0.2.80'])
}

const valid = (id: number): Uint8Array => build({ id, opt: { options: [] } })

describe('fuzz: handleQuery and answerTransfer directly', () => {
  it('never throw on 20,000 mutated and random packets, and answer with well-formed responses', (t) => {
    const index = zoneIndex()
    const problems: string[] = []
    const rcodes = new Map<number, number>()
    let silent = 0
    for (const [i, request] of packets(20_000, 1).entries()) {
      const client = i % 2 === 0 ? UDP : TCP
      let response: Uint8Array | undefined
      try {
        response = handleQuery(request, client, { index })
      } catch (err) {
        problems.push(`${hex(request)}: threw ${(err as Error).stack}`)
        continue
      }
      if (response === undefined) {
        silent++
        continue
      }
      const bad = checkResponse(request, response)
      if (bad !== undefined) problems.push(`${hex(request)}: ${bad}`)
      else rcodes.set(decodeMessage(response).rcode, (rcodes.get(decodeMessage(response).rcode) ?? 0) + 1)
    }
    assert.deepEqual(problems.slice(0, 10), [])
    // The packets reach every outcome, not just the first check of the decoder.
    t.diagnostic(`rcodes ${JSON.stringify(Object.fromEntries(rcodes))}, no response ${silent}`)
    for (const rcode of [Rcode.NOERROR, Rcode.FORMERR, Rcode.SERVFAIL, Rcode.NXDOMAIN, Rcode.NOTIMP, Rcode.REFUSED, Rcode.NOTAUTH, Rcode.BADVERS]) {
      assert.ok((rcodes.get(rcode) ?? 0) > 0, `some answers have rcode ${rcode}`)
    }
    assertWww(handleQuery(valid(7), UDP, { index })!, 7)
  })

  it('never throws on 5,000 mutated transfer requests, and answers only what decodes', () => {
    const index = zoneIndex()
    const problems: string[] = []
    const transfers = SEEDS.filter(s => { try { const q = decodeMessage(s).questions[0]; return q?.type === RRType.AXFR || q?.type === RRType.IXFR } catch { return false } })
    assert.equal(transfers.length, 2)
    const rand = prng(2)
    let transferred = 0
    for (let i = 0; i < 5000; i++) {
      let request = transfers[i % 2]!
      for (let k = 0; k <= rand(2); k++) request = mutate(request, rand)
      let message: Message
      try {
        message = decodeMessage(request)
      } catch {
        continue
      }
      if (message.questions.length !== 1 || message.qr) continue
      try {
        const messages = answerTransfer(index, { bytes: request, message, client: LOOPBACK, now: Math.floor(Date.now() / 1000) })
        for (const m of messages) {
          const bad = checkResponse(request, m)
          if (bad !== undefined) problems.push(`${hex(request)}: ${bad}`)
        }
        if (decodeMessage(messages[0]!).answers.length > 1) transferred++
      } catch (err) {
        problems.push(`${hex(request)}: threw ${(err as Error).stack}`)
      }
    }
    assert.deepEqual(problems.slice(0, 10), [])
    assert.ok(transferred > 0, 'some mutated requests still pass the TSIG check and get the zone')
  })
})

for (const udpBatch of [true, false]) {
  describe(`fuzz: the UDP and TCP listeners, in DNS worker threads as the service runs them (UDP through ${udpBatch ? 'the batched socket' : 'node:dgram'})`, () => {
    const index = zoneIndex()
    let server: WorkerServer
    let threads: number[]
    let udpPort: number
    let tcpPort: number

    before(async () => {
      server = await serveInWorkers(index, 2, udpBatch)
      threads = server.workers.threadIds()
      udpPort = tcpPort = server.port
    })

    after(async () => {
    // No worker died on the way (a restarted one would have a new thread id) and none logged.
      assert.deepEqual(server.workers.threadIds(), threads)
      assert.deepEqual(server.problems, [])
      await server?.close()
    })

    it('the UDP listener takes 500 mutated packets and still answers a valid query', async () => {
      const client = createSocket('udp4')
      try {
        const answer = new Promise<Buffer>((resolve) => {
          client.on('message', (msg) => { if (msg.length >= 2 && msg.readUInt16BE(0) === 0x7a7a && msg.length > 40) resolve(msg) })
        })
        await new Promise<void>(resolve => client.bind(0, '127.0.0.1', resolve))
        for (const p of packets(500, 3)) {
        // An empty datagram is legal to send and must be ignored.
          await new Promise<void>((resolve, reject) => client.send(p, udpPort, '127.0.0.1', err => err === null ? resolve() : reject(err)))
        }
        // UDP may drop under a burst: ask until answered (waiting for the server, not timing it).
        const asking = setInterval(() => client.send(valid(0x7a7a), udpPort, '127.0.0.1'), 100)
        try {
          assertWww(await answer, 0x7a7a)
        } finally {
          clearInterval(asking)
        }
        assert.deepEqual(server.problems, [])
      } finally {
        client.close()
      }
    })

    it('the TCP listener takes 300 mutated frames, split writes and bogus lengths, and still answers a valid query', async () => {
      const rand = prng(4)
      const all = packets(300, 5)
      for (let batch = 0; batch < all.length; batch += 10) {
        const socket = await open(tcpPort)
        // Ten mutated packets in well-formed frames and a valid query, written in random pieces
        // (a piece may end inside a length prefix).
        const bytes = Buffer.concat([...all.slice(batch, batch + 10).map(frame), frame(valid(batch + 1))])
        const replies = collect(socket)
        let at = 0
        while (at < bytes.length) {
          const n = 1 + rand(Math.min(200, bytes.length - at))
          await write(socket, bytes.subarray(at, at + n))
          at += n
        }
        const www = await replies.until(m => m.id === batch + 1 && isWww(m))
        assertWww(www.raw, batch + 1)
        socket.destroy()
      }
      // Bogus length prefixes: empty frames, a length past the data, one byte of a length.
      const bogus: Buffer[] = [
        Buffer.from([0, 0]),
        Buffer.from([0, 1, 0]),
        Buffer.from([0xff, 0xff, ...valid(1)]),
        Buffer.from([0, 40, ...valid(1).subarray(0, 20)]),
        Buffer.from([0]),
        Buffer.from(Array.from({ length: 1000 }, () => rand(256)))
      ]
      for (const b of bogus) {
        const socket = await open(tcpPort)
        await write(socket, b)
        socket.end()
        await new Promise(resolve => socket.once('close', resolve))
      }
      // Zero-length frames on a connection that then asks properly.
      const socket = await open(tcpPort)
      const replies = collect(socket)
      await write(socket, Buffer.concat([Buffer.from([0, 0, 0, 0]), frame(valid(0x5151))]))
      assertWww((await replies.until(m => m.id === 0x5151 && isWww(m))).raw, 0x5151)
      socket.destroy()
      assert.deepEqual(server.problems, [])
      assert.deepEqual(malformed, [], 'every response over TCP decodes')
    })
  })
}

function frame (m: Uint8Array): Buffer {
  const out = Buffer.alloc(2 + m.length)
  out.writeUInt16BE(m.length, 0)
  out.set(m, 2)
  return out
}

async function open (port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1')
  socket.setNoDelay(true)
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  return socket
}

async function write (socket: Socket, bytes: Uint8Array): Promise<void> {
  await new Promise<void>((resolve, reject) => socket.write(bytes, err => err == null ? resolve() : reject(err)))
  // Let the server read this piece on its own before the next one is written.
  await new Promise(resolve => setImmediate(resolve))
}

const isWww = (m: Message): boolean => m.questions.length === 1 && m.questions[0]!.type === RRType.A && nameToString(m.questions[0]!.name) === 'www.example.org.'

/** Responses over TCP that did not decode. */
const malformed: string[] = []

/** The responses read from a TCP connection; `until` resolves with the first that matches. */
function collect (socket: Socket): { until: (match: (m: Message) => boolean) => Promise<Message & { raw: Buffer }> } {
  let buffer = Buffer.alloc(0)
  const seen: (Message & { raw: Buffer })[] = []
  const waiting: { match: (m: Message) => boolean, resolve: (m: Message & { raw: Buffer }) => void, reject: (err: Error) => void }[] = []
  socket.on('data', (d: Buffer) => {
    buffer = Buffer.concat([buffer, d])
    while (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) {
      const raw = buffer.subarray(2, 2 + buffer.readUInt16BE(0))
      buffer = buffer.subarray(2 + raw.length)
      let m: Message & { raw: Buffer }
      try {
        m = { ...decodeMessage(raw), raw }
      } catch (err) {
        malformed.push(`${hex(raw)}: ${(err as Error).message}`)
        continue
      }
      seen.push(m)
      for (const w of waiting.filter(w => w.match(m))) {
        waiting.splice(waiting.indexOf(w), 1)
        w.resolve(m)
      }
    }
  })
  socket.on('close', () => { for (const w of waiting) w.reject(new Error('connection closed before the answer')) })
  return {
    until: async (match) => {
      const found = seen.find(match)
      if (found !== undefined) return found
      return await new Promise((resolve, reject) => waiting.push({ match, resolve, reject }))
    }
  }
}
