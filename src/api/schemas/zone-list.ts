import { Type } from 'typebox'
import { ResultInfo } from './common.ts'

/**
 * Query string of `GET /zones` (every version). All values are taken as strings and checked by
 * the route, so an empty value (`limit=`, `sort=`, `cursor=`, as the Go SDK sends them) means
 * "the default" and a bad value is answered with a message naming the parameter.
 */
export const ZoneListQuerystring = Type.Object({
  q: Type.Optional(Type.String({
    maxLength: 2000,
    description: 'Space-separated key:value terms: name (substring), zone_type (PRIMARY, SECONDARY, ALIAS), ' +
      'zone_status (ACTIVE (default), SUSPENDED, ALL), account_name (may contain spaces), network (ultra1, ultra2); ' +
      '/v1 and /v2 also take dnssec_status (SIGNED, UNSIGNED).'
  })),
  sort: Type.Optional(Type.String({ maxLength: 100, description: 'NAME (default), ACCOUNT_NAME, RECORD_COUNT or ZONE_TYPE, in any case.' })),
  reverse: Type.Optional(Type.String({ maxLength: 20, description: 'true for descending order; any case, default false.' })),
  limit: Type.Optional(Type.String({ maxLength: 20, description: 'Rows per page, 1 to 1000, default 100.' })),
  cursor: Type.Optional(Type.String({ maxLength: 4096, description: 'Unversioned and /v3: a cursor from cursorInfo of an earlier page.' })),
  offset: Type.Optional(Type.String({ maxLength: 20, description: '/v1 and /v2: 0-based position of the first row (ignored by /v3).' }))
})

/** `properties` of a zone in a list (`zoneProperties(row, { list: true })`). */
export const ZoneListProperties = Type.Object({
  name: Type.String(),
  accountName: Type.String(),
  type: Type.String(),
  dnssecStatus: Type.String(),
  status: Type.String(),
  owner: Type.String(),
  lastModifiedDateTime: Type.String(),
  recordCount: Type.Optional(Type.Integer()),
  resourceRecordCount: Type.Integer(),
  mailMonitor: Type.Optional(Type.Boolean()),
  certEnabled: Type.Optional(Type.Boolean()),
  valimailMonitor: Type.Optional(Type.Boolean({ description: 'Primary zones: whether Valimail manages the zone\'s DMARC records (octodns-ultra reads it from the list).' })),
  network2: Type.Optional(Type.Boolean())
})

/** The request as understood: `sort` in its canonical upper-case spelling, `limit` as asked. */
export const ZoneListQueryInfo = Type.Object({
  q: Type.String(),
  sort: Type.String(),
  reverse: Type.Boolean(),
  limit: Type.Integer(),
  cursor: Type.Optional(Type.String())
})

/** Opaque cursors to the neighbouring and end pages; `{}` when the list has one page. */
export const ZoneListCursorInfo = Type.Object({
  next: Type.Optional(Type.String()),
  previous: Type.Optional(Type.String()),
  first: Type.Optional(Type.String()),
  last: Type.Optional(Type.String())
})

/**
 * The zone list: the spec's "Zone List v3 DTO" (`cursorInfo`) unversioned and under /v3, the old
 * offset list (`resultInfo`) under /v1 and /v2. One schema with both sections optional keeps the
 * serializer a single plain object schema.
 */
export const ZoneList = Type.Object({
  queryInfo: ZoneListQueryInfo,
  cursorInfo: Type.Optional(ZoneListCursorInfo),
  resultInfo: Type.Optional(ResultInfo),
  zones: Type.Array(Type.Object({ properties: ZoneListProperties }))
})
