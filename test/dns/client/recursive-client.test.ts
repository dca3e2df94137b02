/**
 * The stub resolver of the dangling DNS scan (src/dns/client/recursive-client.ts): against a
 * recursive BIND on loopback (CNAME, NXDOMAIN, NODATA, SERVFAIL), and against small fake servers
 * for what BIND does not readily do: Extended DNS Errors, answers with the wrong id, question or
 * source (ignored), silence and REFUSED (the next resolver is asked), and the pace per resolver.
 */
import assert from 'node:assert/strict'
import { createSocket, type Socket } from 'node:dgram'
import { after, before, describe, it } from 'node:test'
import { RecursiveClient, ResolverUnavailableError } from '../../../src/dns/client/recursive-client.ts'
import { resolverServers } from '../../../src/health/resolvers.ts'
import { decodeMessage, type Message } from '../../../src/dns/wire/message.ts'
import { MessageWriter, Section } from '../../../src/dns/wire/writer.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { bindSkip } from '../../helpers/named.ts'
import { startResolverWorld, type ResolverWorld } from '../../helpers/resolver-world.ts'

interface FakeServer { port: number, received: Array<{ at: number, query: Message }>, close (): void }

/** A UDP server on 127.0.0.1 answering each query with what `reply` makes (nothing when it gives undefined). */
async function fakeServer (reply: (q: Message, send: (bytes: Uint8Array) => void) => void): Promise<FakeServer> {
  const socket: Socket = createSocket('udp4')
  const received: FakeServer['received'] = []
  socket.on('message', (msg, rinfo) => {
    const query = decodeMessage(msg)
    received.push({ at: performance.now(), query })
    reply(query, bytes => socket.send(bytes, rinfo.port, rinfo.address))
  })
  await new Promise<void>(resolve => socket.bind(0, '127.0.0.1', resolve))
  return { port: socket.address().port, received, close: () => socket.close() }
}

/** A response to `q`: its id (or `id`), its question (or `qname`), `rcode`, a CNAME answer, EDE options. */
function response (q: Message, opts: { rcode?: number, id?: number, qname?: string, cname?: string, ede?: Array<{ code: number, text: string }> } = {}): Uint8Array {
  const w = new MessageWriter(1232)
  w.header({ id: opts.id ?? q.id, qr: true, opcode: 0, aa: false, tc: false, rd: true, ra: true, ad: false, cd: false, rcode: opts.rcode ?? 0 })
  const question = { ...q.questions[0]!, ...(opts.qname === undefined ? {} : { name: parseName(opts.qname) }) }
  w.question(question)
  if (opts.cname !== undefined) w.record(Section.Answer, { name: question.name, type: RRType.CNAME, class: 1, ttl: 60, rdata: parseName(opts.cname) })
  const options = (opts.ede ?? []).map(e => {
    const text = Buffer.from(e.text)
    const data = new Uint8Array(2 + text.length)
    data[0] = e.code >> 8
    data[1] = e.code & 0xff
    data.set(text, 2)
    return { code: 15, data }
  })
  w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: false, options })
  return w.finish()
}

