import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ZonalError } from '../../../errors/catalog.ts'
import type { Store, ZoneWithAccount } from '../../../store/store.ts'
import { EXPORT_ZONES, MAX_EXPORT_ZONES, type ExportZonesPayload } from '../../../tasks/jobs/export-zones.ts'
import { NameError, normalizeZoneName } from '../../../zone/name.ts'
import { principalOf } from '../../plugins/auth.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { ExportBody } from '../../schemas/tasks.ts'

export interface ZoneExportOptions {
  store: Store
  /** The task runner, woken so the export starts at once (absent: it starts at the next poll). */
  tasks?: { wake (): void }
}

/**
 * The names of `zoneNames`: an array of strings, or one string of comma-separated names
 * (spec operation 11). Empty entries are dropped.
 *
 * @throws ZonalError INVALID_INPUT when it is neither.
 */
export function zoneNamesOf (value: unknown): string[] {
  if (value === undefined || value === null) return []
  const parts = typeof value === 'string' ? [value] : value
  if (!Array.isArray(parts) || !parts.every(p => typeof p === 'string')) {
    throw new ZonalError('INVALID_INPUT', 'zoneNames must be a list of zone names or a comma-separated string')
  }
  return parts.flatMap(p => p.split(',')).map(n => n.trim()).filter(n => n !== '')
}

/**
 * `POST /zones/export` (spec operation 11): check every name, then create an export task and
 * answer 202 `{"message":"Pending"}` with `X-Task-Id`. Names are normalised (trailing dot, case,
 * `%2F`) and duplicates collapsed; the limit counts the names as sent. The task belongs to the
 * first zone's account, which decides who can see it.
 *
 * Errors: 55001 FIELD_REQUIRED (no names), 53007 EXPORT_TOO_MANY_ZONES (over 250), 2507
 * ZONE_NAME_INVALID, 1801 ZONE_NOT_FOUND (missing, or not exportable by the caller).
 */
export const zoneExportRoutes: FastifyPluginAsyncTypebox<ZoneExportOptions> = async (app, { store, tasks }) => {
  app.post('/zones/export', {
    schema: {
      tags: ['zones'],
      summary: 'Export zones as BIND files in a background task',
      body: ExportBody,
      response: { 202: MessageBody, '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const principal = principalOf(request)
    const names = zoneNamesOf(request.body.zoneNames)
    if (names.length === 0) throw new ZonalError('FIELD_REQUIRED', 'zoneNames')
    if (names.length > MAX_EXPORT_ZONES) throw new ZonalError('EXPORT_TOO_MANY_ZONES', names.length, MAX_EXPORT_ZONES)

    const scope = principal.scope('export')
    const zones: ZoneWithAccount[] = []
    const seen = new Set<string>()
    for (const raw of names) {
      let name: string
      try {
        name = normalizeZoneName(raw)
      } catch (err) {
        if (err instanceof NameError) throw new ZonalError('ZONE_NAME_INVALID')
        throw err
      }
      if (seen.has(name)) continue
      seen.add(name)
      const zone = await store.zones.findByName(name, scope)
      if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
      zones.push(zone)
    }

    const payload: ExportZonesPayload = {
      zoneIds: zones.map(z => z.id),
      actor: { user: principal.username, ipAddress: request.ip }
    }
    const task = await store.tasks.create({
      accountId: zones[0]!.account_id,
      userId: principal.userId,
      kind: EXPORT_ZONES,
      message: 'Pending',
      payload
    })
    tasks?.wake()
    return await reply.code(202).header('x-task-id', task.id).send({ message: 'Pending' })
  })
}
