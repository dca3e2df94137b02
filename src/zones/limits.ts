import { ZonalError } from '../errors/catalog.ts'

/**
 * How large a zone may grow, and how much of an upload is done within the request
 * (`ZONAL_ZONE_MAX_RECORDS`, `ZONAL_GENERATE_MAX_RECORDS`, `ZONAL_UPLOAD_SYNC_MAX_RECORDS`;
 * docs/decisions.md "Zone size limits"). Each is checked before the work it bounds is done.
 */
export interface ZoneLimits {
  /** Records one zone may hold, however they get in (upload, copy, transfer, rrset writes, AXFR/IXFR). */
  zoneMaxRecords: number
  /** Records all the `$GENERATE` lines of one zone file may make together. */
  generateMaxRecords: number
  /** Uploads with more records than this (counted before parsing) are created by a background task. */
  uploadSyncMaxRecords: number
}

export const DEFAULT_ZONE_LIMITS: Readonly<ZoneLimits> = {
  zoneMaxRecords: 500_000,
  generateMaxRecords: 65_536,
  uploadSyncMaxRecords: 10_000
}

/** Uploads of more characters than this are created by a background task, whatever their record count. */
export const UPLOAD_SYNC_MAX_CHARS = 512 * 1024

/**
 * Refuse a zone that would hold more than `limits.zoneMaxRecords` records.
 *
 * @throws ZonalError ZONE_TOO_MANY_RECORDS (53005)
 */
export function checkZoneSize (records: number, limits: Pick<ZoneLimits, 'zoneMaxRecords'>): void {
  if (records > limits.zoneMaxRecords) throw new ZonalError('ZONE_TOO_MANY_RECORDS', records, limits.zoneMaxRecords)
}
