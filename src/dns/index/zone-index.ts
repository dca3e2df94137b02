import { nameToString, wireKey, type WireName } from '../../zone/name.ts'
import type { ZoneData } from './zone-data.ts'

/** A reply kept as bytes for one exact question (see `handle-query.ts`). */
export interface CachedReply {
  zone: ZoneData
  /** The zone's epoch when the reply was made: a changed zone's replies are stale. */
  epoch: number
  bytes: Uint8Array
  /** The question name's wire key (for the query capture). */
  nameKey: string
}

/** Replies kept before the cache starts over. */
export const MAX_CACHED_REPLIES = 250_000

/**
 * The zones this server answers for, found by longest match of the query name, and the replies
 * made so far. Adding, replacing or removing a zone empties the reply cache (it may change
 * which zone answers a name); a change applied in place moves that zone's epoch instead.
 */
export class ZoneIndex {
  private readonly zones = new Map<string, ZoneData>()
  readonly replies = new Map<string, CachedReply>()

  set (zone: ZoneData): void {
    this.zones.set(zone.originKey, zone)
    this.replies.clear()
  }

  delete (origin: WireName): void {
    this.zones.delete(wireKey(origin))
    this.replies.clear()
  }

  /** Keep a reply (the cache starts over when full). */
  remember (key: string, reply: CachedReply): void {
    if (this.replies.size >= MAX_CACHED_REPLIES) this.replies.clear()
    this.replies.set(key, reply)
  }

  /** The origins served, as lower-case presentation names. */
  origins (): string[] {
    return [...this.zones.values()].map(z => nameToString(z.origin).toLowerCase())
  }

  get size (): number {
    return this.zones.size
  }

  get (origin: WireName): ZoneData | undefined {
    return this.zones.get(wireKey(origin))
  }

  /** The zone with the longest origin that `qname` is at or below. */
  find (qname: WireName): ZoneData | undefined {
    return this.findByKey(qname, wireKey(qname))
  }

  /**
   * {@link find} with the name's key already made: the key of each parent is a suffix of it
   * (one octet per octet), so no key is built per label.
   */
  findByKey (qname: WireName, key: string): ZoneData | undefined {
    let at = 0
    for (;;) {
      const z = this.zones.get(at === 0 ? key : key.slice(at))
      if (z !== undefined) return z
      const len = qname[at]
      if (len === undefined || len === 0) return undefined
      at += len + 1
    }
  }
}
