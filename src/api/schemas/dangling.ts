import { Type } from 'typebox'

/**
 * Query string of `GET /v1/zones/{zoneName}/healthchecks/dangling`. Values are strings checked by
 * the report (`reports/dangling-dns.ts`), which answers its own messages.
 */
export const DanglingQuerystring = Type.Object({
  host: Type.Optional(Type.String({ maxLength: 1024, description: 'Exact host name (with or without the final dot, any case); no wildcard.' })),
  type: Type.Optional(Type.String({ maxLength: 20, description: 'CNAME, A or AAAA (case-sensitive).' })),
  sort: Type.Optional(Type.String({ maxLength: 20, description: 'host (the default and only sort).' })),
  order: Type.Optional(Type.String({ maxLength: 20, description: 'ASC (default) or DESC (case-sensitive).' })),
  offset: Type.Optional(Type.String({ maxLength: 20, description: '0-based position of the first record; default 0.' })),
  limit: Type.Optional(Type.String({ maxLength: 20, description: 'Records per page, 1 to 1000, default 100.' }))
})

/** The spec's DanglingDNS record. */
export const DanglingRecord = Type.Object({
  host: Type.String({ description: 'The flagged record\'s name.' }),
  type: Type.String({ description: 'The record type (CNAME).' }),
  recordData: Type.String({ description: 'The record\'s data: the CNAME target.' }),
  ultimateTarget: Type.String({ description: 'Where following the target stopped: the name that gave NXDOMAIN or the error.' }),
  description: Type.String({ description: 'Why the record was flagged.' })
})

/** The spec's Dangling DNS report DTO. */
export const DanglingReportDto = Type.Object({
  version: Type.String({ description: 'When the scan started, GMT, YYYY-MM-DD-HH24:MI:SS.nnnZ.' }),
  zone: Type.String(),
  status: Type.Union([Type.Literal('IN_PROGRESS'), Type.Literal('COMPLETED'), Type.Literal('FAILED')]),
  message: Type.Optional(Type.String({ description: 'Progress while IN_PROGRESS, the reason when FAILED, "No data found." when no record matches.' })),
  resultInfo: Type.Object({ totalCount: Type.Integer(), offset: Type.Integer(), returnedCount: Type.Integer(), order: Type.String() }),
  danglingRecordList: Type.Array(DanglingRecord, { description: 'The page of flagged records (the spec\'s key).' }),
  danglingRecordsList: Type.Array(DanglingRecord, { description: 'The same list under the key of the real API\'s example.' })
})
