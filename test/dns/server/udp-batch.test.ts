/**
 * The batched UDP socket (native/udp-batch): built and used on Linux (a broken build must not
 * hide behind the node:dgram fallback), a burst from several clients read in batches and each
 * reply sent to its own client, IPv6 sources, whole large datagrams both ways, a failing
 * answer that spares the rest of its batch, the port freed at close, SO_REUSEPORT sharing.
 */
import assert from 'node:assert/strict'
import { createSocket, type Socket } from 'node:dgram'
import { once } from 'node:events'
import { describe, it } from 'node:test'
import { BatchUdpSocket, loadUdpBatch, type UdpBatchAddon } from '../../../src/dns/server/udp-batch.ts'
import { listenUdp } from '../../../src/dns/server/udp-listener.ts'
import { exampleIndex, ipv6Unavailable } from '../../helpers/dns-clients.ts'

const linux = process.platform === 'linux'
const noIpv6 = await ipv6Unavailable()

function addon (): UdpBatchAddon {
  const loaded = loadUdpBatch()
  if ('error' in loaded) throw new Error(loaded.error)
  return loaded.addon
}

async function client (family: 4 | 6 = 4): Promise<Socket> {
  const socket = createSocket(family === 6 ? 'udp6' : 'udp4')
  await new Promise<void>(resolve => socket.bind(0, family === 6 ? '::1' : '127.0.0.1', resolve))
  return socket
}

/** The next `n` datagrams `socket` receives. */
async function receive (socket: Socket, n: number): Promise<Buffer[]> {
  const got: Buffer[] = []
  if (n === 0) return got
  return await new Promise(resolve => socket.on('message', (msg) => { if (got.push(msg) === n) resolve(got) }))
}

/** A socket whose answer is the datagram with its first octet set to 0xff, or `answer`'s. */
function echo (host = '127.0.0.1', port = 0, answer?: (request: Buffer, address: string, port: number) => Uint8Array | undefined, errors: unknown[] = [], reusePort = false): BatchUdpSocket {
  const reply = answer ?? ((request: Buffer) => {
    const out = Buffer.from(request)
    out[0] = 0xff
    return out
  })
  return new BatchUdpSocket(addon(), host, port, host.includes(':'), reusePort, reply, err => errors.push(err))
}

describe('the batched UDP socket', { skip: linux ? false : `no recvmmsg/sendmmsg on ${process.platform}` }, () => {
  it('is built and loads here (npm install builds native/udp-batch), and listenUdp uses it unless told not to', async () => {
    const loaded = loadUdpBatch()
    assert.ok('addon' in loaded, 'error' in loaded ? loaded.error : '')
    const batched = await listenUdp('127.0.0.1', 0, { index: exampleIndex() }, () => {})
    const plain = await listenUdp('127.0.0.1', 0, { index: exampleIndex() }, () => {}, undefined, false, false)
    try {
      assert.ok(batched instanceof BatchUdpSocket)
      assert.ok(!(plain instanceof BatchUdpSocket))
    } finally {
      batched.close()
      plain.close()
    }
  })

  it('reads a burst from several clients in batches and sends each reply to its own client', async () => {
    const seen: Array<[string, number]> = []
    const server = echo('127.0.0.1', 0, (request, address, port) => {
      seen.push([address, port])
      const out = Buffer.from(request)
      out[0] = 0xff
      return out
    })
    const clients = await Promise.all([client(), client(), client(), client()])
    try {
      const port = server.address().port
      const replies = clients.map(c => receive(c, 16))
      // Sent before the server's thread reads any: they wait in its socket together.
      for (let i = 0; i < 16; i++) {
        for (const [k, c] of clients.entries()) c.send(Buffer.from([0, k, i, 0x42]), port, '127.0.0.1')
      }
      const got = await Promise.all(replies)
      for (const [k, messages] of got.entries()) {
        assert.deepEqual(messages.map(m => [...m]), Array.from({ length: 16 }, (_, i) => [0xff, k, i, 0x42]))
      }
      assert.equal(server.stats.datagrams, 64)
      assert.ok(server.stats.batches < 64, `${server.stats.batches} batches for 64 datagrams`)
      const ports = new Set(clients.map(c => c.address().port))
      assert.ok(seen.every(([address, p]) => address === '127.0.0.1' && ports.has(p)))
    } finally {
      server.close()
      for (const c of clients) c.close()
    }
  })

  it('gives IPv6 sources as text and answers them', { skip: noIpv6 }, async () => {
    const seen: string[] = []
    const server = echo('::1', 0, (request, address) => {
      seen.push(address)
      return request
    })
    const c = await client(6)
    try {
      const reply = receive(c, 1)
      c.send(Buffer.from('hello'), server.address().port, '::1')
      assert.equal((await reply)[0]!.toString(), 'hello')
      assert.deepEqual(seen, ['::1'])
      assert.deepEqual(server.address(), { address: '::1', family: 'IPv6', port: server.address().port })
    } finally {
      server.close()
      c.close()
    }
  })

  it('takes and sends whole large datagrams', async () => {
    let size = 0
    const server = echo('127.0.0.1', 0, (request) => {
      size = request.length
      return Buffer.alloc(60_000, 7)
    })
    const c = await client()
    try {
      const reply = receive(c, 1)
      c.send(Buffer.alloc(65_000, 1), server.address().port, '127.0.0.1')
      assert.equal((await reply)[0]!.length, 60_000)
      assert.equal(size, 65_000)
    } finally {
      server.close()
      c.close()
    }
  })

  it('reports an answer that throws and still answers the rest of its batch', async () => {
    const errors: unknown[] = []
    const server = echo('127.0.0.1', 0, (request) => {
      if (request[0] === 3) throw new Error('boom')
      return request
    }, errors)
    const c = await client()
    try {
      const replies = receive(c, 5)
      for (let i = 0; i < 6; i++) c.send(Buffer.from([i]), server.address().port, '127.0.0.1')
      assert.deepEqual((await replies).map(m => m[0]), [0, 1, 2, 4, 5])
      assert.equal(errors.length, 1)
      assert.match((errors[0] as Error).message, /boom/)
    } finally {
      server.close()
      c.close()
    }
  })

  it('fails to bind a taken port with EADDRINUSE, frees its port at close, and closes once', async () => {
    const server = echo()
    const port = server.address().port
    assert.throws(() => echo('127.0.0.1', port), { code: 'EADDRINUSE', syscall: 'bind' })
    server.close()
    server.close()
    const again = createSocket('udp4')
    again.bind(port, '127.0.0.1')
    await once(again, 'listening')
    again.close()
  })

  it('shares a port with SO_REUSEPORT sockets (batched or node:dgram), as DNS workers do', async () => {
    const first = echo('127.0.0.1', 0, undefined, [], true)
    const port = first.address().port
    const second = echo('127.0.0.1', port, undefined, [], true)
    const plain = createSocket({ type: 'udp4', reusePort: true })
    try {
      plain.bind(port, '127.0.0.1')
      await once(plain, 'listening')
      assert.equal(second.address().port, port)
      assert.throws(() => echo('127.0.0.1', port), { code: 'EADDRINUSE' })
    } finally {
      first.close()
      second.close()
      plain.close()
    }
  })
})
