import type { Static } from 'typebox'
import { liveProfileFields } from '../../../traffic/live-status.ts'
import type { PoolRecordHealth } from '../../../zone/pools/health.ts'
import { profileDocument } from '../../../zone/pools/index.ts'
import { parseTypeName } from '../../../zone/rrtype.ts'
import type { RrsetDto as RrsetView } from '../../../zones/rrsets.ts'
import type { RrsetDto } from '../../schemas/rrsets.ts'

/**
 * The rrset DTO (reference notes §7) of a listed rrset: its profile as clients write it, `@context`
 * first; with `healthOf` (pools that probes watch), the profile's live fields (`status`,
 * `availableToServe`, `serving`) from the records' health.
 */
export function rrsetDto (r: RrsetView, healthOf?: (rrtype: number) => ReadonlyMap<string, PoolRecordHealth>): Static<typeof RrsetDto> {
  const { profile, ...rest } = r
  if (profile === undefined) return rest
  const live = healthOf === undefined ? undefined : liveProfileFields(profile, r.rdata, healthOf(parseTypeName(r.rrtype) ?? 0))
  return { ...rest, profile: { ...profileDocument(profile), ...live } }
}
