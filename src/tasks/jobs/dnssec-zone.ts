import { SecretBox } from '../../auth/secrets.ts'
import { ZonalError } from '../../errors/catalog.ts'
import { runDnssecTask, type DnssecTaskPayload } from '../../zones/dnssec/sign-zone.ts'
import type { TaskHandler } from '../runner.ts'

export { DNSSEC_TASK } from '../../zones/dnssec/sign-zone.ts'

const DONE = { SIGN: 'signed', RESIGN: 'signed again', UNSIGN: 'unsigned' } as const

/**
 * The job of a signing change of a large zone (`POST|PUT|PATCH|DELETE /zones/{zone}/dnssec`
 * answered 202): its steps while it runs (records read, signed in a worker thread, written:
 * `runDnssecTask`), then "example.org. signed." (or "signed again", "unsigned"). The write
 * checks the zone again: a zone deleted, suspended or signed meanwhile ends the task ERROR.
 */
export function dnssecZoneJob (settings: { secretKey?: string }): TaskHandler {
  const secrets = new SecretBox(settings.secretKey)
  return async (ctx) => {
    const p = ctx.payload as Partial<DnssecTaskPayload> | undefined
    if (typeof p?.zoneId !== 'string' || p.operation === undefined) throw new ZonalError('INVALID_INPUT', 'DNSSEC task without its zone')
    const zone = await ctx.store.zones.findById(p.zoneId)
    if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
    if (p.operation === 'UNSIGN') await ctx.reportProgress(`Unsigning ${zone.name} (${zone.record_count} records)`, 0.1)
    const payload: DnssecTaskPayload = { zoneId: p.zoneId, operation: p.operation, policy: p.policy ?? null, actor: p.actor ?? { user: 'system', ipAddress: null }, comment: p.comment ?? null }
    const done = await runDnssecTask({ store: ctx.store, secrets, clock: () => new Date() }, payload, ctx.reportProgress)
    return { message: `${done.zone} ${DONE[p.operation]}.` }
  }
}
