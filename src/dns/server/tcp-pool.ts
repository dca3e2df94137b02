import type { Socket } from 'node:net'
import { tcpClientBuffer, TcpClientCounts } from './tcp-clients.ts'

export interface TcpLimits {
  /** Idle time before a connection is closed (RFC 7766 §6.2.3 suggests seconds). */
  idleMs: number
  /** Connections open at once, over every listener sharing one {@link TcpPool}. */
  maxConnections: number
  /**
   * Connections open at once from one client (an IPv4 address, an IPv6 /64), over every
   * listener and thread sharing one {@link TcpClientCounts} table; 0 for no such limit.
   * Default 25 ({@link DEFAULT_TCP_LIMITS}).
   */
  maxPerClient?: number
}

export const DEFAULT_TCP_LIMITS = { idleMs: 10_000, maxConnections: 1000, maxPerClient: 25 } as const satisfies TcpLimits

/** An open connection, in the pool's idle list while it has no query in flight. */
interface Connection {
  socket: Socket
  /** Queries read and not yet answered. */
  pending: number
  /** From {@link TcpClientCounts.acquire}; -1 when the client is not counted. */
  ticket: number
  /** Neighbours in the idle list (least recently active first). */
  prev: Connection | undefined
  next: Connection | undefined
  idle: boolean
  released: boolean
}

/**
 * The open connections of one thread's listeners (one pool for all of them): their number,
 * those with no query in flight (idle) from the least recently active, and the per-client
 * counts. When the pool is full a new connection takes the place of the connection idle the
 * longest (no query in flight, nothing left to write); a client at its own limit has its new
 * connection closed.
 */
export class TcpPool {
  open = 0
  /** Connections closed to make room for a new one. */
  evicted = 0
  /** New connections closed: the client was at its limit, or every open connection was busy. */
  refused = 0
  private readonly limits: TcpLimits
  private readonly perClient: number
  private readonly clients: TcpClientCounts | undefined
  private head: Connection | undefined
  private tail: Connection | undefined

  /** `clients` is the table shared with other threads; without one the pool counts alone. */
  constructor (limits: TcpLimits = DEFAULT_TCP_LIMITS, clients?: TcpClientCounts) {
    this.limits = limits
    this.perClient = limits.maxPerClient ?? DEFAULT_TCP_LIMITS.maxPerClient
    this.clients = this.perClient === 0 ? undefined : (clients ?? new TcpClientCounts(tcpClientBuffer(1, limits.maxConnections)))
  }

  /** Take a new connection in, or say no (the caller closes it). */
  admit (socket: Socket): Connection | undefined {
    let ticket = -1
    if (this.clients !== undefined) {
      ticket = this.clients.acquire(socket.remoteAddress ?? '', this.perClient)
      if (ticket < 0) {
        this.refused++
        return undefined
      }
    }
    if (this.open >= this.limits.maxConnections && !this.evictIdle()) {
      if (ticket >= 0) this.clients!.release(ticket)
      this.refused++
      return undefined
    }
    this.open++
    const conn: Connection = { socket, pending: 0, ticket, prev: undefined, next: undefined, idle: false, released: false }
    this.rest(conn)
    return conn
  }

  /** A query was read: the connection is busy until it is answered. */
  busy (conn: Connection): void {
    conn.pending++
    if (conn.idle) this.unlink(conn)
  }

  /** A query was answered: the connection is idle again once none is left. */
  done (conn: Connection): void {
    conn.pending--
    if (conn.pending === 0 && !conn.released) this.rest(conn)
  }

  /** Bytes arrived without a whole query: an idle connection becomes the most recently active. */
  touch (conn: Connection): void {
    if (conn.idle && conn !== this.tail) {
      this.unlink(conn)
      this.rest(conn)
    }
  }

  /** The connection closed (or is being closed): it no longer counts. Safe to call twice. */
  release (conn: Connection): void {
    if (conn.released) return
    conn.released = true
    if (conn.idle) this.unlink(conn)
    this.open--
    if (conn.ticket >= 0) this.clients!.release(conn.ticket)
  }

  /** Close the connection idle the longest that has nothing left to write; false when none. */
  private evictIdle (): boolean {
    for (let conn = this.head; conn !== undefined; conn = conn.next) {
      if (conn.socket.writableLength > 0) continue
      this.release(conn)
      this.evicted++
      conn.socket.destroy()
      return true
    }
    return false
  }

  /** Append to the idle list (most recently active last). */
  private rest (conn: Connection): void {
    conn.idle = true
    conn.prev = this.tail
    conn.next = undefined
    if (this.tail === undefined) this.head = conn
    else this.tail.next = conn
    this.tail = conn
  }

  private unlink (conn: Connection): void {
    if (conn.prev === undefined) this.head = conn.next
    else conn.prev.next = conn.next
    if (conn.next === undefined) this.tail = conn.prev
    else conn.next.prev = conn.prev
    conn.prev = undefined
    conn.next = undefined
    conn.idle = false
  }
}
