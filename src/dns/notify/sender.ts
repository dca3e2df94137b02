import { createSocket, type Socket } from 'node:dgram'
import { isIPv6 } from 'node:net'
import { randomInt } from 'node:crypto'
import { CLASS_IN, Opcode } from '../wire/constants.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { WireRecord } from '../wire/message.ts'
import { MessageWriter, Section } from '../wire/writer.ts'

export interface NotifyTarget {
  host: string
  port: number
}

export interface NotifyOptions {
  /** Attempts per target (RFC 1996 §3.6: retry until answered, with back-off). */
  attempts?: number
  /** First wait for an answer, doubled after each attempt. */
  initialTimeoutMs?: number
  /** Stops the retries (the service is shutting down); resolves false. */
  signal?: AbortSignal
}

/** A NOTIFY request (RFC 1996 §3.7): opcode NOTIFY, AA, the zone's SOA question and answer. */
export function notifyMessage (id: number, soa: WireRecord): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id, qr: false, opcode: Opcode.NOTIFY, aa: true, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: soa.name, type: RRType.SOA, class: CLASS_IN })
  w.record(Section.Answer, soa)
  return w.finish()
}

/**
 * Send NOTIFY for a zone to one target over UDP, retrying with doubling waits until a matching
 * answer (same id, NOTIFY opcode, QR set) arrives. Resolves true when acknowledged.
 */
export async function sendNotify (soa: WireRecord, target: NotifyTarget, opts: NotifyOptions = {}): Promise<boolean> {
  const attempts = opts.attempts ?? 5
  let timeout = opts.initialTimeoutMs ?? 1000
  const id = randomInt(0, 65536)
  const message = notifyMessage(id, soa)
  const socket: Socket = createSocket(isIPv6(target.host) ? 'udp6' : 'udp4')
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject)
      socket.bind(0, isIPv6(target.host) ? '::' : '0.0.0.0', () => resolve())
    })
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (opts.signal?.aborted === true) return false
      const acked = new Promise<boolean>((resolve) => {
        const done = (result: boolean): void => {
          clearTimeout(timer)
          socket.off('message', onMessage)
          opts.signal?.removeEventListener('abort', aborted)
          resolve(result)
        }
        const aborted = (): void => done(false)
        const timer = setTimeout(() => done(false), timeout)
        const onMessage = (msg: Buffer): void => {
          if (msg.length < 12 || msg.readUInt16BE(0) !== id || (msg[2]! & 0x80) === 0 || ((msg[2]! >> 3) & 0xf) !== Opcode.NOTIFY) return
          done(true)
        }
        socket.on('message', onMessage)
        opts.signal?.addEventListener('abort', aborted)
      })
      socket.send(message, target.port, target.host)
      if (await acked) return true
      timeout *= 2
    }
    return false
  } finally {
    socket.close()
  }
}
