import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import type { SecureContext } from 'node:tls'
import { parseAddress } from '../dns/server/client-address.ts'
import { respond } from '../forwards/respond.ts'
import type { ForwardTable } from '../forwards/table.ts'
import { contextFor, loadCertificates } from './forward-certificates.ts'

/**
 * The forwarding HTTP server: answers every request from the `ForwardTable` (a map read and a
 * string built, `forwards/respond.ts`) with a redirect, a framed page or 404. It never fetches
 * the target, never follows a redirect, never reads a request body, and logs nothing per request.
 */

export interface ForwardServerLog {
  info (obj: object, msg: string): void
  warn (obj: object, msg: string): void
}

/** Limits against clients that hold connections open or send too much. */
export interface ForwardServerLimits {
  /** Time a client has to send the request line and headers (slow-header clients are cut off). */
  headersTimeoutMs: number
  /** Time a client has to send a whole request. */
  requestTimeoutMs: number
  /** Time an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number
  /** How often connections are checked against the two timeouts above. */
  checkIntervalMs: number
  /** Bytes of request line and headers at most (more: 431). */
  maxHeaderSize: number
  /** Connections open at once per listener (more are closed at once). */
  maxConnections: number
  /**
   * Connections open at once from one client (an IPv4 address, an IPv6 /64), HTTP and HTTPS
   * together; more are closed at once, unanswered. 0: no limit.
   */
  maxPerClient: number
  /** Seconds between two readings of the certificate folder (renewed certificates taken in). */
  certReloadSeconds: number
}

export const DEFAULT_FORWARD_LIMITS: ForwardServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
  maxHeaderSize: 8 * 1024,
  maxConnections: 10_000,
  maxPerClient: 64,
  certReloadSeconds: 3600
}

export interface ForwardServerOptions {
  table: ForwardTable
  /** Address both listeners bind. */
  host: string
  /** HTTP port; 0 picks a free one. */
  port: number
  /**
   * HTTPS port, listened on once `certDir` holds at least one certificate (at start, or at the
   * first reading of the folder that finds one); 0 picks a free one.
   */
  httpsPort?: number
  /** The certificate folder (`forward-certificates.ts` gives the layouts). */
  certDir?: string
  log?: ForwardServerLog
  limits?: Partial<ForwardServerLimits>
}

export interface ForwardServer {
  readonly httpPort: number
  /** The HTTPS listener's port once it listens (it may start after the server, see `reloadCertificates`). */
  readonly httpsPort: number | undefined
  /**
   * Reads the certificate folder again now (also done every `certReloadSeconds`): the contexts
   * are replaced at once; when the HTTPS listener does not run yet and the folder now holds a
   * certificate, it is started. Certificates gone from the folder stop nothing: the listener
   * stays, refusing the names no certificate holds any more in the handshake.
   *
   * @returns when the HTTPS listener this reading started listens (or failed to, which is logged
   *   and tried again at the next reading); never rejects.
   */
  reloadCertificates (): Promise<void>
  close (): Promise<void>
}

/** Whether a request says it has a body (which is never read: the connection is closed after the answer). */
function hasBody (req: IncomingMessage): boolean {
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

const ABSOLUTE_FORM = /^https?:\/\/(?:[^/?#@]*@)?([^/?#]*)([^#]*)/i

/** The request handler both listeners share. */
export function forwardHandler (table: ForwardTable, log?: ForwardServerLog): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    try {
      const target = req.url ?? ''
      let host = req.headers.host
      let pathAndQuery: string
      if (target.charCodeAt(0) === 0x2f /* / */) {
        pathAndQuery = target
      } else {
        // RFC 9112 §3.2.2: a request in absolute form names its host in the URI.
        const m = ABSOLUTE_FORM.exec(target)
        if (m === null) {
          res.writeHead(400, { 'content-length': '0', connection: 'close' }).end()
          return
        }
        host = m[1]
        pathAndQuery = m[2]!.startsWith('/') ? m[2]! : `/${m[2]!}`
      }
      const q = pathAndQuery.indexOf('?')
      const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q)
      const query = q < 0 ? '' : pathAndQuery.slice(q + 1)
      const forward = host === undefined ? undefined : table.lookup(host, path)
      const answer = respond(forward, { method: req.method ?? 'GET', path, query, headers: req.headers })
      if (hasBody(req)) res.setHeader('connection', 'close')
      res.writeHead(answer.status, answer.headers)
      if (answer.body === '') res.end()
      else res.end(answer.body)
    } catch (err) {
      log?.warn({ err }, 'web forwards: a request could not be answered')
      if (!res.headersSent) res.writeHead(500, { 'content-length': '0', connection: 'close' })
      res.end()
    }
  }
}

async function listen (server: Server, host: string, port: number): Promise<number> {
  server.listen(port, host)
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => { throw err })])
  return (server.address() as AddressInfo).port
}

/**
 * Connections open per client over the listeners it watches: a connection over the limit is
 * destroyed as soon as it is accepted (no answer: the client learns nothing it could act on, and
 * nothing is spent on it). Counted once per connection, never per request.
 */
class ClientConnections {
  private readonly counts = new Map<number | string, number>()
  private readonly address = new Uint8Array(16)
  private readonly view = new DataView(this.address.buffer)
  private readonly limit: number

  constructor (limit: number) {
    this.limit = limit
  }

  /** Count the connections `server` accepts (for HTTPS, the TCP connections before TLS). */
  watch (server: Server): void {
    if (this.limit === 0) return
    server.on('connection', (socket: Socket) => { this.admit(socket) })
  }

