import { Type } from 'typebox'

const Long = Type.Integer({ minimum: 0 })

/** Query string of `GET /reports/dns/usage_summary` (and of `/daily`, which also takes the body's accountNames). */
export const UsageQuerystring = Type.Object({
  accountName: Type.Optional(Type.String({ maxLength: 255, description: 'The account (required for the monthly report; the daily report also takes accountNames in its body).' }))
})

const counts = {
  domainsCount: Long,
  recordsCount: Long,
  queryResponsesCount: Long,
  urlForwardCount: Long,
  failoverPoolRecordsCount: Long,
  trafficControllerRecordsCount: Long,
  directionalRecordsCount: Long
}

/** The spec's usage summary record (peaks in the month; query responses summed). */
export const UsageSummaryRecord = Type.Object({
  accountName: Type.String(),
  month: Type.String({ description: '<Month name> <YYYY>' }),
  ...counts
})

/** The daily variant: date and emailForwardCount, no accountName. */
export const UsageDailyRecord = Type.Object({
  month: Type.String({ description: '<Month name> <YYYY>' }),
  date: Type.String({ description: 'yyyy-MM-dd' }),
  domainsCount: Long,
  recordsCount: Long,
  queryResponsesCount: Long,
  urlForwardCount: Long,
  emailForwardCount: Long,
  failoverPoolRecordsCount: Long,
  trafficControllerRecordsCount: Long,
  directionalRecordsCount: Long
})

export const UsageSummaryList = Type.Object({ usageSummary: Type.Array(UsageSummaryRecord) })
export const UsageDailyList = Type.Object({ usageSummary: Type.Array(UsageDailyRecord) })
