import type { DnssecKey, DnssecPolicy, Store } from '../../store/store.ts'

const DAY_MS = 86_400_000

/** A signature is refreshed once less than this part of its validity is left. */
export const REFRESH_FRACTION = 0.25

/**
 * The planned times of a key still to come: becoming active (a pre-published ZSK), retiring or
 * leaving the zone, and its scheduled rollover (its activation plus the policy's frequency).
 */
export function keyTimes (k: DnssecKey, policy: DnssecPolicy): number[] {
  const out: number[] = []
  const t = (iso: string | null): void => { if (iso !== null) out.push(Date.parse(iso)) }
  if (k.state === 'PUBLISHED') t(k.activeAt)
  if (k.state === 'ACTIVE' || k.state === 'RETIRED') {
    t(k.retiredAt)
    t(k.removedAt)
  }
  if (k.state === 'ACTIVE' && k.activeAt !== null && k.retiredAt === null && k.removedAt === null) {
    out.push(Date.parse(k.activeAt) + (k.role === 'KSK' ? policy.kskRolloverDays : policy.zskRolloverDays) * DAY_MS)
  }
  return out
}

/**
 * When the zone next needs the periodic job: the earliest of its keys' next times and the time
 * its earliest signature enters the last quarter of its validity (`earliestExpiration`, seconds
 * since the epoch; after a whole signing, the least a jittered signature gets: 90% of the validity).
 */
export function nextEventAt (keys: readonly DnssecKey[], policy: DnssecPolicy, now: Date, earliestExpiration?: number): string {
  const validityMs = policy.rrsigValidityDays * DAY_MS
  const expires = earliestExpiration === undefined ? now.getTime() + validityMs * 0.9 : earliestExpiration * 1000
  const times = [expires - validityMs * REFRESH_FRACTION, ...keys.flatMap(k => keyTimes(k, policy))]
  return new Date(Math.max(now.getTime(), Math.min(...times))).toISOString()
}

/** {@link nextEventAt} of a zone just signed whole, its keys read from `tx`. */
export async function nextEvent (tx: Store, zoneId: string, policy: DnssecPolicy, now: Date): Promise<string> {
  return nextEventAt(await tx.dnssec.keys(zoneId), policy, now)
}
