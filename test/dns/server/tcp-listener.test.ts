/**
 * DNS over TCP (RFC 7766) on real loopback sockets: length framing across and within writes,
 * pipelined queries answered in order, the idle timeout, the connection limit, and frames that
 * are empty or garbage.
 */
import assert from 'node:assert/strict'
import type { AddressInfo, Server } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { listenTcp, type TcpLimits } from '../../../src/dns/server/tcp-listener.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { exampleIndex, frame, query, TcpClient } from '../../helpers/dns-clients.ts'

const pause = async (ms: number): Promise<void> => await new Promise(resolve => setTimeout(resolve, ms))

async function serve (limits: TcpLimits, errors: unknown[]): Promise<{ server: Server, port: number }> {
  const server = await listenTcp('127.0.0.1', 0, { index: exampleIndex() }, err => errors.push(err), limits)
  return { server, port: (server.address() as AddressInfo).port }
}

async function stop (server: Server): Promise<void> {
  await new Promise<void>(resolve => server.close(() => resolve()))
}

describe('TCP listener framing', () => {
  const errors: unknown[] = []
  let server: Server
  let port: number
  const clients: TcpClient[] = []
  const open = async (): Promise<TcpClient> => {
    const c = await TcpClient.open('127.0.0.1', port)
    clients.push(c)
    return c
  }

  before(async () => ({ server, port } = await serve({ idleMs: 60_000, maxConnections: 100 }, errors)))
  after(async () => {
    for (const c of clients) c.close()
    await stop(server)
    assert.deepEqual(errors, [])
  })

  it('answers several queries sent in one write, in the order asked', async () => {
    const c = await open()
    const names = ['example.org.', 'ns1.example.org.', 'nothing.example.org.', 'mail.example.org.']
    c.write(Buffer.concat(names.map((name, i) => frame(query(100 + i, name, 'A')))))
    for (let i = 0; i < names.length; i++) {
      const reply = decodeMessage((await c.next())!)
      assert.equal(reply.id, 100 + i)
      assert.equal(reply.rcode, names[i] === 'nothing.example.org.' ? 3 : 0)
    }
  })

  it('reassembles a query split over several writes, the two-octet length included', async () => {
    const c = await open()
    const bytes = frame(query(7, 'mail.example.org.', 'A'))
    // One octet of the length, then the other, then the message in two pieces.
    for (const piece of [bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2, 10), bytes.subarray(10)]) {
      c.write(piece)
      await pause(20)
    }
    const reply = decodeMessage((await c.next())!)
    assert.equal(reply.id, 7)
    assert.equal(reply.answers.length, 1)
    assert.deepEqual([...reply.answers[0]!.rdata], [192, 0, 2, 25])
  })

  it('reads a second query that starts in the write that ends the first', async () => {
    const c = await open()
    const both = Buffer.concat([frame(query(1, 'example.org.', 'SOA')), frame(query(2, 'example.org.', 'NS'))])
    c.write(both.subarray(0, 20))
    await pause(20)
    c.write(both.subarray(20, both.length - 5))
    await pause(20)
    c.write(both.subarray(both.length - 5))
    assert.equal(decodeMessage((await c.next())!).id, 1)
    assert.equal(decodeMessage((await c.next())!).id, 2)
  })

  it('survives a zero-length frame and a garbage frame, and answers the next query on the same connection', async () => {
    const c = await open()
    // A header that promises a question the frame does not hold: FORMERR with the same id.
    const garbage = Buffer.from([0x12, 0x34, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3f, 0x61, 0x62])
    c.write(Buffer.concat([Buffer.from([0, 0]), frame(garbage), frame(Buffer.from('not a dns message at all')), frame(query(3, 'example.org.', 'A'))]))
    const formerr = decodeMessage((await c.next())!)
    assert.equal(formerr.id, 0x1234)
    assert.equal(formerr.rcode, 1)
    let reply = decodeMessage((await c.next())!)
    // The text frame reads as a header; whatever it is answered (or not), the query comes next.
    if (reply.id !== 3) reply = decodeMessage((await c.next())!)
    assert.equal(reply.id, 3)
    assert.equal(reply.rcode, 0)
    const other = await open()
    other.write(frame(query(4, 'example.org.', 'A')))
    assert.equal(decodeMessage((await other.next())!).id, 4)
  })
})

describe('TCP listener limits', () => {
  it('closes a connection that stays idle longer than the idle timeout', async () => {
    const errors: unknown[] = []
    const { server, port } = await serve({ idleMs: 150, maxConnections: 10 }, errors)
    try {
      const silent = await TcpClient.open('127.0.0.1', port)
      await silent.waitClosed()
      const used = await TcpClient.open('127.0.0.1', port)
      used.write(frame(query(5, 'example.org.', 'A')))
      assert.equal(decodeMessage((await used.next())!).id, 5)
      assert.equal(await used.next(), undefined, 'closed once idle after its answer')
    } finally {
      await stop(server)
    }
    assert.deepEqual(errors, [])
  })

  it('closes the connection over the limit while the others are open, and accepts again once one closes', async () => {
    const errors: unknown[] = []
    const { server, port } = await serve({ idleMs: 60_000, maxConnections: 2 }, errors)
    const clients: TcpClient[] = []
    try {
      for (let i = 0; i < 2; i++) {
        const c = await TcpClient.open('127.0.0.1', port)
        clients.push(c)
        c.write(frame(query(10 + i, 'example.org.', 'A')))
        assert.equal(decodeMessage((await c.next())!).id, 10 + i)
      }
      const third = await TcpClient.open('127.0.0.1', port)
      clients.push(third)
      third.write(frame(query(12, 'example.org.', 'A')))
      assert.equal(await third.next(), undefined, 'the third connection is closed unanswered')
      await third.waitClosed()
      // The first two still work.
      clients[0]!.write(frame(query(13, 'example.org.', 'A')))
      assert.equal(decodeMessage((await clients[0]!.next())!).id, 13)
      clients[1]!.close()
      await clients[1]!.waitClosed()
      // The server learns of the close asynchronously: try until a connection is accepted.
      let answered = false
      for (let attempt = 0; attempt < 50 && !answered; attempt++) {
        const c = await TcpClient.open('127.0.0.1', port)
        clients.push(c)
        c.write(frame(query(14, 'example.org.', 'A')))
        const reply = await c.next()
        answered = reply !== undefined && decodeMessage(reply).id === 14
        if (!answered) await pause(20)
      }
      assert.ok(answered, 'a new connection is served once one of the two closed')
    } finally {
      for (const c of clients) c.close()
      await stop(server)
    }
    assert.deepEqual(errors, [])
  })
})
