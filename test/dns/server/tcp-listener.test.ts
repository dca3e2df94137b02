/**
 * DNS over TCP (RFC 7766) on real loopback sockets: length framing across and within writes,
 * pipelined queries answered in order, the idle timeout, the connection limit (a full pool
 * closes its longest-idle connection for a new one), the per-client limit (clients on other
 * loopback addresses: all of 127/8 is local on Linux), and frames that are empty or garbage.
 */
import assert from 'node:assert/strict'
import type { AddressInfo, Server, Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { listenTcp } from '../../../src/dns/server/tcp-listener.ts'
import { TcpPool, type TcpLimits } from '../../../src/dns/server/tcp-pool.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { answeredOverTcp as answered, exampleIndex, frame, query, TcpClient } from '../../helpers/dns-clients.ts'
import { eventually } from '../../helpers/named.ts'

const pause = async (ms: number): Promise<void> => await new Promise(resolve => setTimeout(resolve, ms))

async function serve (limits: TcpLimits, errors: unknown[], transfer?: (request: Uint8Array, socket: Socket) => Promise<boolean>): Promise<{ server: Server, port: number, pool: TcpPool }> {
  const pool = new TcpPool(limits)
  const server = await listenTcp('127.0.0.1', 0, { index: exampleIndex() }, err => errors.push(err), limits, transfer, pool)
  return { server, port: (server.address() as AddressInfo).port, pool }
}

/**
 * Queries with an id from 1000 up are held in flight (through the transfer hook, which the
 * listener awaits before answering) until {@link Gate.release}; then answered as usual.
 */
class Gate {
  private open: () => void = () => {}
  private readonly opened = new Promise<void>(resolve => { this.open = resolve })
  /** Queries held now. */
  held = 0
  private waiting: (() => void) | undefined

  readonly transfer = async (request: Uint8Array): Promise<boolean> => {
    if (((request[0]! << 8) | request[1]!) < 1000) return false
    this.held++
    this.waiting?.()
    await this.opened
    this.held--
    return false
  }

  /** Resolves once `n` queries are held. */
  async holding (n: number): Promise<void> {
    while (this.held < n) await new Promise<void>(resolve => { this.waiting = resolve })
  }

  release (): void {
    this.open()
  }
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

  it('closes the connection idle the longest (not the oldest) to make room for a new client, and no other', async () => {
    const errors: unknown[] = []
    const { server, port, pool } = await serve({ idleMs: 60_000, maxConnections: 4 }, errors)
    const clients: TcpClient[] = []
    try {
      // The pool filled by four clients, each on its own address, each answered once.
      for (let i = 0; i < 4; i++) {
        const c = await TcpClient.open('127.0.0.1', port, `127.0.0.${i + 1}`)
        clients.push(c)
        assert.ok(await answered(c, 10 + i))
      }
      // The first opened asks again: the second is now the one idle the longest.
      assert.ok(await answered(clients[0]!, 20))
      const newcomer = await TcpClient.open('127.0.0.1', port, '127.0.0.9')
      assert.ok(await answered(newcomer, 21), 'the new client is answered')
      await clients[1]!.waitClosed()
      for (const i of [0, 2, 3]) assert.ok(await answered(clients[i]!, 30 + i), `client ${i} is still served`)
      assert.equal(pool.evicted, 1)
      assert.equal(pool.open, 4)
      clients.push(newcomer)
    } finally {
      for (const c of clients) c.close()
      await stop(server)
    }
    assert.deepEqual(errors, [])
  })

  it('never closes a connection with a query in flight: with every one busy, the new one is closed', async () => {
    const errors: unknown[] = []
    const gate = new Gate()
    const { server, port, pool } = await serve({ idleMs: 60_000, maxConnections: 2 }, errors, gate.transfer)
    const clients: TcpClient[] = []
    const open = async (n: number): Promise<TcpClient> => {
      const c = await TcpClient.open('127.0.0.1', port, `127.0.0.${n}`)
      clients.push(c)
      return c
    }
    try {
      const busy = await open(1)
      const idle = await open(2)
      assert.ok(await answered(idle, 1))
      busy.write(frame(query(1001, 'example.org.', 'A')))
      await gate.holding(1)
      // The connection opened first is busy: the idle one makes room.
      const second = await open(3)
      await idle.waitClosed()
      second.write(frame(query(1002, 'example.org.', 'A')))
      await gate.holding(2)
      // Both busy: nothing to close, so the newcomer is.
      const third = await open(4)
      assert.equal(await answered(third, 3), false, 'the third connection is closed unanswered')
      assert.equal(pool.refused, 1)
      gate.release()
      assert.equal(decodeMessage((await busy.next())!).id, 1001)
      assert.equal(decodeMessage((await second.next())!).id, 1002)
      // Idle again: a new client takes the place of the one answered first.
      const fourth = await open(5)
      assert.ok(await answered(fourth, 4))
      await busy.waitClosed()
      assert.ok(await answered(second, 5))
    } finally {
      for (const c of clients) c.close()
      await stop(server)
    }
    assert.deepEqual(errors, [])
  })

  it('never closes a connection with a response left to send, though idle the longest', async () => {
    const errors: unknown[] = []
    let stuck: (() => void) | undefined
    const written = new Promise<void>(resolve => { stuck = resolve })
    // A query with id 2000 is answered with 32 MiB at once: more than the kernel buffers hold
    // while the client does not read, so the rest waits in the server's socket.
    const transfer = async (request: Uint8Array, socket: Socket): Promise<boolean> => {
      if (((request[0]! << 8) | request[1]!) !== 2000) return false
      socket.write(Buffer.alloc(32 << 20))
      assert.ok(socket.writableLength > 0)
      stuck!()
      return true
    }
    const { server, port, pool } = await serve({ idleMs: 60_000, maxConnections: 2 }, errors, transfer)
    const clients: TcpClient[] = []
    try {
      const slow = await TcpClient.open('127.0.0.1', port, '127.0.0.1')
      clients.push(slow)
      slow.socket.pause()
      slow.write(frame(query(2000, 'example.org.', 'AXFR')))
      await written
      const idle = await TcpClient.open('127.0.0.1', port, '127.0.0.2')
      clients.push(idle)
      assert.ok(await answered(idle, 1))
      const newcomer = await TcpClient.open('127.0.0.1', port, '127.0.0.3')
      clients.push(newcomer)
      assert.ok(await answered(newcomer, 2))
      await idle.waitClosed()
      assert.ok(slow.isOpen, 'the connection still sending is kept')
      assert.equal(pool.evicted, 1)
    } finally {
      for (const c of clients) c.close()
      await stop(server)
    }
    assert.deepEqual(errors, [])
  })

  it('holds one client to its own limit, so another client is still answered', async () => {
    const errors: unknown[] = []
    const { server, port, pool } = await serve({ idleMs: 60_000, maxConnections: 10, maxPerClient: 3 }, errors)
    const clients: TcpClient[] = []
    try {
      // One client opens more connections than the whole pool holds, one after the other.
      const outcomes: boolean[] = []
      for (let i = 0; i < 12; i++) {
        const c = await TcpClient.open('127.0.0.1', port, '127.0.0.1')
        clients.push(c)
        outcomes.push(await answered(c, 100 + i))
      }
      assert.deepEqual(outcomes, [true, true, true, ...Array<boolean>(9).fill(false)], 'its first three are answered, the rest closed')
      const other = await TcpClient.open('127.0.0.1', port, '127.0.0.2')
      clients.push(other)
      assert.ok(await answered(other, 200), 'another client is answered')
      // Its first connections still work; a place freed is its again.
      for (let i = 0; i < 3; i++) assert.ok(await answered(clients[i]!, 300 + i))
      assert.equal(pool.evicted, 0)
      clients[0]!.close()
      await eventually(async () => pool.open === 3, 5000, 'the server saw the close')
      const again = await TcpClient.open('127.0.0.1', port, '127.0.0.1')
      clients.push(again)
      assert.ok(await answered(again, 400))
    } finally {
      for (const c of clients) c.close()
      await stop(server)
    }
    assert.deepEqual(errors, [])
  })
})
