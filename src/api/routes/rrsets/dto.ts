import type { Static } from 'typebox'
import { profileDocument } from '../../../zone/pools/index.ts'
import type { RrsetDto as RrsetView } from '../../../zones/rrsets.ts'
import type { RrsetDto } from '../../schemas/rrsets.ts'

/** The rrset DTO (reference notes §7) of a listed rrset: its profile as clients write it, `@context` first. */
export function rrsetDto (r: RrsetView): Static<typeof RrsetDto> {
  const { profile, ...rest } = r
  return { ...rest, ...(profile === undefined ? {} : { profile: profileDocument(profile) }) }
}
