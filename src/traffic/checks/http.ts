import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { deadline, errorText, type CheckContext, type CheckOutcome, type HttpTransaction } from './types.ts'

/** Bytes of a response body read for the search string at most. */
const MAX_BODY = 256 * 1024
/** Redirects followed at most. */
const MAX_REDIRECTS = 5

/** Whether `status` passes `expected` (`2XX`, `3XX`, `2XX|3XX`, `201|302` …). */
export function statusPasses (status: number, expected: string): boolean {
  return expected.split('|').some(part => {
    const p = part.trim().toUpperCase()
    if (/^[1-5]XX$/.test(p)) return Math.floor(status / 100) === Number(p[0])
    return /^\d{3}$/.test(p) && Number(p) === status
  })
}

/** Whether `body` holds `search`: as text, else as a regular expression (the real API's rule). */
export function bodyMatches (body: string, search: string): boolean {
  if (search === '' || body.includes(search)) return true
  try {
    return new RegExp(search).test(body)
  } catch {
    return false
  }
}

interface Response { status: number, location: string | undefined, body: string }

/**
 * One request to `address` (the pool record) for `url`: the URL's host in the Host header and
 * TLS SNI, its port and path; the connection must be made in `connectMs` and the whole request
 * done within `signal`.
 */
async function send (t: HttpTransaction, url: URL, address: string, headers: Record<string, string[]>, signal: AbortSignal): Promise<Response> {
  const https = url.protocol === 'https:'
  const port = url.port === '' ? (https ? 443 : 80) : Number(url.port)
  const body = t.method === 'POST' ? Buffer.from(t.transmittedData, 'utf8') : undefined
  const outHeaders: Record<string, string | string[]> = { ...headers, host: url.host, 'user-agent': 'zonal-probe', connection: 'close' }
  if (body !== undefined) {
    outHeaders['content-length'] = String(body.length)
    outHeaders['content-type'] = 'application/x-www-form-urlencoded'
  }
  const servername = isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0 ? url.hostname : undefined
  return await new Promise<Response>((resolve, reject) => {
    // A connection of its own (no agent, no keep-alive), closed whatever happens.
    const options = { host: address, port, path: `${url.pathname}${url.search}`, method: t.method, headers: outHeaders, agent: false, ...(https ? { servername, rejectUnauthorized: true } : {}) }
    const req = (https ? httpsRequest : httpRequest)(options, (res: IncomingMessage) => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (c: Buffer) => {
        if (size >= MAX_BODY) return
        chunks.push(c)
        size += c.length
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks).subarray(0, MAX_BODY).toString('utf8') }))
      res.on('error', reject)
    })
    const connectTimer = setTimeout(() => req.destroy(Object.assign(new Error('connect timed out'), { code: 'CONNECT_TIMEOUT' })), t.connectMs)
    req.on('socket', (socket) => {
      socket.once(https ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer))
    })
    const abort = (): void => {
      req.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
      req.socket?.destroy()
    }
    signal.addEventListener('abort', abort, { once: true })
    req.on('close', () => {
      clearTimeout(connectTimer)
      signal.removeEventListener('abort', abort)
      req.socket?.destroy()
    })
    req.on('error', reject)
    if (signal.aborted) abort()
    else req.end(body)
  })
}

/**
 * An HTTP probe: each transaction in turn against the pool record's address; it passes when
 * every transaction's status is expected and its body holds its search string, within the
 * limits. Redirects are followed (when asked) to the same host only: the probe never connects
 * anywhere but the record.
 */
export async function runHttp (check: { transactions: HttpTransaction[], headers: Record<string, string[]>, totalMs: number }, ctx: CheckContext): Promise<CheckOutcome> {
  const started = performance.now()
  const total = deadline(check.totalMs, ctx.signal)
  const done = (ok: boolean, message: string): CheckOutcome => ({ ok, message, durationMs: performance.now() - started })
  try {
    for (const [i, t] of check.transactions.entries()) {
      const run = deadline(t.runMs, total.signal)
      let url: URL
      let res: Response
      try {
        url = new URL(t.url)
        res = await send(t, url, ctx.address, check.headers, run.signal)
        for (let hop = 0; t.followRedirects && hop < MAX_REDIRECTS && res.status >= 300 && res.status < 400 && res.location !== undefined; hop++) {
          const next = new URL(res.location, url)
          if (next.host !== url.host || next.protocol !== url.protocol) break
          url = next
          res = await send({ ...t, method: 'GET' }, url, ctx.address, check.headers, run.signal)
        }
      } catch (err) {
        return done(false, `transaction ${i + 1}: ${errorText(err)}`)
      } finally {
        run.dispose()
      }
      if (!statusPasses(res.status, t.expectedResponse)) return done(false, `transaction ${i + 1}: status ${res.status}, expected ${t.expectedResponse}`)
      if (!bodyMatches(res.body, t.searchString)) return done(false, `transaction ${i + 1}: the response does not hold the search string`)
    }
  } finally {
    total.dispose()
  }
  return done(true, `${check.transactions.length} transaction(s) passed`)
}
