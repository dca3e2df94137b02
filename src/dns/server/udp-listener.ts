import { createSocket } from 'node:dgram'
import { isIPv6, type AddressInfo } from 'node:net'
import { handleQuery, type QueryHandlerOptions } from './handle-query.ts'
import type { ResponseRateLimiter } from './rate-limiter.ts'
import { BatchUdpSocket, loadUdpBatch } from './udp-batch.ts'

/** What the listeners keep of a UDP socket, batched or `node:dgram`. */
export interface UdpListener {
  address (): AddressInfo
  close (): void
}

/**
 * A UDP listener: each datagram is one query, answered from memory. A query that makes the
 * handler throw is logged and dropped; the socket keeps serving. With a rate limiter, each
 * response passes through it (and may be dropped or sent truncated). An IPv6 socket serves
 * IPv6 only, so `::` and `0.0.0.0` can be bound side by side. With `reusePort` several sockets
 * (one per DNS worker thread) share the port and the kernel spreads the datagrams over them.
 *
 * With `batch` (the default) and the udp-batch addon built, datagrams are read and answered in
 * batches (recvmmsg/sendmmsg: see {@link BatchUdpSocket}); otherwise through `node:dgram`, one
 * datagram at a time. Both answer the same way. The capture's response time counts from the
 * batch's read (one clock reading per batch), or from the datagram's 'message' event.
 */
export async function listenUdp (host: string, port: number, opts: QueryHandlerOptions, onError: (err: unknown) => void, limiter?: ResponseRateLimiter, reusePort = false, batch = true): Promise<UdpListener> {
  const ipv6 = isIPv6(host)
  const family = ipv6 ? 'IPv6' : 'IPv4'
  const answer = (request: Buffer, address: string, port: number, received: number): Uint8Array | undefined => {
    const response = handleQuery(request, { transport: 'udp', address, port, family }, opts, received)
    return response !== undefined && limiter !== undefined ? limiter.limit(response, address) : response
  }
  const batched = batch ? loadUdpBatch() : undefined
  if (batched !== undefined && 'addon' in batched) return new BatchUdpSocket(batched.addon, host, port, ipv6, reusePort, answer, onError)
  // Replies go to the address a query came from, always an IP literal: answering the socket's
  // address lookup at once spares every send the default lookup's deferred callback.
  const lookup = (address: string, _options: unknown, callback: (err: Error | null, address: string, family: number) => void): void => callback(null, address, ipv6 ? 6 : 4)
  const socket = createSocket(ipv6 ? { type: 'udp6', ipv6Only: true, lookup, reusePort } : { type: 'udp4', lookup, reusePort })
  socket.on('message', (msg, rinfo) => {
    try {
      const response = answer(msg, rinfo.address, rinfo.port, performance.now())
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
