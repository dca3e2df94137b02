import type { IncomingMessage } from 'node:http'
import type { FastifyRequest } from 'fastify'

export type ApiVersion = 'latest' | 'v1' | 'v2' | 'v3'

const PREFIX = /^\/(v[123])(?=\/|\?|$)/
const kVersion = Symbol('zonal.apiVersion')

/**
 * Fastify `rewriteUrl`: strip a `/v1`, `/v2` or `/v3` prefix and remember it on the raw request,
 * so one set of routes answers every version (reference notes §3). Nothing is decoded here:
 * `%2F` inside a zone name stays encoded until the route reads its params.
 */
export function rewriteVersionPrefix (req: IncomingMessage): string {
  const url = req.url ?? '/'
  const m = PREFIX.exec(url)
  if (m === null) return url
  ;(req as IncomingMessage & { [kVersion]?: ApiVersion })[kVersion] = m[1] as ApiVersion
  const rest = url.slice(m[0].length)
  return rest === '' || rest.startsWith('?') ? `/${rest}` : rest
}

/** The version prefix the request came with; 'latest' when it had none. */
export function apiVersionOf (request: FastifyRequest): ApiVersion {
  return (request.raw as IncomingMessage & { [kVersion]?: ApiVersion })[kVersion] ?? 'latest'
}
