import { ZoneIndex } from '../dns/index/zone-index.ts'
import type { Client } from '../dns/server/handle-query.ts'
import { requestFlags, responseFlags, type QueryCapture } from '../dns/server/query-capture.ts'
import { listenAll, type BoundAddress } from '../dns/server/listeners.ts'
import { ResponseRateLimiter, type RateLimitOptions } from '../dns/server/rate-limiter.ts'
import type { TcpLimits } from '../dns/server/tcp-listener.ts'
import type { Socket as NetSocket } from 'node:net'
import type { SecretBox } from '../auth/secrets.ts'
import { answerTransfer } from '../dns/answer/axfr.ts'
import { Opcode } from '../dns/wire/constants.ts'
import { RRType } from '../zone/rrtype.ts'
import { decodeMessage } from '../dns/wire/message.ts'
import { parseIp } from '../zone/ip.ts'
import { sendNotify } from '../dns/notify/sender.ts'
import type { ZoneData } from '../dns/index/zone-data.ts'
import { nameToString, wireKey } from '../zone/name.ts'
import { isIPv6 } from 'node:net'
import type { Store } from '../store/store.ts'
import { ZoneSync, type SyncLogger } from './zone-sync.ts'

export interface DnsService {
  index: ZoneIndex
  /** The port bound (the same for every address, UDP and TCP). */
  port: number
  /** The addresses served, each over UDP and TCP. */
  addresses: BoundAddress[]
  /** Resolves when every zone has been loaded once. */
  loaded: Promise<void>
  /** The zone sync (expiry marks, zone ids of served data). */
  sync: ZoneSync
  close (): Promise<void>
}

export interface DnsServiceOptions {
  /** IPv4 or IPv6 addresses, each served over UDP and TCP on `port`. */
  hosts: readonly string[]
  port: number
  /** TCP idle timeout and connection limit (RFC 7766 §6.2.3 defaults when absent). */
  tcp?: TcpLimits
  /** UDP response rate limiting; off when absent or at 0 responses per second. */
  rateLimit?: RateLimitOptions
  logger: SyncLogger & { warn (obj: object, msg: string): void }
  /** Told of every query answered (the analytics capture). */
  capture?: QueryCapture
  /** Told of every NOTIFY accepted for a secondary zone from one of its primaries. */
  onNotify?: (zone: ZoneData, client: Client, serial: number | undefined) => void
  secrets: SecretBox
}

/** AXFR and IXFR over TCP: answered from the index, framed, written in order, and captured. */
function transferHandler (index: ZoneIndex, onError: (err: unknown) => void, capture?: QueryCapture) {
  return async (request: Uint8Array, socket: NetSocket): Promise<boolean> => {
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
      capture?.query(from, index.get(q.name)?.originKey, wireKey(q.name), q.type, Opcode.QUERY, first[3]! & 0xf, request.length, size,
        requestFlags(request[2]!, request[3]!, message.edns !== undefined, message.edns?.dnssecOk === true) | responseFlags(first))
    } catch (err) {
      onError(err)
      socket.destroy()
    }
    return true
  }
}

/**
 * The authoritative DNS server: UDP and TCP listeners on every address, all on one port (port 0
 * picks a port free on all of them for both), answering from the in-memory index that
 * `ZoneSync` keeps in step with the store. Zones load in the background; until a zone is loaded
 * it is REFUSED.
 */
export async function startDns (store: Store, opts: DnsServiceOptions): Promise<DnsService> {
  const index = new ZoneIndex()
  const onError = (err: unknown): void => opts.logger.warn({ err }, 'DNS request failed')
  const handler = { index, capture: opts.capture, onNotify: opts.onNotify }
  const rateLimiter = opts.rateLimit === undefined || opts.rateLimit.responsesPerSecond === 0 ? undefined : new ResponseRateLimiter(opts.rateLimit)
  const listeners = await listenAll(handler, onError, { hosts: opts.hosts, port: opts.port, tcp: opts.tcp, rateLimiter, transfer: transferHandler(index, onError, opts.capture) })
  // Pending NOTIFY retries stop when the service closes.
  const stopping = new AbortController()
  const notifyZone = (zone: ZoneData): void => {
    const soa = zone.apex?.rrsets.get(RRType.SOA)
    if (soa === undefined) return
    const record = { name: zone.origin, type: RRType.SOA, class: 1, ttl: soa.ttl, rdata: soa.rdata[0]! }
    for (const target of zone.notify) {
      sendNotify(record, target, { signal: stopping.signal }).then((acked) => {
        if (!acked && !stopping.signal.aborted) opts.logger.warn({ zone: nameToString(zone.origin), target }, 'NOTIFY not acknowledged')
      }, (err: unknown) => opts.logger.warn({ err, target }, 'NOTIFY failed'))
    }
  }
  const sync = new ZoneSync(store, index, opts.logger, opts.secrets, { onSerialChange: notifyZone })
  const loaded = sync.start()
  loaded.catch((err: unknown) => opts.logger.error({ err }, 'initial zone load failed'))
  return {
    index,
    port: listeners.port,
    addresses: listeners.addresses,
    loaded,
    sync,
    async close () {
      stopping.abort()
      await sync.stop()
      await listeners.close()
    }
  }
}
