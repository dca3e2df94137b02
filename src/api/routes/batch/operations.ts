import { ZonalError } from '../../../errors/catalog.ts'

/** Most operations one batch may hold (110021 beyond). */
export const MAX_BATCH_OPERATIONS = 100

export const BATCH_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type BatchMethod = typeof BATCH_METHODS[number]

/** One operation of a batch: an API call as a client would send it. */
export interface BatchOperation {
  method: BatchMethod
  /** An API path with its query: `/v1/zones/example.org./rrsets/A/www`, any version prefix. */
  uri: string
  body?: unknown
}

/**
 * The operations of a `POST /batch` body, each checked before any runs: a list of at most
 * {@link MAX_BATCH_OPERATIONS} objects `{method, uri, body?}`. Methods are taken in any case.
 *
 * @throws ZonalError BATCH_NULL (110020: not a list, or an element that is not an object),
 *   BATCH_TOO_LARGE (110021), BATCH_METHOD_MISSING (110019), BATCH_METHOD_NOT_ALLOWED (110022),
 *   BATCH_URI_MISSING (110018), BATCH_FAILED (110006: an unknown field, or a URI that is not an
 *   API path of this service or names `/batch` or `/authorization`).
 */
export function parseBatch (body: unknown): BatchOperation[] {
  if (!Array.isArray(body)) throw new ZonalError('BATCH_NULL')
  if (body.length > MAX_BATCH_OPERATIONS) throw new ZonalError('BATCH_TOO_LARGE', body.length, MAX_BATCH_OPERATIONS)
  return body.map((op: unknown, i) => {
    if (typeof op !== 'object' || op === null || Array.isArray(op)) throw new ZonalError('BATCH_NULL')
    const { method, uri, body: opBody, ...rest } = op as Record<string, unknown>
    const extra = Object.keys(rest)[0]
    if (extra !== undefined) throw new ZonalError('BATCH_FAILED', `Operation ${i + 1} has an unknown field ${extra} (known: method, uri, body).`)
    if (method === undefined || method === null || method === '') throw new ZonalError('BATCH_METHOD_MISSING')
    const upper = typeof method === 'string' ? method.toUpperCase() : String(method)
    if (!(BATCH_METHODS as readonly string[]).includes(upper)) throw new ZonalError('BATCH_METHOD_NOT_ALLOWED', typeof method === 'string' ? method : JSON.stringify(method))
    if (uri === undefined || uri === null || uri === '') throw new ZonalError('BATCH_URI_MISSING')
    const problem = uriProblem(uri)
    if (problem !== undefined) throw new ZonalError('BATCH_FAILED', `Operation ${i + 1}: ${problem}`)
    return { method: upper as BatchMethod, uri: uri as string, ...(opBody === undefined ? {} : { body: opBody }) }
  })
}

const VERSION_PREFIX = /^\/v[123](?=\/|$)/

/**
 * Why `uri` cannot be an operation: not a path of this API (`/zones/…`, with an optional `/v1`–
 * `/v3` prefix and a query), or a path a batch must not call: `/batch` itself, and the token
 * endpoint (a failed batch rolls back, which would undo the failed-login counts that lock a
 * user).
 */
function uriProblem (uri: unknown): string | undefined {
  if (typeof uri !== 'string') return 'uri must be a string'
  if (!uri.startsWith('/') || uri.startsWith('//') || /[\s\\#]/.test(uri) || uri.length > 8192) {
    return `uri '${uri.slice(0, 200)}' is not an API path (it must start with a single /, e.g. /v1/zones/example.org.)`
  }
  let path = uri.split('?')[0]!
  try {
    path = decodeURIComponent(path)
  } catch {
    return `uri '${uri.slice(0, 200)}' is not correctly percent-encoded`
  }
  const route = path.replace(/\/{2,}/g, '/').replace(VERSION_PREFIX, '').toLowerCase()
  const first = route.split('/')[1] ?? ''
  if (first === 'batch') return 'a batch cannot contain a batch'
  if (first === 'authorization') return 'a batch cannot call the token endpoint'
  return undefined
}
