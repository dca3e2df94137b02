/**
 * DNS test clients over real loopback sockets (UDP and TCP: one-shot exchanges and clients
 * kept open), a small in-memory zone index, and the check whether IPv6 loopback can be bound here.
 */
import assert from 'node:assert/strict'
import { createSocket, type Socket as UdpSocket } from 'node:dgram'
import { connect, createServer, isIPv6, type Socket } from 'node:net'
import { ZoneData } from '../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { parseTypeName } from '../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'

export const ZONE = `$ORIGIN example.org.
$TTL 3600
@     IN SOA  ns1 hostmaster 2024010101 7200 3600 1209600 300
@     IN NS   ns1
@     IN A    192.0.2.1
ns1   IN A    192.0.2.53
mail  IN A    192.0.2.25
gone  IN CNAME missing
sub   IN NS   ns.elsewhere.example.net.
`

/**
 * `example.org.` with owners and rdata names in mixed case (CNAME chains, a DNAME, a delegation
 * with glue, SRV, MX), and with wildcards when asked (their answers' case differs between
 * servers: RFC 4592 leaves it open).
 */
export function mixedCaseZone (wildcards: boolean): string {
  return `$ORIGIN example.org.
$TTL 3600
@            IN SOA   ns1 hostmaster 2024010101 7200 3600 1209600 300
@            IN NS    ns1
@            IN NS    NS2.Example.Net.
@            IN MX    10 Mail
mail         IN A     192.0.2.25
ns1          IN A     192.0.2.53
Www          IN CNAME Web
web          IN A     192.0.2.80
MiXeD        IN A     192.0.2.44
c1           IN CNAME C2
c2           IN CNAME Www
OLD          IN DNAME New
x.new        IN A     192.0.2.7
${wildcards ? '*.Wild       IN A     192.0.2.9\n*.wild2      IN CNAME Web\n' : ''}Sub          IN NS    ns.SUB
ns.sub       IN A     192.0.2.200
_sip._tcp    IN SRV   10 5 5060 Mail
`
}

/** An index serving `example.org.` from {@link ZONE}. */
export function exampleIndex (): ZoneIndex {
  const origin = parseName('example.org.')
  const { records, problems } = parseZoneText(ZONE, { origin, includes: 'refuse' })
  assert.deepEqual(problems, [])
  const index = new ZoneIndex()
  index.set(ZoneData.from(origin, 2024010101, 1, records))
  return index
}

/** A query message (no EDNS unless asked). */
export function query (id: number, name: string, type: string, edns = false): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type: parseTypeName(type)!, class: 1 })
  if (edns) w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: false, options: [] })
  return w.finish()
}

/** The message as a TCP frame (RFC 1035 §4.2.2: two-octet length first). */
export function frame (message: Uint8Array): Buffer {
  const out = Buffer.alloc(2 + message.length)
  out.writeUInt16BE(message.length, 0)
  out.set(message, 2)
  return out
}

