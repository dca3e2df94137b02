import { createServer, isIPv6, type Server, type Socket } from 'node:net'
import { handleQuery, type Client, type QueryHandlerOptions } from './handle-query.ts'

export interface TcpLimits {
  /** Idle time before a connection is closed (RFC 7766 §6.2.3 suggests seconds). */
  idleMs: number
  /** Connections open at once, over every listener sharing one {@link TcpConnections}. */
  maxConnections: number
}

export const DEFAULT_TCP_LIMITS: TcpLimits = { idleMs: 10_000, maxConnections: 1000 }

/** The open connections that count against the limit; one shared object for all listeners. */
export interface TcpConnections {
  open: number
}

/**
 * DNS over TCP (RFC 7766): two-octet length framing, several queries per connection answered
 * in order, an idle timeout and a connection limit (a connection over the limit is closed as
 * soon as it is accepted). `transfer` answers AXFR/IXFR requests when given (they may take
 * several messages); other queries go to the query handler. An IPv6 listener serves IPv6 only.
 * With `reusePort` several listeners (one per DNS worker thread) share the port and the kernel
 * spreads the connections over them (SO_REUSEPORT).
 */
export async function listenTcp (
  host: string,
  port: number,
  opts: QueryHandlerOptions,
  onError: (err: unknown) => void,
  limits: TcpLimits = DEFAULT_TCP_LIMITS,
  transfer?: (request: Uint8Array, socket: Socket) => Promise<boolean>,
  connections: TcpConnections = { open: 0 },
  reusePort = false
): Promise<Server> {
  const server = createServer({ pauseOnConnect: false }, (socket) => {
    if (connections.open >= limits.maxConnections) {
      socket.destroy()
      return
    }
    connections.open++
    socket.once('close', () => { connections.open-- })
    socket.setTimeout(limits.idleMs, () => socket.destroy())
    socket.setNoDelay(true)
    const client: Client = { transport: 'tcp', address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0, family: socket.remoteFamily === 'IPv6' ? 'IPv6' : 'IPv4' }
    let buffer: Buffer = Buffer.alloc(0)
    let busy = Promise.resolve()
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
      while (buffer.length >= 2) {
        const length = buffer.readUInt16BE(0)
        if (buffer.length < 2 + length) break
        const request = buffer.subarray(2, 2 + length)
        buffer = buffer.subarray(2 + length)
        busy = busy.then(async () => {
          if (socket.destroyed) return
          if (transfer !== undefined && await transfer(request, socket)) return
          const response = handleQuery(request, client, opts)
          if (response === undefined) return
          const frame = Buffer.allocUnsafe(2 + response.length)
          frame.writeUInt16BE(response.length, 0)
          frame.set(response, 2)
          socket.write(frame)
        }).catch((err: unknown) => {
          onError(err)
          socket.destroy()
        })
      }
    })
    socket.on('error', () => socket.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port, host, ipv6Only: isIPv6(host), reusePort }, () => {
      server.off('error', reject)
      resolve()
    })
  })
  server.on('error', onError)
  return server
}
