import { ZonalError } from '../errors/catalog.ts'
import { normalizeZone } from '../zone/checks/index.ts'
import { parseName, type WireName } from '../zone/name.ts'
import { readSoa } from '../zone/rdata/soa.ts'
import type { ZoneProblem, ZoneRecord } from '../zone/record.ts'
import { RRType } from '../zone/rrtype.ts'
import { countZoneFile, type ZoneFileCount } from '../zonefile/count.ts'
import { parseZoneText } from '../zonefile/parser.ts'
import { offloaded } from '../util/worker-pool.ts'
import { checkZoneSize, DEFAULT_ZONE_LIMITS, type ZoneLimits } from './limits.ts'
import { packRrsets } from './packed-rrsets.ts'
import { toStoredRrsets } from './records.ts'

/** Problems of an uploaded file as one 400 listing each with its line. */
function rejectProblems (problems: readonly ZoneProblem[]): void {
  const errors = problems.filter(p => p.severity === 'error')
  if (errors.length === 0) return
  throw ZonalError.many('ZONE_FILE_INVALID', errors.slice(0, 1000).map(p => `${p.line === undefined ? '' : `line ${p.line}: `}${p.code}: ${p.message}`))
}

/**
 * Records of an uploaded BIND file: `$INCLUDE` refused, every problem reported, warnings applied
 * (`normalizeZone`), in canonical order. The parse stops at the zone's record limit, and a
 * `$GENERATE` line over the file's limit is a problem (both are also checked before, by
 * {@link checkUploadSize}).
 *
 * @throws ZonalError ZONE_FILE_INVALID (53005) with one detail per problem (at most 1,000).
 */
export function uploadedRecords (text: string, origin: WireName, limits: Pick<ZoneLimits, 'zoneMaxRecords' | 'generateMaxRecords'> = DEFAULT_ZONE_LIMITS): ZoneRecord[] {
  const parsed = parseZoneText(text, { origin, file: 'upload', includes: 'refuse', maxRecords: limits.zoneMaxRecords, maxGenerated: limits.generateMaxRecords })
  rejectProblems(parsed.problems)
  const checked = normalizeZone(parsed.records, origin)
  rejectProblems(checked.problems)
  return checked.records
}

/** An uploaded zone's rrsets packed into one buffer (`packed-rrsets.ts`), with what the zone row needs. */
export interface PackedUpload {
  /** The SOA serial (0 without a SOA). */
  serial: number
  recordCount: number
  rrsetCount: number
  bytes: Uint8Array
}

/**
 * The CPU-heavy part of an upload, made to run in a worker thread ({@link packUploadOffThread}):
 * parse and check the file ({@link uploadedRecords}), group the records into stored rrsets with
 * their record text, and pack them into one buffer.
 *
 * @param zoneName the zone's name (the file's origin), absolute.
 * @throws ZonalError ZONE_FILE_GENERATE_TOO_MANY and ZONE_TOO_MANY_RECORDS as
 *   {@link checkUploadSize} (before parsing), ZONE_FILE_INVALID as {@link uploadedRecords}.
 */
export function packUpload (text: string, zoneName: string, limits: Pick<ZoneLimits, 'zoneMaxRecords' | 'generateMaxRecords'> = DEFAULT_ZONE_LIMITS): PackedUpload {
  checkUploadSize(text, limits)
  const records = uploadedRecords(text, parseName(zoneName), limits)
  const soa = records.find(r => r.type === RRType.SOA)
  const rrsets = toStoredRrsets(records)
  return { serial: soa === undefined ? 0 : readSoa(soa.rdata).serial, recordCount: records.length, rrsetCount: rrsets.length, bytes: packRrsets(rrsets, Math.max(1 << 16, text.length * 2)) }
}

/**
 * The records an uploaded file would give ({@link countZoneFile}: split into entries, `$GENERATE`
 * ranges counted, nothing parsed or expanded), refused when over the limits. Cheap next to the
 * parse, and run before it, so a few bytes asking for millions of records cost no more than
 * their own length.
 *
 * @throws ZonalError ZONE_FILE_GENERATE_TOO_MANY (53005) when the `$GENERATE` lines together
 *   would make more than `limits.generateMaxRecords` records, ZONE_TOO_MANY_RECORDS (53005) when
 *   the file has more than `limits.zoneMaxRecords`.
 */
export function checkUploadSize (text: string, limits: Pick<ZoneLimits, 'zoneMaxRecords' | 'generateMaxRecords'>): ZoneFileCount {
  const count = countZoneFile(text)
  if (count.generated > limits.generateMaxRecords) throw new ZonalError('ZONE_FILE_GENERATE_TOO_MANY', count.generated, limits.generateMaxRecords)
  checkZoneSize(count.records, limits)
  return count
}

/** {@link checkUploadSize} in the shared worker pool (a file of megabytes takes a while to split). */
export const checkUploadSizeOffThread = offloaded<typeof checkUploadSize>(new URL(import.meta.url), 'checkUploadSize')

/** {@link packUpload} in the shared worker pool: the API's event loop stays free while a file is parsed. */
export const packUploadOffThread = offloaded<typeof packUpload>(new URL(import.meta.url), 'packUpload')
