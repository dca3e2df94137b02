import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from 'typebox'
import type { ListedZone, Scope, Store, ZoneListQuery, ZoneStore } from '../../../store/store.ts'
import { principalOf } from '../../plugins/auth.ts'
import { apiVersionOf } from '../../plugins/version-prefix.ts'
import { ErrorBody } from '../../schemas/common.ts'
import { ZoneList, ZoneListQuerystring, type ZoneListCursorInfo } from '../../schemas/zone-list.ts'
import { zoneProperties } from './dto.ts'
import { decodeCursor, encodeCursor, positionOf, type CursorList, type ListCursor } from './list-cursor.ts'
import { parseLimit, parseOffset, parseReverse, parseSort, zoneFilterOf, type ZoneListFlavour } from './list-query.ts'

type ZoneListBody = Static<typeof ZoneList>
type CursorInfo = Static<typeof ZoneListCursorInfo>

const toDto = (z: ListedZone): ZoneListBody['zones'][number] => ({ properties: zoneProperties(z, { list: true }) })

/**
 * One page of the v3 list by keyset (cost independent of depth; never OFFSET). A page reads
 * `limit + 1` rows in its direction to learn whether more follow there; whether rows lie on the
 * other side is known for the end pages and probed with one more 1-row keyset read otherwise, so
 * `cursorInfo` stays right after zones were added or deleted between requests.
 */
async function cursorPage (zones: ZoneStore, scope: Scope, list: CursorList, limit: number, cursor: ListCursor | undefined): Promise<{ rows: ListedZone[], cursorInfo: CursorInfo }> {
  const base = { scope, filter: list.filter, sort: list.sort, reverse: list.reverse }
  const direction = cursor?.direction ?? 'FIRST'
  const backwards = direction === 'PREVIOUS' || direction === 'LAST'
  const query: ZoneListQuery = { ...base, limit: limit + 1 }
  if (direction === 'NEXT') query.after = cursor?.at
  if (direction === 'PREVIOUS') query.before = cursor?.at
  if (direction === 'LAST') query.before = 'end'
  const read = await zones.list(query)
  const more = read.length > limit
  // A backward read comes back in list order, so its extra row is the first one.
  const rows = !more ? read : backwards ? read.slice(1) : read.slice(0, limit)
  const exists = async (q: Partial<ZoneListQuery>): Promise<boolean> => (await zones.list({ ...base, limit: 1, ...q })).length > 0

  const cursorInfo: CursorInfo = {}
  const first = encodeCursor(list, { direction: 'FIRST' })
  const last = encodeCursor(list, { direction: 'LAST' })
  if (rows.length === 0) {
    // Nothing at this position (rows were deleted since the cursor was made): offer the ends.
    if (cursor !== undefined && direction !== 'FIRST' && direction !== 'LAST' && await exists({})) {
      cursorInfo.first = first
      cursorInfo.last = last
    }
    return { rows, cursorInfo }
  }
  const head = positionOf(rows[0]!, list.sort)
  const tail = positionOf(rows[rows.length - 1]!, list.sort)
  const hasAfter = backwards ? direction !== 'LAST' && await exists({ after: tail }) : more
  const hasBefore = backwards ? more : direction !== 'FIRST' && await exists({ before: head })
  if (hasAfter) cursorInfo.next = encodeCursor(list, { direction: 'NEXT', at: tail })
  if (hasBefore) {
    cursorInfo.previous = encodeCursor(list, { direction: 'PREVIOUS', at: head })
    cursorInfo.first = first
  }
  if (hasAfter) cursorInfo.last = last
  return { rows, cursorInfo }
}

/**
 * `GET /zones`, the zone list (spec operation 4; notes §3 and §7). Unversioned and under /v3 it
 * answers the Zone List v3 DTO paged by `cursor`; under /v1 and /v2 the old list paged by
 * `offset`, with `resultInfo`. Only zones of the caller's readable accounts are listed, whatever
 * `q` asks for; an account without zones gets an empty list (200, not the 404 of the old API).
 *
 * Errors: 400 53005 INVALID_INPUT (`q.<key>` for an unknown key; a bad `q` value, `reverse`,
 * `limit`, `offset` or `cursor`), 400 70004 ZONE_LIST_SORT_INVALID.
 */
export const zoneListRoutes: FastifyPluginAsyncTypebox<{ store: Store }> = async (app, { store }) => {
  app.get('/zones', {
    schema: {
      tags: ['zones'],
      summary: 'List zones',
      description: 'Unversioned and /v3: cursor paging (cursorInfo). /v1 and /v2: offset paging (resultInfo).',
      querystring: ZoneListQuerystring,
      response: { 200: ZoneList, '4xx': ErrorBody }
    }
  }, async (request): Promise<ZoneListBody> => {
    const version = apiVersionOf(request)
    const flavour: ZoneListFlavour = version === 'v1' || version === 'v2' ? 'offset' : 'cursor'
    const { query } = request
    const q = query.q ?? ''
    const list: CursorList = { sort: parseSort(query.sort), reverse: parseReverse(query.reverse), filter: zoneFilterOf(q, flavour) }
    const limit = parseLimit(query.limit)
    const scope = principalOf(request).scope('read')
    const queryInfo = { q, sort: list.sort, reverse: list.reverse, limit }

    if (flavour === 'offset') {
      const offset = parseOffset(query.offset)
      const [rows, totalCount] = await Promise.all([
        store.zones.list({ scope, filter: list.filter, sort: list.sort, reverse: list.reverse, limit, offset }),
        store.zones.count(scope, list.filter)
      ])
      return { queryInfo, resultInfo: { totalCount, offset, returnedCount: rows.length }, zones: rows.map(toDto) }
    }

    // The Go SDK sends offset=0 to /v3 as well: checked, then ignored.
    parseOffset(query.offset)
    const cursorText = (query.cursor ?? '').trim()
    const cursor = cursorText === '' ? undefined : decodeCursor(cursorText, list)
    const { rows, cursorInfo } = await cursorPage(store.zones, scope, list, limit, cursor)
    return {
      queryInfo: cursorText === '' ? queryInfo : { ...queryInfo, cursor: cursorText },
      cursorInfo,
      zones: rows.map(toDto)
    }
  })
}
