import { randomInt } from 'node:crypto'
import { createSocket } from 'node:dgram'
import { connect, isIPv6 } from 'node:net'
import { nameEquals, nameToString, type WireName } from '../../zone/name.ts'
import { typeName } from '../../zone/rrtype.ts'
import { CLASS_IN } from '../wire/constants.ts'
import { decodeMessage, type Message } from '../wire/message.ts'
import { MessageWriter } from '../wire/writer.ts'

/** One server to ask: an address (IPv4 or IPv6 literal) and a port. */
export interface QueryServer {
  host: string
  port: number
}

export interface QueryOptions {
  /** UDP (the default) or TCP (RFC 7766 framing). */
  transport?: 'udp' | 'tcp'
  /** The RD bit: true to ask a resolver, false (the default) to ask an authoritative server. */
  recursionDesired?: boolean
  /** An OPT record offering this UDP payload size (RFC 6891); 0 sends none. Default 1232 (the DNS flag day 2020 size). */
  ednsUdpSize?: number
  /** Wait for each attempt's answer this long (default 2000 ms). */
  timeoutMs?: number
  /** Attempts over UDP after the first one times out (default 1); TCP makes one attempt. */
  retries?: number
  signal?: AbortSignal
}

/** Why a query got no usable answer. */
export class QueryError extends Error {
  readonly reason: 'timeout' | 'network' | 'bad response'

  constructor (reason: QueryError['reason'], message: string) {
    super(message)
    this.reason = reason
  }
}

const DEFAULT_TIMEOUT_MS = 2000
const DEFAULT_EDNS_SIZE = 1232