/** Fail a test that waits forever (a safety net, not a timing assertion). */
function guard<T> (promise: Promise<T>, what: string, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what}`)), ms)
  })
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer))
}

/** A TCP connection whose incoming frames are read one by one. */
export class TcpClient {
  readonly socket: Socket
  private buffer = Buffer.alloc(0)
  private readonly frames: Buffer[] = []
  private waiting: (() => void) | undefined
  /** Resolves when the server (or anyone) closes the connection. */
  readonly closed: Promise<void>
  private isClosed = false

  private constructor (socket: Socket) {
    this.socket = socket
    socket.setNoDelay(true)
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk])
      while (this.buffer.length >= 2 && this.buffer.length >= 2 + this.buffer.readUInt16BE(0)) {
        const length = this.buffer.readUInt16BE(0)
        this.frames.push(this.buffer.subarray(2, 2 + length))
        this.buffer = this.buffer.subarray(2 + length)
      }
      this.wake()
    })
    socket.on('error', () => {})
    this.closed = new Promise(resolve => socket.once('close', () => {
      this.isClosed = true
      this.wake()
      resolve()
    }))
  }

  private wake (): void {
    const w = this.waiting
    this.waiting = undefined
    w?.()
  }

  /** `localAddress` picks the client's own address (127.0.0.2 and so on: all of 127/8 is local on Linux). */
  static async open (host: string, port: number, localAddress?: string): Promise<TcpClient> {
    const socket = connect({ host, port, ...(localAddress === undefined ? {} : { localAddress }) })
    await guard(new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve)
      socket.once('error', reject)
    }), 'the TCP connection')
    return new TcpClient(socket)
  }

  write (bytes: Uint8Array): void {
    this.socket.write(bytes)
  }

  /** The next response frame, or undefined when the connection closed first. */
  async next (): Promise<Buffer | undefined> {
    return await guard((async () => {
      for (;;) {
        const f = this.frames.shift()
        if (f !== undefined) return f
        if (this.isClosed) return undefined
        await new Promise<void>(resolve => { this.waiting = resolve })
      }
    })(), 'a TCP response')
  }

  async waitClosed (): Promise<void> {
    await guard(this.closed, 'the server to close the connection')
  }

  /** Whether the connection has closed (as far as this side knows now). */
  get isOpen (): boolean {
    return !this.isClosed
  }

  close (): void {
    this.socket.destroy()
  }
}

/** A UDP client socket that collects the decoded id and bytes of every reply. */
export class UdpClient {
  readonly socket: UdpSocket
  readonly replies: Buffer[] = []
  private waiting: (() => void) | undefined

  private constructor (socket: UdpSocket) {
    this.socket = socket
    socket.on('message', (msg) => {
      this.replies.push(msg)
      const w = this.waiting
      this.waiting = undefined
      w?.()
    })
  }

  static async open (family: 4 | 6 = 4): Promise<UdpClient> {
    const socket = createSocket(family === 6 ? 'udp6' : 'udp4')
    await new Promise<void>(resolve => socket.bind(0, family === 6 ? '::1' : '127.0.0.1', resolve))
    return new UdpClient(socket)
  }

  send (message: Uint8Array, port: number, host = '127.0.0.1'): void {
    this.socket.send(message, port, host)
  }

  /** Wait for the reply with this id (replies to a burst arrive in order on loopback). */
  async replyTo (id: number): Promise<Buffer> {
    return await guard((async () => {
      for (;;) {
        const found = this.replies.find(r => r.readUInt16BE(0) === id)
        if (found !== undefined) return found
        await new Promise<void>(resolve => { this.waiting = resolve })
      }
    })(), `the UDP reply to query ${id}`)
  }

  /** One query, its decoded reply. */
  async ask (message: Uint8Array, port: number, host = '127.0.0.1'): Promise<ReturnType<typeof decodeMessage>> {
    this.send(message, port, host)
    return decodeMessage(await this.replyTo((message[0]! << 8) | message[1]!))
  }

  close (): void {
    this.socket.close()
  }
}

/** Why IPv6 tests are skipped, or false when `::1` can be bound (UDP and TCP) on this machine. */
export async function ipv6Unavailable (): Promise<string | false> {
  const host = '::1'
  assert.ok(isIPv6(host))
  try {
    await new Promise<void>((resolve, reject) => {
      const s = createSocket({ type: 'udp6', ipv6Only: true })
      s.once('error', reject)
      s.bind(0, host, () => { s.close(); resolve() })
    })
    await new Promise<void>((resolve, reject) => {
      const t = createServer()
      t.once('error', reject)
      t.listen({ port: 0, host, ipv6Only: true }, () => t.close(() => resolve()))
    })
    return false
  } catch (err) {
    return `::1 cannot be bound on this machine (${(err as Error).message})`
  }
}

/** What came back, and the port the client sent from (so a test can match it with the server's view). */
export interface Exchange {
  reply: Buffer
  localPort: number
}

/**
 * One request over UDP to host:port (loopback only); rejects when nothing comes back within `ms`.
 * `from`: the source address (another loopback address, 127.0.0.2 say; the host by default).
 */
export async function udpExchange (host: '127.0.0.1' | '::1', port: number, request: Uint8Array, ms = 2000, from: string = host): Promise<Exchange> {
  const socket = createSocket(host === '::1' ? 'udp6' : 'udp4')
  try {
    await new Promise<void>(resolve => socket.bind(0, from, resolve))
    const reply = new Promise<Buffer>((resolve, reject) => {
      socket.once('message', resolve)
      setTimeout(() => reject(new Error('no answer over UDP')), ms).unref()
    })
    socket.send(request, port, host)
    return { reply: await reply, localPort: socket.address().port }
  } finally {
    socket.close()
  }
}

/** One request over TCP (RFC 7766 length framing) to host:port (loopback only), from `from` (the host by default). */
export async function tcpExchange (host: '127.0.0.1' | '::1', port: number, request: Uint8Array, ms = 2000, from: string = host): Promise<Exchange> {
  const socket = connect({ host, port, localAddress: from })
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve)
      socket.once('error', reject)
    })
    const frame = Buffer.alloc(2 + request.length)
    frame.writeUInt16BE(request.length, 0)
    frame.set(request, 2)
    const reply = new Promise<Buffer>((resolve, reject) => {
      let buffer = Buffer.alloc(0)
      socket.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk])
        if (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) resolve(buffer.subarray(2, 2 + buffer.readUInt16BE(0)))
      })
      socket.once('error', reject)
      setTimeout(() => reject(new Error('no answer over TCP')), ms).unref()
    })
    socket.write(frame)
    return { reply: await reply, localPort: socket.localPort! }
  } finally {
    socket.destroy()
  }
}

/** Ask for example.org. A on `c`: true when answered, false when the server closed the connection instead. */
export async function answeredOverTcp (c: TcpClient, id: number): Promise<boolean> {
  c.write(frame(query(id, 'example.org.', 'A')))
  const reply = await c.next()
  if (reply === undefined) return false
  assert.equal(decodeMessage(reply).id, id)
  return true
}
