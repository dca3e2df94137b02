import type { Socket as NetSocket } from 'node:net'
import { isIPv6 } from 'node:net'
import { answerTransfer } from '../answer/axfr.ts'
import type { ZoneIndex } from '../index/zone-index.ts'
import { Opcode } from '../wire/constants.ts'
import { decodeMessage } from '../wire/message.ts'
import { RRType } from '../../zone/rrtype.ts'
import { parseIp } from '../../zone/ip.ts'
import { wireKey } from '../../zone/name.ts'
import { ecsOf, type Client } from './handle-query.ts'
import { requestFlags, responseFlags, type QueryCapture } from './query-capture.ts'

/**
 * AXFR and IXFR over TCP: answered from the index, framed, written in order, and captured
 * (the response time runs to the last message handed to the socket).
 */
export function transferHandler (index: ZoneIndex, onError: (err: unknown) => void, capture?: QueryCapture) {
  return async (request: Uint8Array, socket: NetSocket, received = performance.now()): Promise<boolean> => {
    if (request.length < 12) return false
    let message
    try {
      message = decodeMessage(request)
    } catch {
      return false
    }
    const q = message.questions[0]
    if (message.qr || message.opcode !== 0 || q === undefined || (q.type !== RRType.AXFR && q.type !== RRType.IXFR)) return false
    const address = (socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.)/, '')
    const client = parseIp(address) ?? new Uint8Array(0)
    try {
      const messages = answerTransfer(index, { bytes: request, message, client, now: Math.floor(Date.now() / 1000) })
      let size = 0
      for (const m of messages) {
        const frame = Buffer.allocUnsafe(2 + m.length)
        frame.writeUInt16BE(m.length, 0)
        frame.set(m, 2)
        size += m.length
        if (!socket.write(frame)) await new Promise(resolve => socket.once('drain', resolve))
      }
      const first = messages[0]!
      const from: Client = { transport: 'tcp', address, port: socket.remotePort ?? 0, family: isIPv6(address) ? 'IPv6' : 'IPv4' }
      capture?.query(from, index.get(q.name)?.originKey, wireKey(q.name), q.type, Opcode.QUERY, first[3]! & 0xf, request, first, size,
        requestFlags(request[2]!, request[3]!, message.edns !== undefined, message.edns?.dnssecOk === true) | responseFlags(first), received, ecsOf(message))
    } catch (err) {
      onError(err)
      socket.destroy()
    }
    return true
  }
}
