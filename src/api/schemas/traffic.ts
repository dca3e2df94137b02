import { Type } from 'typebox'

/** The failover report's query (spec "Failover report"); values checked by `reports/failover.ts`. */
export const FailoverReportQuery = Type.Object({
  accountName: Type.Optional(Type.String({ maxLength: 255 })),
  zoneName: Type.Optional(Type.String({ maxLength: 255 })),
  poolName: Type.Optional(Type.String({ maxLength: 255 })),
  poolRecord: Type.Optional(Type.String({ maxLength: 255 })),
  poolRecordType: Type.Optional(Type.String({ maxLength: 16 })),
  trafficServicePoolType: Type.Optional(Type.String({ maxLength: 32 })),
  reportStartDateTime: Type.Optional(Type.String({ maxLength: 40 })),
  reportEndDateTime: Type.Optional(Type.String({ maxLength: 40 })),
  limit: Type.Optional(Type.String({ maxLength: 16 })),
  cursor: Type.Optional(Type.String({ maxLength: 256 })),
  cursorOperation: Type.Optional(Type.String({ maxLength: 16 }))
})

/** A failover record (spec "Failover record"). */
export const FailoverRecord = Type.Object({
  failoverTime: Type.String(),
  accountName: Type.String(),
  zoneName: Type.String(),
  poolName: Type.String(),
  poolRecord: Type.String(),
  poolRecordType: Type.String(),
  poolRecordState: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
  poolRecordStatus: Type.String(),
  failoverReason: Type.String(),
  allFailRecord: Type.Boolean(),
  trafficServicePoolType: Type.String()
})

/** The report: the count and the list under both spellings the spec shows. */
export const FailoverReport = Type.Object({
  failoverRecordCount: Type.Integer(),
  failoverRecords: Type.Array(FailoverRecord),
  probeResultDetailsCount: Type.Integer(),
  probeResultDetails: Type.Array(FailoverRecord)
})

/** `/zones/{zoneName}/rrsets/{rrType}/{ownerName}/probes/{guid}`. */
export const ProbeParams = Type.Object({
  zoneName: Type.String({ minLength: 1, maxLength: 1024 }),
  rrType: Type.String({ minLength: 1, maxLength: 40 }),
  ownerName: Type.String({ minLength: 1, maxLength: 1024 }),
  guid: Type.String({ minLength: 1, maxLength: 64 })
})

export const ProbeListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 255 }))
})

/** A Probe Info DTO (the real API's "Pool Probes" page): checked by `traffic/probe-definition.ts`. */
export const ProbeInfoBody = Type.Unknown({
  description: '{type: HTTP|TCP|DNS|SMTP|FTP (PING and SMTP_SEND are refused), interval?: HALF_MINUTE…FIFTEEN_MINUTES (default FIVE_MINUTES), agents: [region names], threshold: 1…agents, poolRecord?: a record of the pool (record-level probe), headers?: {name: [values]} (HTTP), details: the type\'s details}'
})

/** A probe as GET shows it. */
export const ProbeInfo = Type.Object({
  id: Type.String(),
  poolRecord: Type.Optional(Type.String()),
  type: Type.String(),
  interval: Type.String(),
  agents: Type.Array(Type.String()),
  threshold: Type.Integer(),
  headers: Type.Optional(Type.Unknown()),
  details: Type.Unknown()
})

export const ProbeInfoList = Type.Object({
  probes: Type.Array(ProbeInfo),
  queryInfo: Type.Object({ q: Type.String(), sort: Type.String(), reverse: Type.Boolean(), limit: Type.Integer() }),
  resultInfo: Type.Object({ totalCount: Type.Integer(), offset: Type.Integer(), returnedCount: Type.Integer() })
})

export const ProbeCreated = Type.Object({ message: Type.String(), id: Type.String() })

/** The probe result v2 reports' query (the real API's pages); values checked by `reports/probe-results.ts`. */
export const ProbeReportQuery = Type.Object({
  accountName: Type.Optional(Type.String({ maxLength: 255 })),
  zoneName: Type.Optional(Type.String({ maxLength: 255 })),
  poolName: Type.Optional(Type.String({ maxLength: 255 })),
  trafficServicePoolType: Type.Optional(Type.String({ maxLength: 32 })),
  probeResultType: Type.Optional(Type.String({ maxLength: 16 })),
  poolRecord: Type.Optional(Type.String({ maxLength: 255 })),
  poolRecordType: Type.Optional(Type.String({ maxLength: 16 })),
  poolProbeRegion: Type.Optional(Type.String({ maxLength: 32 })),
  reportStartDateTime: Type.Optional(Type.String({ maxLength: 40 })),
  reportEndDateTime: Type.Optional(Type.String({ maxLength: 40 })),
  limit: Type.Optional(Type.String({ maxLength: 16 })),
  cursor: Type.Optional(Type.String({ maxLength: 64 })),
  cursorOperation: Type.Optional(Type.String({ maxLength: 16 }))
})

const SummaryRow = Type.Object({
  accountName: Type.String(),
  zoneName: Type.String(),
  poolName: Type.String(),
  poolRecord: Type.String(),
  poolRecordType: Type.String(),
  poolProbeRegion: Type.String(),
  successes: Type.Integer(),
  failures: Type.Integer(),
  warnings: Type.Integer(),
  critical: Type.Integer(),
  total: Type.Integer(),
  successPercentage: Type.Number(),
  failurePercentage: Type.Number(),
  warningPercentage: Type.Number(),
  criticalPercentage: Type.Number(),
  reportStartDateTime: Type.String(),
  reportEndDateTime: Type.String(),
  trafficServicePoolType: Type.String()
})

export const ProbeSummaryReport = Type.Object({
  sbtcprobeSummaryRow: Type.Array(SummaryRow),
  sbtcprobeSummaryCount: Type.Integer()
})

const DetailsRow = Type.Object({
  accountName: Type.String(),
  zoneName: Type.String(),
  poolName: Type.String(),
  trafficServicePoolType: Type.String(),
  probeResultType: Type.String(),
  poolRecord: Type.String(),
  poolRecordType: Type.String(),
  poolProbeRegion: Type.String(),
  probeLogTime: Type.String(),
  probeResult: Type.String(),
  probeType: Type.String(),
  statusCount: Type.Integer()
})

export const ProbeDetailsReport = Type.Object({
  sbTcProbeDetailsRow: Type.Array(DetailsRow),
  sbTcprobeDetailsCount: Type.Integer()
})
