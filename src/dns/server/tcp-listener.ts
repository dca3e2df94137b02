import { createServer, isIPv6, type Server, type Socket } from 'node:net'
import { handleQuery, type Client, type QueryHandlerOptions } from './handle-query.ts'
import { DEFAULT_TCP_LIMITS, TcpPool, type TcpLimits } from './tcp-pool.ts'

/**
 * DNS over TCP (RFC 7766): two-octet length framing, several queries per connection answered
 * in order, an idle timeout, a connection limit and a per-client limit (see {@link TcpPool}: a
 * full pool closes its longest-idle connection for a new one; a client over its limit has the
 * new connection closed as soon as it is accepted). `transfer` answers AXFR/IXFR requests when
 * given (they may take several messages); other queries go to the query handler. An IPv6
 * listener serves IPv6 only. With `reusePort` several listeners (one per DNS worker thread)
 * share the port and the kernel spreads the connections over them (SO_REUSEPORT). A query's
 * response time (the capture's) counts from the read of the chunk that completed it.
 */
export async function listenTcp (
  host: string,
  port: number,
  opts: QueryHandlerOptions,
  onError: (err: unknown) => void,
  limits: TcpLimits = DEFAULT_TCP_LIMITS,
  transfer?: (request: Uint8Array, socket: Socket, received: number) => Promise<boolean>,
  pool: TcpPool = new TcpPool(limits),
  reusePort = false
): Promise<Server> {
  const server = createServer({ pauseOnConnect: false }, (socket) => {
    const conn = pool.admit(socket)
    if (conn === undefined) {
      socket.destroy()
      return
    }
    socket.once('close', () => pool.release(conn))
    socket.setTimeout(limits.idleMs, () => socket.destroy())
    socket.setNoDelay(true)
    const client: Client = { transport: 'tcp', address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0, family: socket.remoteFamily === 'IPv6' ? 'IPv6' : 'IPv4' }
    let buffer: Buffer = Buffer.alloc(0)
    let busy = Promise.resolve()
    socket.on('data', (chunk: Buffer) => {
      // One clock reading per chunk read: the receipt of every query completed by it.
      const received = performance.now()
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
      let read = false
      while (buffer.length >= 2) {
        const length = buffer.readUInt16BE(0)
        if (buffer.length < 2 + length) break
        const request = buffer.subarray(2, 2 + length)
        buffer = buffer.subarray(2 + length)
        read = true
        pool.busy(conn)
        busy = busy.then(async () => {
          try {
            if (socket.destroyed) return
            if (transfer !== undefined && await transfer(request, socket, received)) return
            const response = handleQuery(request, client, opts, received)
            if (response === undefined) return
            const frame = Buffer.allocUnsafe(2 + response.length)
            frame.writeUInt16BE(response.length, 0)
            frame.set(response, 2)
            socket.write(frame)
          } finally {
            pool.done(conn)
          }
        }).catch((err: unknown) => {
          onError(err)
          socket.destroy()
        })
      }
      if (!read) pool.touch(conn)
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
