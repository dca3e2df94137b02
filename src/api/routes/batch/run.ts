import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Principal } from '../../../auth/principal.ts'
import { runInTransaction } from '../../../store/ambient.ts'
import type { Store } from '../../../store/store.ts'
import { runSubRequests } from '../../plugins/sub-request.ts'
import type { BatchOperation } from './operations.ts'

/** What one operation answered: its status and its parsed JSON body (null when it had none). */
export interface BatchResult {
  status: number
  response: unknown
}

/** Who runs a batch: the token headers of the request (sync), or a caller (a task). */
export interface BatchCaller {
  /** `authorization` and `token` headers of the batch request, sent with each operation. */
  headers?: Record<string, string>
  /** Authenticates each operation instead of a token (a batch run by a task). */
  principal?: Principal
  /** Client address for the audit records of the operations. */
  ip: string
  /** Request id of the batch; operation n gets `<id>.n` (when it stays a valid id). */
  requestId: string
}

export interface BatchOutcome {
  results: BatchResult[]
  /** Index of the operation that failed (status ≥ 400); every change was rolled back. */
  failedAt?: number
}

/** Thrown out of the transaction to roll it back when an operation failed. */
class RolledBack extends Error {
  readonly index: number

  constructor (index: number) {
    super('batch operation failed')
    this.index = index
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/**
 * Run the operations one after another through the app's own routes (`app.inject`, so every
 * rule, permission and error of a single call applies), all in one ambient store transaction:
 * every store call the routes make joins it. The first operation answering 400 or more stops the
 * batch and rolls everything back; its outcome lists the results up to and including it.
 *
 * The operations are sub-requests: the rate limiter counted the batch once, and a `principal`
 * of `caller` authenticates them (else their copied token headers do).
 */
export async function runBatch (app: FastifyInstance, store: Store, operations: readonly BatchOperation[], caller: BatchCaller): Promise<BatchOutcome> {
  const results: BatchResult[] = []
  try {
    await runInTransaction(store, async () => {
      await runSubRequests({ principal: caller.principal }, async () => {
        for (const [i, op] of operations.entries()) {
          const res = await app.inject(injectOptions(op, caller, i))
          results.push({ status: res.statusCode, response: responseOf(res) })
          if (res.statusCode >= 400) throw new RolledBack(i)
        }
      })
    })
  } catch (err) {
    if (err instanceof RolledBack) return { results, failedAt: err.index }
    throw err
  }
  return { results }
}

function injectOptions (op: BatchOperation, caller: BatchCaller, index: number): InjectOptions {
  const headers: Record<string, string> = { accept: 'application/json', ...caller.headers }
  const id = `${caller.requestId}.${index + 1}`
  if (REQUEST_ID.test(id)) headers['x-request-id'] = id
  const withBody = op.body !== undefined && op.method !== 'GET'
  if (withBody) {
    // A PATCH with a list is a JSON Patch (the zone and rrset PATCH routes take both forms).
    headers['content-type'] = op.method === 'PATCH' && Array.isArray(op.body) ? 'application/json-patch+json' : 'application/json'
  }
  return {
    method: op.method,
    url: op.uri,
    headers,
    remoteAddress: caller.ip,
    ...(withBody ? { payload: JSON.stringify(op.body) } : {})
  }
}

/** The parsed JSON body of an answer; null without a body, the text when it is not JSON. */
function responseOf (res: LightMyRequestResponse): unknown {
  if (res.statusCode === 204 || res.body === '') return null
  if (/\bjson\b/i.test(String(res.headers['content-type'] ?? ''))) {
    try {
      return JSON.parse(res.body)
    } catch {}
  }
  return res.body
}

/** One line about a failed operation: `Operation 2 of 3 (POST /zones) answered 400: <messages>`. */
export function failureText (operations: readonly BatchOperation[], outcome: BatchOutcome): string {
  const i = outcome.failedAt ?? 0
  const op = operations[i]!
  const result = outcome.results[i]!
  const items = Array.isArray(result.response) ? result.response : [result.response]
  const messages = items
    .map(item => (typeof item === 'object' && item !== null && typeof (item as { errorMessage?: unknown }).errorMessage === 'string') ? (item as { errorMessage: string }).errorMessage : undefined)
    .filter((m): m is string => m !== undefined)
  return `Operation ${i + 1} of ${operations.length} (${op.method} ${op.uri.slice(0, 200)}) answered ${result.status}${messages.length > 0 ? ': ' + messages.join('; ') : '.'}`
}
