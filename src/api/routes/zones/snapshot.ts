import { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Store, StoredRrset } from '../../../store/store.ts'
import { typeLabel } from '../../../zone/rdata/index.ts'
import type { ZoneDeps } from '../../../zones/context.ts'
import { readSnapshot, requestRestore, requestSnapshot, snapshotRrsets } from '../../../zones/snapshots.ts'
import { ErrorBody, MessageBody } from '../../schemas/common.ts'
import { rrsetDto } from '../rrsets/dto.ts'
import { callerOf } from './index.ts'

const ZoneParams = Type.Object({ zoneName: Type.String({ minLength: 1, maxLength: 1024 }) })
const AnyBody = Type.Unknown({ description: 'Ignored ({} as the clients send it)' })

/** One rrset of a snapshot as the rrset list shows it (`ownerName`, `rrtype` "A (1)", `ttl`, `rdata`, `profile`). */
function rrsetJson (r: StoredRrset): string {
  return JSON.stringify(rrsetDto({
    ownerName: r.ownerName,
    rrtype: typeLabel(r.type),
    ttl: r.ttl,
    rdata: r.rdataText,
    ...(r.profile === null ? {} : { profile: r.profile })
  }))
}

/**
 * The snapshot as JSON text, written a page of rrsets at a time: `{"zoneName": …, "rrSets": [ … ]}`.
 * A zone of a million records is streamed, never built whole in memory.
 */
async function * snapshotJson (store: Store, zoneId: string, zoneName: string): AsyncGenerator<string> {
  yield `{"zoneName":${JSON.stringify(zoneName)},"rrSets":[`
  let first = true
  for await (const page of snapshotRrsets(store, zoneId)) {
    yield (first ? '' : ',') + page.map(rrsetJson).join(',')
    first = false
  }
  yield ']}'
}

/**
 * Zone snapshots (the UltraDNS Zone Snapshot and Restore API, as the official Python client calls
 * it): `POST /zones/{zoneName}/snapshot` and `POST /zones/{zoneName}/restore` answer 202
 * `{"message":"Pending"}` with `X-Task-Id` (the work runs as a task), `GET
 * /zones/{zoneName}/snapshot` answers the snapshot's rrsets. The rules live in
 * `src/zones/snapshots.ts`.
 */
export const zoneSnapshotRoutes: FastifyPluginAsyncTypebox<{ zones: ZoneDeps, tasks?: { wake (): void } }> = async (app, { zones, tasks }) => {
  const tags = ['zones']

  app.post('/zones/:zoneName/snapshot', {
    schema: { tags, summary: 'Take a snapshot of a primary zone\'s records, replacing its earlier one (a task)', params: ZoneParams, body: AnyBody, response: { 202: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const task = await requestSnapshot(zones, callerOf(request), request.params.zoneName)
    tasks?.wake()
    return await reply.code(202).header('x-task-id', task.id).send({ message: 'Pending' })
  })

  app.get('/zones/:zoneName/snapshot', {
    schema: { tags, summary: 'The zone\'s snapshot: {zoneName, rrSets}', params: ZoneParams, response: { 200: Type.Unknown({ description: '{zoneName, rrSets: [{ownerName, rrtype, ttl, rdata, profile?}]}' }), '4xx': ErrorBody } }
  }, async (request, reply) => {
    const { zone } = await readSnapshot(zones, callerOf(request), request.params.zoneName)
    return await reply.type('application/json').send(Readable.from(snapshotJson(zones.store, zone.id, zone.name)))
  })

  app.post('/zones/:zoneName/restore', {
    schema: { tags, summary: 'Replace the zone\'s records by its snapshot\'s (a task)', params: ZoneParams, body: AnyBody, response: { 202: MessageBody, '4xx': ErrorBody } }
  }, async (request, reply) => {
    const task = await requestRestore(zones, callerOf(request), request.params.zoneName)
    tasks?.wake()
    return await reply.code(202).header('x-task-id', task.id).send({ message: 'Pending' })
  })
}
