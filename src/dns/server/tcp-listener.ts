import { createServer, type Server, type Socket } from 'node:net'
import { handleQuery, type Client, type QueryHandlerOptions } from './handle-query.ts'

export interface TcpLimits {
  /** Idle time before a connection is closed (RFC 7766 §6.2.3 suggests seconds). */
  idleMs: number
  maxConnections: number
}

export const DEFAULT_TCP_LIMITS: TcpLimits = { idleMs: 10_000, maxConnections: 1000 }

/**
 * DNS over TCP (RFC 7766): two-octet length framing, several queries per connection answered
 * in order, an idle timeout and a connection limit. `transfer` answers AXFR/IXFR requests
 * when given (they may take several messages); other queries go to the query handler.
 */
export async function listenTcp (
  host: string,
  port: number,
  opts: QueryHandlerOptions,
  onError: (err: unknown) => void,
  limits: TcpLimits = DEFAULT_TCP_LIMITS,
  transfer?: (request: Uint8Array, socket: Socket) => Promise<boolean>
): Promise<Server> {
  const server = createServer({ pauseOnConnect: false }, (socket) => {
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
  server.maxConnections = limits.maxConnections
  server.on('error', onError)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return server
}