/** `host:port` as people write it (`[::1]:53` for IPv6). */
export function serverLabel (server: QueryServer): string {
  return isIPv6(server.host) ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`
}

/** The query message (RFC 1035 §4.1.1): one question, RD as asked, an OPT record unless `ednsUdpSize` is 0. */
export function queryMessage (id: number, name: WireName, type: number, opts: Pick<QueryOptions, 'recursionDesired' | 'ednsUdpSize'> = {}): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id, qr: false, opcode: 0, aa: false, tc: false, rd: opts.recursionDesired === true, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name, type, class: CLASS_IN })
  const size = opts.ednsUdpSize ?? DEFAULT_EDNS_SIZE
  if (size > 0) w.opt({ udpSize: size, extendedRcode: 0, version: 0, dnssecOk: false, options: [] })
  return w.finish()
}

/**
 * Whether `bytes` answer the query `id` for (`name`, `type`): a response (QR) with the same id
 * and the same single question (RFC 5452 §4.3: id and question both checked; names compared
 * without regard to case, RFC 4343). Anything else is not the answer and is ignored.
 */
function matches (m: Message, id: number, name: WireName, type: number): boolean {
  if (!m.qr || m.id !== id || m.questions.length !== 1) return false
  const q = m.questions[0]!
  return q.type === type && q.class === CLASS_IN && nameEquals(q.name, name)
}

/**
 * Ask one server one question and return its decoded answer, whatever its rcode (NXDOMAIN,
 * REFUSED … are answers: the caller reads `rcode`, `aa`, `ra`, `tc` and the sections). Over UDP a
 * datagram from another address, with another id or question, or undecodable is ignored (the
 * wait goes on); each attempt that times out is retried `retries` times. A truncated UDP answer
 * (`tc`) is returned as it is: the caller may ask again over TCP ({@link queryWithTcpFallback}).
 *
 * @throws QueryError 'timeout' (no answer in time), 'network' (refused, unreachable) or
 *   'bad response' (a TCP answer that is not the query's); the signal's reason when it aborts.
 */
export async function query (server: QueryServer, name: WireName, type: number, opts: QueryOptions = {}): Promise<Message> {
  opts.signal?.throwIfAborted()
  const id = randomInt(0, 65536)
  const message = queryMessage(id, name, type, opts)
  const what = `${nameToString(name)} ${typeName(type)} to ${serverLabel(server)}`
  if (opts.transport === 'tcp') return await overTcp(server, message, id, name, type, opts, what)
  const attempts = 1 + Math.max(0, opts.retries ?? 1)
  for (let attempt = 1; ; attempt++) {
    try {
      return await overUdp(server, message, id, name, type, opts, what)
    } catch (err) {
      if (!(err instanceof QueryError) || err.reason !== 'timeout' || attempt >= attempts) throw err
    }
  }
}

/** {@link query} over UDP, then over TCP when the UDP answer is truncated (RFC 7766 §5). */
export async function queryWithTcpFallback (server: QueryServer, name: WireName, type: number, opts: QueryOptions = {}): Promise<Message> {
  const m = await query(server, name, type, { ...opts, transport: 'udp' })
  return m.tc ? await query(server, name, type, { ...opts, transport: 'tcp' }) : m
}

async function overUdp (server: QueryServer, message: Uint8Array, id: number, name: WireName, type: number, opts: QueryOptions, what: string): Promise<Message> {
  const socket = createSocket(isIPv6(server.host) ? 'udp6' : 'udp4')
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  try {
    return await new Promise<Message>((resolve, reject) => {
      const done = (err: unknown, m?: Message): void => {
        clearTimeout(timer)
        opts.signal?.removeEventListener('abort', onAbort)
        if (err === undefined) resolve(m!)
        else reject(err)
      }
      const onAbort = (): void => done(opts.signal!.reason)
      const timer = setTimeout(() => done(new QueryError('timeout', `no answer to ${what} within ${timeoutMs} ms`)), timeoutMs)
      opts.signal?.addEventListener('abort', onAbort, { once: true })
      socket.on('error', (err: NodeJS.ErrnoException) => done(new QueryError('network', `${what}: ${err.code ?? err.message}`)))
      socket.on('message', (bytes, from) => {
        if (from.port !== server.port || from.address !== server.host) return
        let m: Message
        try {
          m = decodeMessage(bytes)
        } catch {
          return
        }
        if (matches(m, id, name, type)) done(undefined, m)
      })
      socket.send(message, server.port, server.host)
    })
  } finally {
    socket.close()
  }
}

async function overTcp (server: QueryServer, message: Uint8Array, id: number, name: WireName, type: number, opts: QueryOptions, what: string): Promise<Message> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  return await new Promise<Message>((resolve, reject) => {
    const socket = connect({ host: server.host, port: server.port })
    let buffered: Buffer = Buffer.alloc(0)
    let settled = false
    const done = (err: unknown, m?: Message): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      opts.signal?.removeEventListener('abort', onAbort)
      socket.destroy()
      if (err === undefined) resolve(m!)
      else reject(err)
    }
    const onAbort = (): void => done(opts.signal!.reason)
    const timer = setTimeout(() => done(new QueryError('timeout', `no answer to ${what} over TCP within ${timeoutMs} ms`)), timeoutMs)
    opts.signal?.addEventListener('abort', onAbort, { once: true })
    socket.setNoDelay(true)
    socket.on('connect', () => {
      const framed = Buffer.allocUnsafe(2 + message.length)
      framed.writeUInt16BE(message.length, 0)
      framed.set(message, 2)
      socket.write(framed)
    })
    socket.on('error', (err: NodeJS.ErrnoException) => done(new QueryError('network', `${what} over TCP: ${err.code ?? err.message}`)))
    socket.on('close', () => done(new QueryError('network', `${what} over TCP: the connection closed without an answer`)))
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return
      const bytes = buffered.subarray(2, 2 + buffered.readUInt16BE(0))
      let m: Message
      try {
        m = decodeMessage(bytes)
      } catch (err) {
        done(new QueryError('bad response', `${what} over TCP: malformed answer (${(err as Error).message})`))
        return
      }
      if (matches(m, id, name, type)) done(undefined, m)
      else done(new QueryError('bad response', `${what} over TCP: the answer is not for this query (id or question differ)`))
    })
  })
}
