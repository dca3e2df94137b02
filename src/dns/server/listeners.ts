import { isIPv6, type AddressInfo, type Server, type Socket } from 'node:net'
import type { QueryHandlerOptions } from './handle-query.ts'
import type { ResponseRateLimiter } from './rate-limiter.ts'
import type { TcpClientCounts } from './tcp-clients.ts'
import { listenTcp } from './tcp-listener.ts'
import { DEFAULT_TCP_LIMITS, TcpPool, type TcpLimits } from './tcp-pool.ts'
import { listenUdp, type UdpListener } from './udp-listener.ts'
import { ZoneIndex } from '../index/zone-index.ts'

export interface ListenOptions {
  /** Addresses to listen on (IPv4 or IPv6 literals); each gets UDP and TCP. */
  hosts: readonly string[]
  /** The one port for every address and both protocols; 0 picks one free everywhere. */
  port: number
  tcp?: TcpLimits
  /**
   * The per-client connection counts shared with the other DNS worker threads; without it
   * this process's listeners count alone.
   */
  tcpClients?: TcpClientCounts
  /** Limits UDP responses when given (TCP is never limited). */
  rateLimiter?: ResponseRateLimiter
  /** Answers AXFR/IXFR over TCP (see {@link listenTcp}). */
  transfer?: (request: Uint8Array, socket: Socket, received: number) => Promise<boolean>
  /**
   * Share the port with other listeners of this process (SO_REUSEPORT: one set per DNS worker
   * thread). Port 0 is refused with it: a port picked by the kernel for a shared socket may be
   * one another program shares too. {@link probePort} picks the port first.
   */
  reusePort?: boolean
  /**
   * UDP through the batched socket (recvmmsg/sendmmsg) when its addon is built (default), or
   * through `node:dgram` when false (`ZONAL_DNS_UDP_BATCH=0`).
   */
  udpBatch?: boolean
}

/** One address served, with UDP and TCP on `port`. */
export interface BoundAddress {
  address: string
  port: number
  family: 'IPv4' | 'IPv6'
}

export interface Listeners {
  port: number
  addresses: BoundAddress[]
  /** Stop listening and close open TCP connections. */
  close (): Promise<void>
}

/** Tries at finding a port free on every address for both protocols (with port 0). */
const PORT_ATTEMPTS = 20

/**
 * UDP and TCP listeners on every host, all on one port. With port 0 the first TCP listener
 * picks a free port and the others take the same one; when that port is taken somewhere,
 * everything bound so far is closed and another port is tried. The TCP connection limits
 * count the connections of every host together (one {@link TcpPool}).
 *
 * @throws the bind error (EADDRINUSE, EADDRNOTAVAIL, …) of a fixed port, or of port 0 when no
 * port was found.
 */
export async function listenAll (handler: QueryHandlerOptions, onError: (err: unknown) => void, opts: ListenOptions): Promise<Listeners> {
  if (opts.hosts.length === 0) throw new Error('no address to listen on')
  if (opts.reusePort === true && opts.port === 0) throw new Error('a shared port must be chosen first')
  const limits = opts.tcp ?? DEFAULT_TCP_LIMITS
  const pool = new TcpPool(limits, opts.tcpClients)
  const sockets = new Set<Socket>()
  for (let attempt = 1; ; attempt++) {
    const udp: UdpListener[] = []
    const tcp: Server[] = []
    let port = opts.port
    try {
      for (const host of opts.hosts) {
        const server = await listenTcp(host, port, handler, onError, limits, opts.transfer, pool, opts.reusePort)
        tcp.push(server)
        server.on('connection', (socket: Socket) => {
          sockets.add(socket)
          socket.once('close', () => sockets.delete(socket))
        })
        port = (server.address() as AddressInfo).port
        udp.push(await listenUdp(host, port, handler, onError, opts.rateLimiter, opts.reusePort, opts.udpBatch ?? true))
      }
    } catch (err) {
      await closeAll(udp, tcp, sockets)
      const retry = opts.port === 0 && attempt < PORT_ATTEMPTS && (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
      if (!retry) throw err
      continue
    }
    return {
      port,
      addresses: opts.hosts.map(host => ({ address: host, port, family: isIPv6(host) ? 'IPv6' : 'IPv4' })),
      close: async () => await closeAll(udp, tcp, sockets)
    }
  }
}

async function closeAll (udp: UdpListener[], tcp: Server[], sockets: Set<Socket>): Promise<void> {
  for (const socket of udp) socket.close()
  const closed = tcp.map(async server => await new Promise<void>(resolve => server.close(() => resolve())))
  for (const socket of sockets) socket.destroy()
  await Promise.all(closed)
}

/**
 * A port free for UDP and TCP on every host, held by nobody (shared sockets included) at the
 * moment of the check: `port` itself when it is free (else its bind error), or with port 0 one
 * the kernel picks. The listeners are closed again before this returns, so the port can be
 * bound with `reusePort` by the worker threads.
 */
export async function probePort (hosts: readonly string[], port: number): Promise<number> {
  const listeners = await listenAll({ index: new ZoneIndex() }, () => {}, { hosts, port })
  await listeners.close()
  return listeners.port
}
