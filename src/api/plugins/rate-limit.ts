import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { ZonalError } from '../../errors/catalog.ts'
import { sendError } from './error-handler.ts'
import { subRequestContext } from './sub-request.ts'

interface Window {
  count: number
  resetAt: number
}

/**
 * Fixed-window request limits per client address and per bearer token, in memory. A batch
 * counts once: its operations (sub-requests) are not counted again.
 *
 * @remarks Written here rather than with @fastify/rate-limit because both keys must be checked on
 * every request (a client must not escape the address limit by rotating tokens, nor a shared NAT
 * address throttle every token behind it), and that plugin keys each request one way only.
 */
export function registerRateLimit (app: FastifyInstance, max: number, windowSeconds: number, now: () => number = Date.now): void {
  if (max <= 0) return
  const windows = new Map<string, Window>()
  const windowMs = windowSeconds * 1000

  const hit = (key: string, t: number): Window => {
    let w = windows.get(key)
    if (w === undefined || w.resetAt <= t) {
      if (windows.size > 200_000) {
        for (const [k, v] of windows) if (v.resetAt <= t) windows.delete(k)
      }
      w = { count: 0, resetAt: t + windowMs }
      windows.set(key, w)
    }
    w.count++
    return w
  }

  app.addHook('onRequest', async (request, reply) => {
    // The operations of a batch were counted as the batch request.
    if (subRequestContext() !== undefined) return
    const t = now()
    const keys = [`ip:${request.ip}`]
    const token = bearerFrom(request.headers.authorization) ?? bearerFrom(request.headers.token as string | undefined)
    if (token !== undefined) keys.push(`tok:${createHash('sha256').update(token).digest('base64url')}`)
    let tightest: Window | undefined
    for (const key of keys) {
      const w = hit(key, t)
      if (tightest === undefined || w.count - max > tightest.count - max) tightest = w
    }
    if (tightest === undefined) return
    reply.header('x-ratelimit-limit', String(max))
    reply.header('x-ratelimit-remaining', String(Math.max(0, max - tightest.count)))
    if (tightest.count > max) {
      const wait = Math.max(1, Math.ceil((tightest.resetAt - t) / 1000))
      reply.header('retry-after', String(wait))
      return sendError(reply, new ZonalError('TOO_MANY_REQUESTS'))
    }
  })
}

/** The token of an `Authorization: Bearer …` (or legacy `Token: Bearer …`) header. */
export function bearerFrom (header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header)
  return m === null ? undefined : m[1]
}
