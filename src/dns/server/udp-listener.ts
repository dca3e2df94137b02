import { createSocket, type Socket } from 'node:dgram'
import { isIPv6 } from 'node:net'
import { handleQuery, type QueryHandlerOptions } from './handle-query.ts'
import type { ResponseRateLimiter } from './rate-limiter.ts'

/**
 * A UDP listener: each datagram is one query, answered from memory. A query that makes the
 * handler throw is logged and dropped; the socket keeps serving. With a rate limiter, each
 * response passes through it (and may be dropped or sent truncated). An IPv6 socket serves
 * IPv6 only, so `::` and `0.0.0.0` can be bound side by side. With `reusePort` several sockets
 * (one per DNS worker thread) share the port and the kernel spreads the datagrams over them.
 */
export async function listenUdp (host: string, port: number, opts: QueryHandlerOptions, onError: (err: unknown) => void, limiter?: ResponseRateLimiter, reusePort = false): Promise<Socket> {
  const family = isIPv6(host) ? 6 : 4
  // Replies go to the address a query came from, always an IP literal: answering the socket's
  // address lookup at once spares every send the default lookup's deferred callback.
  const lookup = (address: string, _options: unknown, callback: (err: Error | null, address: string, family: number) => void): void => callback(null, address, family)
  const socket = createSocket(family === 6 ? { type: 'udp6', ipv6Only: true, lookup, reusePort } : { type: 'udp4', lookup, reusePort })
  socket.on('message', (msg, rinfo) => {
    try {
      let response = handleQuery(msg, { transport: 'udp', address: rinfo.address, port: rinfo.port, family: rinfo.family === 'IPv6' ? 'IPv6' : 'IPv4' }, opts)
      if (response !== undefined && limiter !== undefined) response = limiter.limit(response, rinfo.address)
      if (response !== undefined) socket.send(response, rinfo.port, rinfo.address)
    } catch (err) {
      onError(err)
    }
  })
  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error): void => {
      socket.close()
      reject(err)
    }
    socket.once('error', failed)
    socket.bind(port, host, () => {
      socket.off('error', failed)
      resolve()
    })
  })
  socket.on('error', onError)
  return socket
}
