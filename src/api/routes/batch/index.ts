import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { Principal } from '../../../auth/principal.ts'
import { ZonalError } from '../../../errors/catalog.ts'
import type { Store } from '../../../store/store.ts'
import type { TaskHandler } from '../../../tasks/runner.ts'
import { principalOf } from '../../plugins/auth.ts'
import { subRequestContext } from '../../plugins/sub-request.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { parseBatch, type BatchOperation } from './operations.ts'
import { failureText, runBatch } from './run.ts'

/** The task kind of `POST /batch?async=true`. */
export const BATCH = 'batch'

/** Input of a batch task: who asked, from where, and the checked operations. */
export interface BatchPayload {
  userId: string
  ipAddress: string | null
  operations: BatchOperation[]
}

export interface BatchRouteOptions {
  store: Store
  /** The task runner: woken for async batches (and after a batch whose operations made tasks); it gets the batch job. */
  tasks?: { wake (): void, register? (kind: string, handler: TaskHandler): void }
}

const BatchResult = Type.Object({ status: Type.Integer(), response: Type.Unknown() })
const BatchResults = Type.Array(BatchResult)
const BatchQuery = Type.Object({ async: Type.Optional(Type.String()) })

function isAsync (value: string | undefined): boolean {
  const v = (value ?? '').toLowerCase()
  if (v === '' || v === 'false') return false
  if (v === 'true') return true
  throw new ZonalError('INVALID_INPUT', 'async must be true or false')
}

/**
 * `POST /batch` (reference notes §7 "Batch"): `[{method, uri, body?}]` → `[{status, response}]`.
 * The operations run in order through the API's own routes, all in ONE database transaction:
 * all of them take effect or none does.
 *
 * - Success: 200 with every result.
 * - An operation answers 400 or more: everything is rolled back and the batch answers 400 (or
 *   the operation's 5xx status) with the results up to and including the failed one, so the
 *   client sees which operation failed and why (its error list is its `response`).
 * - `?async=true`: the operations are checked, then a task of kind `batch` is created: 202
 *   `{"message":"Pending"}` with `X-Task-Id`. The task's result is the JSON list of results; a
 *   failed batch ends the task in ERROR, its message naming the failed operation (110006).
 *
 * Operations carry the caller's token (sync) or run as the caller (task), so permissions apply
 * as to single calls; the rate limit counts the batch once.
 *
 * Errors: 110020 BATCH_NULL, 110021 BATCH_TOO_LARGE (over 100), 110019 BATCH_METHOD_MISSING,
 * 110022 BATCH_METHOD_NOT_ALLOWED, 110018 BATCH_URI_MISSING, 110006 BATCH_FAILED (an unknown
 * field, a URI that is not an API path, a nested batch or a token call), 53005 INVALID_INPUT
 * (`async` not a boolean).
 */
export const batchRoutes: FastifyPluginAsyncTypebox<BatchRouteOptions> = async (app, { store, tasks }) => {
  tasks?.register?.(BATCH, batchJob(app, store))

  app.post('/batch', {
    schema: {
      tags: ['batch'],
      summary: 'Run up to 100 API calls in one transaction (all or nothing); ?async=true as a task',
      querystring: BatchQuery,
      body: Type.Unknown({ description: 'A list of {method: GET|POST|PUT|PATCH|DELETE, uri: "/v1/zones/…", body?}' }),
      response: { 200: BatchResults, 202: MessageBody, 400: Type.Union([BatchResults, ErrorBody]), '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    if (subRequestContext() !== undefined) throw new ZonalError('BATCH_FAILED', 'A batch cannot contain a batch.')
    const principal = principalOf(request)
    const operations = parseBatch(request.body)
    if (isAsync(request.query.async)) {
      const payload: BatchPayload = { userId: principal.userId, ipAddress: request.ip, operations }
      const task = await store.tasks.create({
        accountId: principal.memberships[0]?.accountId ?? null,
        userId: principal.userId,
        kind: BATCH,
        message: 'Pending',
        payload
      })
      tasks?.wake()
      return await reply.code(202).header('x-task-id', task.id).send({ message: 'Pending' })
    }
    const headers: Record<string, string> = {}
    for (const name of ['authorization', 'token']) {
      const value = request.headers[name]
      if (typeof value === 'string') headers[name] = value
    }
    const outcome = await runBatch(app, store, operations, { headers, ip: request.ip, requestId: request.id })
    if (outcome.failedAt === undefined) {
      if (outcome.results.some(r => r.status === 202)) tasks?.wake()
      return outcome.results
    }
    const status = outcome.results[outcome.failedAt]!.status
    return await reply.code(status >= 500 ? status : 400).send(outcome.results)
  })
}

/**
 * The job of a batch task: the operations of the payload, run as the user who sent them (who
 * must still be active) with their permissions as of now.
 *
 * @throws ZonalError BATCH_FAILED (110006) naming the failed operation, PERMISSION_DENIED.
 */
export function batchJob (app: FastifyInstance, store: Store): TaskHandler {
  return async (ctx) => {
    const p = ctx.payload as Partial<BatchPayload> | undefined
    if (typeof p?.userId !== 'string') throw new ZonalError('BATCH_FAILED', 'The task has no batch.')
    const operations = parseBatch(p.operations)
    const user = await store.users.findById(p.userId)
    if (user === undefined || user.status !== 'ACTIVE') throw new ZonalError('PERMISSION_DENIED', 'run this batch: the user who sent it is no longer active')
    const principal = new Principal(user.id, user.username, await store.users.memberships(user.id))
    const outcome = await runBatch(app, store, operations, { principal, ip: p.ipAddress ?? '127.0.0.1', requestId: `task-${ctx.task.id}` })
    if (outcome.failedAt !== undefined) throw new ZonalError('BATCH_FAILED', failureText(operations, outcome))
    return {
      message: `Batch of ${operations.length} operations completed.`,
      result: {
        data: new TextEncoder().encode(JSON.stringify(outcome.results)),
        contentType: 'application/json',
        extension: 'json',
        fileName: 'batch.json'
      }
    }
  }
}
