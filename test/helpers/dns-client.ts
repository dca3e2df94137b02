import { createSocket } from 'node:dgram'
import { connect } from 'node:net'

/** What came back, and the port the client sent from (so a test can match it with the server's view). */
export interface Exchange {
  reply: Buffer
  localPort: number
}

/** One request over UDP to host:port (loopback only); rejects when nothing comes back within `ms`. */
export async function udpExchange (host: '127.0.0.1' | '::1', port: number, request: Uint8Array, ms = 2000): Promise<Exchange> {
  const socket = createSocket(host === '::1' ? 'udp6' : 'udp4')
  try {
    await new Promise<void>(resolve => socket.bind(0, host, resolve))
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

/** One request over TCP (RFC 7766 length framing) to host:port (loopback only). */
export async function tcpExchange (host: '127.0.0.1' | '::1', port: number, request: Uint8Array, ms = 2000): Promise<Exchange> {
  const socket = connect({ host, port })
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
