import type { Actor } from '../../audit/recorder.ts'
import { recordChange } from '../../audit/recorder.ts'
import { ZonalError } from '../../errors/catalog.ts'
import type { TaskResultFile, ZoneWithAccount } from '../../store/store.ts'
import type { TaskHandler } from '../runner.ts'
import { assembleZip, type ZipBody } from '../zip.ts'
import { storedZoneFile } from './zone-text.ts'

/** The task kind of a zone export. */
export const EXPORT_ZONES = 'export-zones'

/** Most zones one export task takes (spec limits: "Zone names per export 250"). */
export const MAX_EXPORT_ZONES = 250

/** Input of an export task, checked and resolved by the route that creates it. */
export interface ExportZonesPayload {
  /** Zone ids in the order the names were asked for, without duplicates. */
  zoneIds: string[]
  /** Who asked, for the audit records. */
  actor?: Actor
}

/** The zip entry name of a zone: the name without its final dot, `/` and `\` as `_`, then `.zone`. */
export function zoneFileName (zoneName: string): string {
  const base = zoneName.replace(/\.$/, '').replace(/[/\\]/g, '_')
  return `${base === '' ? 'root' : base}.zone`
}

function readPayload (payload: unknown): ExportZonesPayload {
  const p = payload as Partial<ExportZonesPayload> | undefined
  if (!Array.isArray(p?.zoneIds) || p.zoneIds.length === 0 || !p.zoneIds.every(id => typeof id === 'string')) {
    throw new Error('export task payload has no zoneIds')
  }
  return { zoneIds: p.zoneIds, actor: p.actor }
}

/**
 * The export job (spec operation 11). Writes each zone as BIND text (see {@link storedZoneText})
 * and reports "Exported N of M zones" after each. One zone gives a `text/plain` file named
 * `<taskId>.zone`; several give an `application/zip` named `<taskId>.zip` holding one
 * `<zone>.zone` per zone ({@link zoneFileName}). On completion, in the same transaction, one
 * audit record per zone (object type ZONE, change type EXPORT).
 *
 * @throws ZonalError ZONE_NOT_FOUND when a zone (or an alias's primary) was deleted since the
 *   request; the task ends ERROR with that message.
 */
export const exportZones: TaskHandler = async ({ task, payload, store, reportProgress, signal }) => {
  const { zoneIds, actor } = readPayload(payload)
  const createdAt = new Date()
  const zones: ZoneWithAccount[] = []
  const entries: Array<{ name: string, body: ZipBody }> = []
  let single: Uint8Array | undefined
  const names = new Set<string>()
  const zip = zoneIds.length > 1
  for (const id of zoneIds) {
    const zone = await store.zones.findById(id)
    if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
    // Read here a page at a time; written (and compressed) in a worker thread.
    const file = await storedZoneFile(store, zone, createdAt, { zip }, signal)
    let name = zoneFileName(zone.name)
    for (let n = 2; names.has(name); n++) name = zoneFileName(zone.name).replace(/\.zone$/, `~${n}.zone`)
    names.add(name)
    if (file.zip !== undefined) entries.push({ name, body: file.zip })
    else single = file.text
    zones.push(zone)
    const done = zones.length
    await reportProgress(`Exported ${done} of ${zoneIds.length} zone${zoneIds.length === 1 ? '' : 's'}`, done / zoneIds.length)
  }

  const result: TaskResultFile = !zip && single !== undefined
    ? { data: single, contentType: 'text/plain', extension: 'zone', fileName: `${task.id}.zone` }
    : { data: assembleZip(entries, { modified: createdAt }), contentType: 'application/zip', extension: 'zip', fileName: `${task.id}.zip` }
  return {
    message: zones.length === 1 ? `${zones[0]!.name} export completed.` : `Export of ${zones.length} zones completed.`,
    result,
    onComplete: async (tx) => {
      for (const zone of zones) {
        await recordChange(tx, actor ?? { user: 'system', ipAddress: null }, {
          accountId: zone.account_id,
          accountName: zone.account_name,
          objectType: 'ZONE',
          changeType: 'EXPORT',
          object: zone.name
        })
      }
    }
  }
}
