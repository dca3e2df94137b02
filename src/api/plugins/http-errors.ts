import http from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyHttpOptions, FastifyRequest, HTTPMethods } from 'fastify'
import { ZonalError } from '../../errors/catalog.ts'
import { renderError } from '../../errors/render.ts'
import { sendError, toZonalError } from './error-handler.ts'

/** The longest path parameter the router takes (`routerOptions.maxParamLength`). */
export const MAX_PARAM_LENGTH = 1024

/** What Node's HTTP parser reports with a `clientError` (llhttp's `HPE_*` codes, timeouts). */
interface ClientError extends Error {
  code?: string
  /** The bytes being parsed when the parser gave up (not always set). */
  rawPacket?: Buffer
  /** How far into `rawPacket` the parser got. */
  bytesParsed?: number
}

/** Why a request is not HTTP, by llhttp error code: fixed words, never the request's own bytes. */
const PARSE_REASONS: Readonly<Record<string, string>> = {
  HPE_INVALID_METHOD: 'unknown method',
  HPE_INVALID_URL: 'invalid request target',
  HPE_INVALID_CONSTANT: 'invalid request line',
  HPE_INVALID_VERSION: 'invalid HTTP version',
  HPE_INVALID_HEADER_TOKEN: 'invalid header',
  HPE_LF_EXPECTED: 'invalid line ending',
  HPE_CR_EXPECTED: 'invalid line ending',
  HPE_INVALID_CONTENT_LENGTH: 'invalid Content-Length',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length together with Transfer-Encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'invalid Transfer-Encoding',
  HPE_INVALID_CHUNK_SIZE: 'invalid chunked encoding',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'invalid chunked encoding',
  HPE_STRICT: 'invalid request',
  HPE_INVALID_EOF_STATE: 'incomplete request'
}

/** The most bytes of request line and headers Node takes (`--max-http-header-size`, 16 KiB by default). */
function headerLimit (server: http.Server | undefined): number {
  return (server as (http.Server & { maxHeaderSize?: number }) | undefined)?.maxHeaderSize ?? http.maxHeaderSize
}

/**
 * True when the header overflow happened on the request line: the bytes at hand start a request
 * (`METHOD SP`) and hold no line end before where the parser stopped. A URL that arrives over
 * several reads and overflows in a later one is seen as a header overflow (431), which it also is.
 */
function overflowInRequestLine (err: ClientError): boolean {
  const packet = err.rawPacket
  if (packet === undefined) return false
  const seen = packet.subarray(0, err.bytesParsed ?? packet.length).toString('latin1')
  return /^[A-Za-z]+ /.test(seen) && !seen.includes('\n')
}

/** The catalog error for a request Node's parser refused (before Fastify sees a request). */
export function clientErrorOf (err: ClientError, server?: http.Server): ZonalError {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ZonalError('REQUEST_TIMEOUT')
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const limit = headerLimit(server)
    return overflowInRequestLine(err)
      ? new ZonalError('URI_TOO_LONG', `the request line and headers take at most ${limit} bytes`)
      : new ZonalError('HEADERS_TOO_LARGE', limit)
  }
  return new ZonalError('HTTP_MALFORMED', PARSE_REASONS[err.code ?? ''] ?? 'malformed request')
}

/** A complete HTTP/1.1 response carrying a catalog error, for a socket no Fastify reply owns. */
export function rawErrorResponse (error: ZonalError): string {
  const body = JSON.stringify(renderError(error))
  return `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status] ?? 'Error'}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' + body
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused (bad request line, bad
 * header, bad chunked encoding, request line and headers over the limit, too slow) is answered
 * in the catalog shape and the connection closed. Nothing of the request is repeated.
 */
export function clientErrorHandler (this: FastifyInstance, error: Error, socket: Socket): void {
  const err = error as ClientError
  // A reset connection is gone; there is no one to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const refused = clientErrorOf(err, this.server)
  this.log.debug({ code: err.code, status: refused.status }, 'refused a request the HTTP parser could not read')
  // As Node's own handler: no answer once a response on this connection has begun (a pipelined
  // request after it), which the bytes would corrupt.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage
  if (!socket.writable || inFlight?.headersSent === true) {
    socket.destroy()
    return
  }
  socket.end(rawErrorResponse(refused), () => socket.destroy())
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals, before any route or hook. A path that
 * is not valid percent-encoding is 400, a path parameter over `maxParamLength` is 414; Fastify's
 * own bodies would repeat the path.
 */
export function frameworkErrors (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const error = err.code === 'FST_ERR_BAD_URL'
    ? new ZonalError('HTTP_MALFORMED', 'the path is not valid percent-encoding')
    : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ZonalError('URI_TOO_LONG', `a path segment takes at most ${MAX_PARAM_LENGTH} characters`)
      : toZonalError(err, request)
  sendError(reply, error)
}

/** The Fastify options that route every HTTP-level error through the catalog. */
export const httpErrorOptions = {
  clientErrorHandler,
  frameworkErrors,
  // Node answers a missing Host with an empty 400 of its own; the hook below answers it instead.
  http: { requireHostHeader: false }
} satisfies Partial<FastifyHttpOptions<http.Server>>

const METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/** The methods some route takes at this request's path (empty when the path is unknown). */
export function allowedMethods (app: FastifyInstance, request: FastifyRequest): HTTPMethods[] {
  const path = request.url.split('?', 1)[0] ?? '/'
  return METHODS.filter(method => method !== request.method && app.findRoute({ method, url: path }) !== null)
}

/**
 * The HTTP-level errors Fastify reaches: a missing Host header on HTTP/1.1 (400 70001), a method
 * the path does not take (405 240003 with `Allow`, as the real API; an unknown path stays 404
 * "Status Code 404"), and an `Expect` other than 100-continue (417). Register first, before
 * other `onRequest` hooks.
 */
export function registerHttpErrors (app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw
    if (raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1 && (request.headers.host ?? '') === '') {
      reply.header('connection', 'close')
      throw new ZonalError('HOST_HEADER_REQUIRED')
    }
  })
  app.setNotFoundHandler(async (request, reply) => {
    const allowed = allowedMethods(app, request)
    if (allowed.length === 0) return await sendError(reply, new ZonalError('ROUTE_NOT_FOUND'))
    reply.header('allow', allowed.join(', '))
    return await sendError(reply, new ZonalError('METHOD_NOT_ALLOWED'))
  })
  app.server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const error = new ZonalError('EXPECTATION_FAILED')
    const body = JSON.stringify(renderError(error))
    res.writeHead(error.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' })
    res.end(body)
  })
}