describe('RecursiveClient against fake servers', () => {
  const servers: FakeServer[] = []
  const clients: RecursiveClient[] = []
  after(async () => {
    for (const c of clients) await c.close()
    for (const s of servers) s.close()
  })
  const serve = async (reply: Parameters<typeof fakeServer>[0]): Promise<FakeServer> => { const s = await fakeServer(reply); servers.push(s); return s }
  const clientOf = (ports: number[], opts: ConstructorParameters<typeof RecursiveClient>[1] = {}): RecursiveClient => {
    const c = new RecursiveClient(ports.map(port => ({ host: '127.0.0.1', port })), opts)
    clients.push(c)
    return c
  }

  it('asks with RD and an OPT record, and reads Extended DNS Errors of a SERVFAIL', async () => {
    const s = await serve((q, send) => send(response(q, { rcode: 2, ede: [{ code: 22, text: 'no server of example.test. answered' }] })))
    const answer = await clientOf([s.port]).query(parseName('www.example.test.'), RRType.CNAME)
    assert.equal(answer.rcode, 2)
    assert.deepEqual(answer.extendedErrors, [{ code: 22, text: 'no server of example.test. answered' }])
    assert.equal(answer.server, `127.0.0.1:${s.port}`)
    const q = s.received[0]!.query
    assert.equal(q.rd, true)
    assert.equal(q.edns?.udpSize, 1232)
    assert.equal(nameToString(q.questions[0]!.name), 'www.example.test.')
    assert.equal(q.questions[0]!.type, RRType.CNAME)
  })

  it('ignores answers with another id or another question, and takes the matching one', async () => {
    const s = await serve((q, send) => {
      send(response(q, { id: (q.id + 1) & 0xffff, cname: 'wrong-id.test.' }))
      send(response(q, { qname: 'other.example.test.', cname: 'wrong-question.test.' }))
      setTimeout(() => send(response(q, { cname: 'right.test.' })), 20)
    })
    const answer = await clientOf([s.port]).query(parseName('www.example.test.'), RRType.CNAME)
    assert.equal(answer.answers.length, 1)
    assert.equal(nameToString(answer.answers[0]!.rdata), 'right.test.')
  })

  it('asks the next resolver when one is silent or refuses, and fails when none answers', async () => {
    const silent = await serve(() => {})
    const refusing = await serve((q, send) => send(response(q, { rcode: 5 })))
    const good = await serve((q, send) => send(response(q, { rcode: 3 })))
    const c = clientOf([silent.port, refusing.port, good.port], { timeoutMs: 100, attempts: 3 })
    assert.equal((await c.query(parseName('a.test.'), RRType.CNAME)).rcode, 3)
    assert.equal(silent.received.length + refusing.received.length + good.received.length, 3)

    const none = clientOf([silent.port, refusing.port], { timeoutMs: 100, attempts: 2 })
    await assert.rejects(none.query(parseName('b.test.'), RRType.CNAME), (err: unknown) => {
      assert.ok(err instanceof ResolverUnavailableError)
      assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${silent.port} did not answer within 100 ms`))
      assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${refusing.port} answered REFUSED`))
      return true
    })
  })

  it('sends a resolver at most its queries per second', async () => {
    const s = await serve((q, send) => send(response(q)))
    const c = clientOf([s.port], { queriesPerSecond: 20 })
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map(async n => await c.query(parseName(`${n}.test.`), RRType.CNAME)))
    const gaps = s.received.slice(1).map((r, i) => r.at - s.received[i]!.at)
    assert.equal(gaps.length, 4)
    for (const gap of gaps) assert.ok(gap >= 45, `queries ${gap.toFixed(1)} ms apart, at 20 per second they are 50 ms apart`)
  })
})

describe('RecursiveClient against a recursive BIND', { skip: bindSkip('named') }, () => {
  let world: ResolverWorld
  let client: RecursiveClient
  before(async () => {
    world = await startResolverWorld()
    client = new RecursiveClient(resolverServers([world.resolvers]))
  })
  after(async () => {
    await client?.close()
    await world?.stop()
  })

  it('gets a CNAME without its chain followed, NXDOMAIN, NODATA and SERVFAIL', async () => {
    const hop = await client.query(parseName('hop1.ext-test.'), RRType.CNAME)
    assert.equal(hop.rcode, 0)
    assert.deepEqual(hop.answers.map(r => [nameToString(r.name), nameToString(r.rdata)]), [['hop1.ext-test.', 'hop2.ext-test.']])
    assert.equal((await client.query(parseName('gone.ext-test.'), RRType.CNAME)).rcode, 3)
    const nodata = await client.query(parseName('exists.ext-test.'), RRType.CNAME)
    assert.deepEqual([nodata.rcode, nodata.answers.length], [0, 0])
    assert.equal((await client.query(parseName('x.nowhere-test.'), RRType.CNAME)).rcode, 2)
  })
})
