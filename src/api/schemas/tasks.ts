import { Type } from 'typebox'
import { ResultInfo } from './common.ts'

export const TASK_CODES = ['PENDING', 'IN_PROCESS', 'COMPLETE', 'ERROR'] as const
export const TASK_SORTS = ['CODE', 'CONTENT_TYPE', 'EXTENSIONS', 'HAS_DATA', 'DATE'] as const

/** Task DTO (spec "Task DTO"; reference notes §4). `resultUri` only once COMPLETE with a file. */
export const Task = Type.Object({
  taskId: Type.String(),
  code: Type.Union([Type.Literal('PENDING'), Type.Literal('IN_PROCESS'), Type.Literal('COMPLETE'), Type.Literal('ERROR')]),
  message: Type.String(),
  resultUri: Type.Optional(Type.String({ description: 'Relative path of the result file: /tasks/{taskId}/result' })),
  hasData: Type.Boolean()
})

/** The result file: BIND text (`text/plain`) for one zone, a zip (`application/zip`) for several. */
export const TaskResult = Type.Unsafe<Buffer>({
  description: 'The file, with Content-Disposition: attachment; filename="<taskId>.zone" or "<taskId>.zip"',
  content: {
    'text/plain': { schema: { type: 'string' } },
    'application/zip': { schema: { type: 'string', format: 'binary' } }
  }
})

export const TaskParams = Type.Object({ taskId: Type.String({ minLength: 1, maxLength: 128 }) })

export const TaskListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 1000, description: 'Space-separated key:value pairs: code:PENDING|IN_PROCESS|COMPLETE|ERROR, hasData:TRUE|FALSE' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  sort: Type.Optional(Type.String({ maxLength: 32, description: TASK_SORTS.join(', ') + ' (default CODE)' })),
  reverse: Type.Optional(Type.String({ maxLength: 8, description: 'true or false, any case' })),
  taskType: Type.Optional(Type.String({ maxLength: 32, description: 'Accepted and ignored: reporting requests are not tasks here' }))
})

export const TaskList = Type.Object({
  queryInfo: Type.Object({
    q: Type.String(),
    sort: Type.String(),
    reverse: Type.Boolean(),
    limit: Type.Integer()
  }),
  resultInfo: ResultInfo,
  tasks: Type.Array(Task)
})

/**
 * Body of `POST /zones/export`: `zoneNames` as a JSON array of names or one comma-separated
 * string (the spec's text form), names with or without the trailing dot. Checked by the route,
 * not by the schema, so both forms keep their meaning under the app's type coercion.
 */
export const ExportBody = Type.Object({
  zoneNames: Type.Optional(Type.Unknown({ description: 'Zone names: an array of strings, or one comma-separated string (at most 250)' }))
})