  private admit (socket: Socket): void {
    const key = this.keyOf(socket.remoteAddress)
    const open = this.counts.get(key) ?? 0
    if (open >= this.limit) {
      socket.destroy()
      return
    }
    this.counts.set(key, open + 1)
    socket.once('close', () => {
      const left = this.counts.get(key)! - 1
      if (left === 0) this.counts.delete(key)
      else this.counts.set(key, left)
    })
  }

  /** An IPv4 address (IPv4-mapped IPv6 too) as a number, an IPv6 /64 as text. */
  private keyOf (text: string | undefined): number | string {
    // A socket closed before it was seen has no address: those count as one client.
    const length = text === undefined ? 0 : parseAddress(text, this.address)
    if (length === 4) return this.view.getUint32(0)
    if (length === 16) return `${this.view.getUint32(0)}:${this.view.getUint32(4)}`
    return ''
  }
}

function limit (server: Server, limits: ForwardServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs
  server.requestTimeout = limits.requestTimeoutMs
  server.keepAliveTimeout = limits.keepAliveTimeoutMs
  server.maxConnections = limits.maxConnections
}

/**
 * Starts the forwarding server: HTTP on `host:port` always; HTTPS on `host:httpsPort` when
 * `httpsPort` is given and `certDir` holds certificates (at start, or from the first reading of
 * the folder that finds one), each picked by the name the client asks for (SNI); a client asking
 * for a name no certificate holds (or for none) is refused in the TLS handshake.
 *
 * @returns the ports bound, a reload of the certificates, and `close()` (stops both listeners
 *   and closes every connection).
 */
export async function startForwardServer (options: ForwardServerOptions): Promise<ForwardServer> {
  const limits = { ...DEFAULT_FORWARD_LIMITS, ...options.limits }
  const handler = forwardHandler(options.table, options.log)
  const serverOptions = { maxHeaderSize: limits.maxHeaderSize, connectionsCheckingInterval: limits.checkIntervalMs }
  const perClient = new ClientConnections(limits.maxPerClient)
  const http = createServer(serverOptions, handler)
  limit(http, limits)
  perClient.watch(http)
  const httpPort = await listen(http, options.host, options.port)

  let contexts = new Map<string, SecureContext>()
  const readCertificates = (): void => {
    if (options.certDir === undefined) return
    try {
      contexts = loadCertificates(options.certDir, options.log).contexts
    } catch (err) {
      options.log?.warn({ err, dir: options.certDir }, 'web forwards: the certificate folder could not be read')
    }
  }

  let https: Server | undefined
  let httpsPort: number | undefined
  let starting: Promise<void> | undefined
  let closed = false
  /** Creates the HTTPS listener and binds it. @throws when it cannot bind. */
  const startHttps = async (port: number): Promise<void> => {
    const server = createHttpsServer({
      ...serverOptions,
      // A TLS handshake that never ends is cut off like slow headers.
      handshakeTimeout: limits.headersTimeoutMs,
      SNICallback: (name, cb) => {
        const context = contextFor(contexts, name)
        if (context === undefined) cb(new Error(`no certificate for ${name}`))
        else cb(null, context)
      }
    }, handler)
    limit(server, limits)
    perClient.watch(server)
    httpsPort = await listen(server, options.host, port)
    https = server
  }

  const reloadCertificates = async (): Promise<void> => {
    if (options.certDir === undefined) return
    const had = contexts.size
    readCertificates()
    if (https !== undefined && had > 0 && contexts.size === 0) {
      options.log?.warn({ dir: options.certDir }, 'web forwards: no certificate left in the folder: every TLS handshake is refused until one is added')
    }
    const port = options.httpsPort
    if (https !== undefined || port === undefined || contexts.size === 0 || closed) return
    starting ??= startHttps(port).then(
      () => options.log?.info({ host: options.host, httpsPort: httpsPort ?? null, names: [...contexts.keys()] }, 'web forwards: HTTPS listening (first certificate found)'),
      (err: unknown) => options.log?.warn({ err, host: options.host, httpsPort: port }, 'web forwards: the HTTPS listener could not start (tried again at the next reading of the certificate folder)')
    ).finally(() => { starting = undefined })
    await starting
  }

  readCertificates()
  if (options.httpsPort !== undefined && contexts.size > 0) {
    try {
      await startHttps(options.httpsPort)
    } catch (err) {
      http.close()
      http.closeAllConnections()
      throw err
    }
  } else if (options.httpsPort !== undefined) {
    options.log?.warn({ dir: options.certDir ?? null }, options.certDir === undefined
      ? 'web forwards: no certificate folder, so no HTTPS listener'
      : 'web forwards: no certificate found yet: HTTPS starts at the first reading of the folder that finds one')
  }
  let timer: NodeJS.Timeout | undefined
  if (options.httpsPort !== undefined && options.certDir !== undefined) {
    // reloadCertificates never rejects.
    timer = setInterval(() => { reloadCertificates().catch(() => {}) }, limits.certReloadSeconds * 1000)
    timer.unref()
  }
  options.log?.info({ host: options.host, httpPort, httpsPort: httpsPort ?? null, names: [...contexts.keys()] }, 'web forwards: forwarding server listening')

  return {
    httpPort,
    get httpsPort () { return httpsPort },
    reloadCertificates,
    async close () {
      closed = true
      if (timer !== undefined) clearInterval(timer)
      // An HTTPS listener being started is waited for, then closed with the other.
      await starting
      const servers = https === undefined ? [http] : [http, https]
      await Promise.all(servers.map(async s => {
        const done = new Promise<void>(resolve => s.close(() => resolve()))
        s.closeAllConnections()
        await done
      }))
    }
  }
}
