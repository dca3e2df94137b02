import { createSocket, type Socket as UdpSocket } from 'node:dgram'
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * Probe targets for tests, on loopback addresses the test picks (127.0.0.x): servers whose
 * behaviour the test switches between up, down (closed), hanging and answering wrongly.
 */

export type HttpMode = 'up' | 'error' | 'wrong-body' | 'hang' | 'redirect'

/** An HTTP server: `up` answers 200 with "healthy"; `error` 500; `wrong-body` 200 without it; `hang` never answers. */
export class HttpTarget {
  mode: HttpMode = 'up'
  readonly requests: Array<{ method: string, url: string, host: string, body: string }> = []
  private server: HttpServer | undefined
  port = 0
  readonly host: string

  constructor (host: string) {
    this.host = host
  }

  async start (port = 0): Promise<this> {
    const server = createHttpServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => { body += c.toString() })
      req.on('end', () => {
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '', body })
        if (this.mode === 'hang') return
        if (this.mode === 'redirect' && req.url !== '/moved') {
          res.writeHead(302, { location: '/moved' }).end()
          return
        }
        res.writeHead(this.mode === 'error' ? 500 : 200, { 'content-type': 'text/plain' })
        res.end(this.mode === 'wrong-body' ? 'maintenance page' : 'status: healthy')
      })
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, this.host, () => resolve())
    })
    this.server = server
    this.port = (server.address() as AddressInfo).port
    return this
  }

  /** Close the server (the port refuses connections); `start(port)` opens it again. */
  async stop (): Promise<void> {
    const s = this.server
    this.server = undefined
    if (s === undefined) return
    s.closeAllConnections()
    await new Promise<void>(resolve => s.close(() => resolve()))
  }
}

/** A TCP listener that accepts and holds connections. */
export class TcpTarget {
  private server: TcpServer | undefined
  private readonly sockets = new Set<Socket>()
  port = 0
  readonly host: string

  constructor (host: string) {
    this.host = host
  }

  async start (port = 0, onConnection?: (socket: Socket) => void): Promise<this> {
    const server = createTcpServer((socket) => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
      socket.on('error', () => {})
      onConnection?.(socket)
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, this.host, () => resolve())
    })
    this.server = server
    this.port = (server.address() as AddressInfo).port
    return this
  }

  async stop (): Promise<void> {
    const s = this.server
    this.server = undefined
    if (s === undefined) return
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>(resolve => s.close(() => resolve()))
  }
}

/** A line-protocol server (SMTP, FTP): `reply(line)` gives the lines to answer each command with. */
export async function lineServer (host: string, greeting: string, reply: (line: string) => string | undefined): Promise<TcpTarget> {
  const target = new TcpTarget(host)
  return await target.start(0, (socket) => {
    socket.write(`${greeting}\r\n`)
    let buffer = ''
    socket.on('data', (c: Buffer) => {
      buffer += c.toString('latin1')
      let nl: number
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '')
        buffer = buffer.slice(nl + 1)
        const answer = reply(line)
        if (answer !== undefined) socket.write(`${answer}\r\n`)
      }
    })
  })
}

export type DnsMode = 'ok' | 'servfail' | 'wrong' | 'hang'

/**
 * A tiny UDP DNS responder: answers every question with one A record (192.0.2.1 when `ok`,
 * 192.0.2.66 when `wrong`), SERVFAIL, or nothing (`hang`).
 */
export class DnsTarget {
  mode: DnsMode = 'ok'
  queries = 0
  private socket: UdpSocket | undefined
  port = 0
  readonly host: string

  constructor (host: string) {
    this.host = host
  }

  async start (): Promise<this> {
    const socket = createSocket('udp4')
    socket.on('message', (msg, rinfo) => {
      this.queries++
      if (this.mode === 'hang' || msg.length < 12) return
      let end = 12
      while (end < msg.length && msg[end] !== 0) end += msg[end]! + 1
      end += 5
      const question = msg.subarray(12, end)
      const header = Buffer.alloc(12)
      msg.copy(header, 0, 0, 2)
      const rcode = this.mode === 'servfail' ? 2 : 0
      header.writeUInt16BE(0x8400 | rcode, 2)
      header.writeUInt16BE(1, 4)
      header.writeUInt16BE(rcode === 0 ? 1 : 0, 6)
      const answer = rcode === 0
        ? Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, this.mode === 'wrong' ? 66 : 1])
        : Buffer.alloc(0)
      socket.send(Buffer.concat([header, question, answer]), rinfo.port, rinfo.address)
    })
    await new Promise<void>((resolve) => socket.bind(0, this.host, () => resolve()))
    this.socket = socket
    this.port = socket.address().port
    return this
  }

  async stop (): Promise<void> {
    const s = this.socket
    this.socket = undefined
    if (s !== undefined) await new Promise<void>(resolve => s.close(() => resolve()))
  }
}

/** A port on `host` where nothing listens (opened, then closed). */
export async function closedPort (host: string): Promise<number> {
  const t = await new TcpTarget(host).start()
  const port = t.port
  await t.stop()
  return port
}
