import { Type } from 'typebox'

/** `{message}` bodies of successful calls without other data. */
export const MessageBody = Type.Object({ message: Type.String() })

/** One element of the UltraDNS error list. */
export const ErrorItem = Type.Object({ errorCode: Type.Integer(), errorMessage: Type.String() })
export const ErrorList = Type.Array(ErrorItem)
/** Single-object error (token errors). */
export const ErrorObject = Type.Object({
  errorCode: Type.Integer(),
  errorMessage: Type.String(),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String())
})

/** Any error body: the list, or the single object of token errors. */
export const ErrorBody = Type.Union([ErrorList, ErrorObject])

export const ResultInfo = Type.Object({
  totalCount: Type.Integer(),
  offset: Type.Integer(),
  returnedCount: Type.Integer()
})

/** Offset paging query (`offset`, `limit`) as the real API takes it. */
export const OffsetQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 }))
})
