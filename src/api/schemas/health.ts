import { Type } from 'typebox'

const Status = Type.Union([Type.Literal('OK'), Type.Literal('BEST_PRACTICE'), Type.Literal('INFO'), Type.Literal('WARNING'), Type.Literal('ERROR'), Type.Literal('NOT_APPLICABLE')])
const State = Type.Union([Type.Literal('IN_PROGRESS'), Type.Literal('COMPLETED'), Type.Literal('FAILED')])

/** HealthCheckResult: one check's name, description, optional hint, status and messages. */
const HealthCheckResult = Type.Object({
  name: Type.String(),
  description: Type.String(),
  hint: Type.Optional(Type.String()),
  status: Status,
  messages: Type.Array(Type.Object({ status: Status, message: Type.String() }))
})

/** HealthCheckReport (the real API's DNS Health Check page); `message` says why a check FAILED. */
export const HealthCheckReport = Type.Object({
  version: Type.String({ description: 'The check\'s start time, YYYY-MM-DDTHH:MI:SS.nnnZ' }),
  state: State,
  message: Type.Optional(Type.String()),
  checks: Type.Array(Type.Object({
    category: Type.Union([Type.Literal('NS'), Type.Literal('SOA'), Type.Literal('MX'), Type.Literal('DNSSEC'), Type.Literal('DOMAIN')]),
    state: State,
    status: Status,
    results: Type.Array(HealthCheckResult)
  }))
})

export const HealthCheckVersions = Type.Object({ versions: Type.Array(Type.String()) })

/** HealthStatusRecord of the health status detail report. */
export const HealthStatusRecord = Type.Object({
  zoneName: Type.String(),
  accountName: Type.String(),
  okCount: Type.Integer(),
  errorCount: Type.Integer(),
  warningCount: Type.Integer(),
  bestPracticeViolationCount: Type.Integer(),
  infoCount: Type.Integer(),
  naCount: Type.Integer(),
  healthScore: Type.Number()
})

const AccountStatus = Type.Union([Type.Literal('OK'), Type.Literal('WARNING')])

/** AccountHealthReport (the real API's "Account Health Report"). */
export const AccountHealthReport = Type.Object({
  status: AccountStatus,
  accountHealths: Type.Array(Type.Object({
    accountName: Type.String(),
    status: AccountStatus,
    results: Type.Array(Type.Object({
      name: Type.String(),
      status: AccountStatus,
      description: Type.String(),
      hint: Type.Optional(Type.String()),
      messages: Type.Array(Type.Object({ status: AccountStatus, message: Type.String() }))
    }))
  }))
})

/** HealthStatusSummaryReport: the counts of the detail report's records added up. */
export const HealthStatusSummaryReport = Type.Object({
  okCount: Type.Integer(),
  errorCount: Type.Integer(),
  warningCount: Type.Integer(),
  bestPracticeViolationCount: Type.Integer(),
  infoCount: Type.Integer(),
  naCount: Type.Integer()
})

export const HealthStatusSummaryQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 255 })),
  category: Type.Optional(Type.String({ maxLength: 16 }))
})

export const HealthStatusDetailReport = Type.Object({ healthStatusRecordsList: Type.Array(HealthStatusRecord) })

export const HealthStatusDetailQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 255 })),
  sort: Type.Optional(Type.String({ maxLength: 32 })),
  order: Type.Optional(Type.String({ maxLength: 8 })),
  category: Type.Optional(Type.String({ maxLength: 16 })),
  limit: Type.Optional(Type.String({ maxLength: 16 })),
  cursor: Type.Optional(Type.String({ maxLength: 2048 })),
  cursorOperation: Type.Optional(Type.String({ maxLength: 16 }))
})
