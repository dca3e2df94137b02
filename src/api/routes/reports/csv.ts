import type { FastifyRequest } from 'fastify'

/** `Accept: text/csv` (spec "Endpoints"): anything else, or no Accept, is JSON. */
export function wantsCsv (request: FastifyRequest): boolean {
  return /(^|,)\s*text\/csv\s*(;|,|$)/i.test(request.headers.accept ?? '')
}
