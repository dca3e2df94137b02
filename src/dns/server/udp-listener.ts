import { createSocket, type Socket } from 'node:dgram'
import { isIPv6 } from 'node:net'
import { handleQuery, type QueryHandlerOptions } from './handle-query.ts'

/**
 * A UDP listener: each datagram is one query, answered from memory. A query that makes the
 * handler throw is logged and dropped; the socket keeps serving.
 */
export async function listenUdp (host: string, port: number, opts: QueryHandlerOptions, onError: (err: unknown) => void): Promise<Socket> {
  const socket = createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4', reuseAddr: false })
  socket.on('message', (msg, rinfo) => {
    try {
      const response = handleQuery(msg, { transport: 'udp', address: rinfo.address, port: rinfo.port, family: rinfo.family === 'IPv6' ? 'IPv6' : 'IPv4' }, opts)
      if (response !== undefined) socket.send(response, rinfo.port, rinfo.address)
    } catch (err) {
      onError(err)
    }
  })
  socket.on('error', onError)
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(port, host, () => {
      socket.off('error', reject)
      resolve()
    })
  })
  return socket
}
