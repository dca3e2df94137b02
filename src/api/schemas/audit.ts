import { Type } from 'typebox'

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()])

/**
 * Query string of `GET /reports/dns_configuration/audit`. Values are strings checked by the
 * report (so `limit=` means the default and a bad value gets the audit log's own error).
 */
export const AuditQuerystring = Type.Object({
  filter: Type.Optional(Type.String({
    maxLength: 4000,
    description: 'key:value pairs separated by ::. Keys: date_range (yyyyMMddHHmmss-yyyyMMddHHmmss GMT, or 15m, 5h, 30d, 5w, 1month), ' +
      'users (user), object_name, object_type, change_type, parent_name, account (accounts), change_comment. ' +
      'A key given twice, or values separated by commas, match any of them; * is a wildcard in names and comments. Default: the last 24 hours.'
  })),
  limit: Type.Optional(Type.String({ maxLength: 20, description: 'Records per page, 1 to 250, default 50.' })),
  Limit: Type.Optional(Type.String({ maxLength: 20, description: 'Another spelling of limit.' })),
  cursor: Type.Optional(Type.String({ maxLength: 1000, description: 'From the Link header of an earlier page.' })),
  cursorOperation: Type.Optional(Type.String({ maxLength: 20, description: 'NEXT (older records, the default) or PREVIOUS (newer ones).' }))
})

export const AuditChange = Type.Object({ name: Type.String(), from: Type.Unknown(), to: Type.Unknown() })

/** The spec's audit record. */
export const AuditRecord = Type.Object({
  objectType: Type.String(),
  changeType: Type.String(),
  object: Type.String(),
  user: Type.String(),
  ipAddress: Nullable(Type.String()),
  changeTime: Type.String({ description: 'yyyy-MM-dd HH:mm:ss.S, GMT' }),
  account: Nullable(Type.String()),
  parent: Nullable(Type.String()),
  detail: Type.Object({ changes: Type.Array(AuditChange), others: Type.Array(Type.Unknown()) }),
  changeComment: Nullable(Type.String())
})

export const AuditList = Type.Object({ auditRecords: Type.Array(AuditRecord) })

export const AuditFiltersQuerystring = Type.Object({
  dateRange: Type.Optional(Type.String({ maxLength: 100, description: 'yyyyMMddHHmmss-yyyyMMddHHmmss (GMT) or 15m, 5h, 30d, 5w, 1month; default the last 24 hours.' }))
})

const FilterEntries = Type.Array(Type.Object({ key: Type.String(), url: Type.String() }))

export const AuditFilters = Type.Object({
  filters: Type.Object({ objectTypes: FilterEntries, changeTypes: FilterEntries, users: FilterEntries, accounts: FilterEntries })
})
