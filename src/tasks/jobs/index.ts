import { DEFAULT_NAMESERVERS } from '../../config/config.ts'
import { COMPUTE_REPORT, computeReport } from '../../reports/requests/service.ts'
import type { TaskHandler } from '../runner.ts'
import { EXPORT_ZONES, exportZones } from './export-zones.ts'
import { UPLOAD_ZONE, uploadZoneJob, type UploadSettings } from './upload-zone.ts'
import { RESTORE_ZONE, restoreZoneJob, SNAPSHOT_ZONE, snapshotZoneJob } from './zone-snapshots.ts'
import { DANGLING_SCAN } from '../../reports/dangling-dns.ts'
import type { DanglingScanSettings } from '../../reports/dangling-scan.ts'
import { danglingScanJob } from './dangling-scan.ts'
import { DNSSEC_TASK, dnssecZoneJob } from './dnssec-zone.ts'

/** Every job the service runs, by task kind: what `serve` hands the task runner. */
export function taskHandlers (settings: UploadSettings = { nameservers: DEFAULT_NAMESERVERS }, dangling: DanglingScanSettings = { resolvers: [] }): Readonly<Record<string, TaskHandler>> {
  return {
    [EXPORT_ZONES]: exportZones,
    [UPLOAD_ZONE]: uploadZoneJob(settings),
    [SNAPSHOT_ZONE]: snapshotZoneJob,
    [RESTORE_ZONE]: restoreZoneJob(settings.forwardAddresses),
    [COMPUTE_REPORT]: computeReport,
    [DANGLING_SCAN]: danglingScanJob(dangling),
    [DNSSEC_TASK]: dnssecZoneJob(settings)
  }
}
