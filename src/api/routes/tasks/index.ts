import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { ZonalError } from '../../../errors/catalog.ts'
import type { Store, TaskInfo, TaskListQuery as StoreTaskQuery, TaskSort } from '../../../store/store.ts'
import { principalOf } from '../../plugins/auth.ts'
import { ErrorBody } from '../../schemas/common.ts'
import { Task, TASK_CODES, TASK_SORTS, TaskList, TaskListQuery, TaskParams, TaskResult } from '../../schemas/tasks.ts'

type TaskDto = Static<typeof Task>

/** The Task DTO of a task row; `resultUri` is relative, as the Python client prefixes the host. */
export function toTaskDto (task: TaskInfo): TaskDto {
  const hasData = task.code === 'COMPLETE' && task.has_data
  return {
    taskId: task.id,
    code: task.code,
    message: task.message,
    ...(hasData ? { resultUri: `/tasks/${task.id}/result` } : {}),
    hasData
  }
}

/**
 * The `q` of `GET /tasks`: space-separated `key:value` terms, keys `code` and `hasData` (any case).
 *
 * @throws ZonalError INVALID_INPUT for an unknown key ("Invalid input: q.<key>") or a bad value.
 */
export function parseTaskQ (q: string | undefined): Pick<StoreTaskQuery, 'code' | 'hasData'> {
  const out: Pick<StoreTaskQuery, 'code' | 'hasData'> = {}
  for (const term of (q ?? '').trim().split(/\s+/)) {
    if (term === '') continue
    const colon = term.indexOf(':')
    const key = colon < 0 ? term : term.slice(0, colon)
    const value = colon < 0 ? '' : term.slice(colon + 1).toUpperCase()
    switch (key.toLowerCase()) {
      case 'code':
        if (!(TASK_CODES as readonly string[]).includes(value)) throw new ZonalError('INVALID_INPUT', `q.code must be one of ${TASK_CODES.join(', ')}`)
        out.code = value as StoreTaskQuery['code']
        break
      case 'hasdata':
        if (value !== 'TRUE' && value !== 'FALSE') throw new ZonalError('INVALID_INPUT', 'q.hasData must be TRUE or FALSE')
        out.hasData = value === 'TRUE'
        break
      default:
        throw new ZonalError('INVALID_INPUT', `q.${key}`)
    }
  }
  return out
}

function parseSort (sort: string | undefined): TaskSort {
  const value = (sort ?? '').trim().toUpperCase()
  if (value === '') return 'CODE'
  if (!(TASK_SORTS as readonly string[]).includes(value)) throw new ZonalError('TASK_SORT_INVALID', sort ?? '')
  return value as TaskSort
}

function parseReverse (reverse: string | undefined): boolean {
  const value = (reverse ?? '').trim().toLowerCase()
  if (value === '' || value === 'false') return false
  if (value === 'true') return true
  throw new ZonalError('INVALID_INPUT', 'reverse must be true or false')
}

/**
 * Tasks (spec operations 12 and 13; reference notes §4): `GET /tasks`, `GET /tasks/{taskId}`,
 * `GET /tasks/{taskId}/result`, `DELETE /tasks/{taskId}`. A task is visible to the members of its
 * account; any other task id is "not found" (54001).
 */
export const taskRoutes: FastifyPluginAsyncTypebox<{ store: Store }> = async (app, { store }) => {
  app.get('/tasks', {
    schema: { tags: ['tasks'], summary: 'The caller\'s tasks', querystring: TaskListQuery, response: { 200: TaskList, '4xx': ErrorBody } }
  }, async (request) => {
    const { q, offset = 0, limit = 100, sort, reverse } = request.query
    const query: StoreTaskQuery = { ...parseTaskQ(q), offset, limit, sort: parseSort(sort), reverse: parseReverse(reverse) }
    const { rows, total } = await store.tasks.list(principalOf(request).scope('read'), query)
    return {
      queryInfo: { q: q ?? '', sort: query.sort, reverse: query.reverse, limit },
      resultInfo: { totalCount: total, offset, returnedCount: rows.length },
      tasks: rows.map(toTaskDto)
    }
  })

  app.get('/tasks/:taskId', {
    schema: { tags: ['tasks'], summary: 'Status of a task', params: TaskParams, response: { 200: Task, '4xx': ErrorBody } }
  }, async (request) => {
    const task = await store.tasks.findById(request.params.taskId, principalOf(request).scope('read'))
    if (task === undefined) throw new ZonalError('TASK_NOT_FOUND')
    return toTaskDto(task)
  })

  app.get('/tasks/:taskId/result', {
    schema: { tags: ['tasks'], summary: 'The file a completed task produced (BIND text or a zip of them)', params: TaskParams, response: { 200: TaskResult, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const scope = principalOf(request).scope('read')
    const task = await store.tasks.findById(request.params.taskId, scope)
    if (task === undefined) throw new ZonalError('TASK_NOT_FOUND')
    if (task.code !== 'COMPLETE') throw new ZonalError('TASK_NOT_COMPLETE')
    const file = await store.tasks.result(task.id, scope)
    if (file === undefined) throw new ZonalError('TASK_RESULT_NOT_FOUND')
    // Exactly the task's content type: a Buffer keeps Fastify from adding a charset, which
    // the Python client would not accept (reference notes §4 "Content-type trap").
    return await reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName.replace(/["\\\r\n]/g, '_')}"`)
      .send(Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength))
  })

  app.delete('/tasks/:taskId', {
    schema: { tags: ['tasks'], summary: 'Delete a task and its result', params: TaskParams, response: { 204: Type.Null(), '4xx': ErrorBody } }
  }, async (request, reply) => {
    const deleted = await store.tasks.delete(request.params.taskId, principalOf(request).scope('read'))
    if (!deleted) throw new ZonalError('TASK_NOT_FOUND')
    return await reply.code(204).send(null)
  })
}
