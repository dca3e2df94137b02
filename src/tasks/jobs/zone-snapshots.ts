import { ZonalError } from '../../errors/catalog.ts'
import { restoreSnapshot, takeSnapshot, type SnapshotTaskPayload } from '../../zones/snapshots.ts'
import type { TaskContext, TaskHandler } from '../runner.ts'

export { RESTORE_ZONE, SNAPSHOT_ZONE } from '../../zones/snapshots.ts'

function readPayload (ctx: TaskContext): SnapshotTaskPayload {
  const p = ctx.payload as Partial<SnapshotTaskPayload> | undefined
  if (typeof p?.zoneId !== 'string') throw new ZonalError('INVALID_INPUT', 'snapshot task without its zone')
  return { zoneId: p.zoneId, actor: p.actor ?? { user: 'system', ipAddress: null } }
}

/** The zone's name for progress messages (the job checks everything again in its transaction). */
async function zoneName (ctx: TaskContext, zoneId: string): Promise<string> {
  const zone = await ctx.store.zones.findById(zoneId)
  if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
  return `${zone.name} (${zone.record_count} records)`
}

/**
 * The snapshot job (`POST /zones/{zoneName}/snapshot`): takes the zone's snapshot in one
 * transaction (`takeSnapshot`); "Taking a snapshot of …" while it runs, then
 * "Snapshot of example.org. taken with N records.". A zone deleted or made ineligible since the
 * request ends the task ERROR with that error's message.
 */
export const snapshotZoneJob: TaskHandler = async (ctx) => {
  const { zoneId, actor } = readPayload(ctx)
  await ctx.reportProgress(`Taking a snapshot of ${await zoneName(ctx, zoneId)}`, 0.1)
  const { zone, snapshot } = await takeSnapshot(ctx.store, zoneId, actor, new Date())
  return { message: `Snapshot of ${zone.name} taken with ${snapshot.recordCount} records at serial ${snapshot.serial}.` }
}

/**
 * The restore job (`POST /zones/{zoneName}/restore`): replaces the zone's records by its
 * snapshot's in one transaction (`restoreSnapshot`); "Restoring …" while it runs, then
 * "example.org. restored from its snapshot of <time> with N records; serial S.".
 */
export function restoreZoneJob (forwardAddresses?: readonly string[]): TaskHandler {
  return async (ctx) => {
    const { zoneId, actor } = readPayload(ctx)
    await ctx.reportProgress(`Restoring ${await zoneName(ctx, zoneId)} from its snapshot`, 0.1)
    const { zone, snapshot } = await restoreSnapshot(ctx.store, zoneId, actor, new Date(), forwardAddresses)
    return { message: `${zone.name} restored from its snapshot of ${snapshot.createdAt} with ${snapshot.recordCount} records; serial ${zone.serial}.` }
  }
}
