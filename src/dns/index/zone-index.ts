import { nameToString, wireKey, type WireName } from '../../zone/name.ts'
import { ReplyCache } from './reply-cache.ts'
import type { ZoneData } from './zone-data.ts'

/**
 * The zones this server answers for, found by longest match of the query name, and the replies
 * made so far (`replies`, see `reply-cache.ts`). Replacing or removing a zone forgets its
 * replies; adding one forgets those of the zone it is cut from (names below the new apex change
 * zone); a change applied in place moves that zone's epoch instead. Other zones' replies stay.
 */
export class ZoneIndex {
  private readonly zones = new Map<string, ZoneData>()
  readonly replies = new ReplyCache()

  set (zone: ZoneData): void {
    const old = this.zones.get(zone.originKey)
    if (old !== undefined && old !== zone) this.replies.forget(old)
    if (old === undefined) {
      const parent = this.find(zone.origin)
      if (parent !== undefined) this.replies.forget(parent)
    }
    this.zones.set(zone.originKey, zone)
  }

  delete (origin: WireName): void {
    const key = wireKey(origin)
    const old = this.zones.get(key)
    if (old === undefined) return
    this.zones.delete(key)
    this.replies.forget(old)
  }

  /** The origins served, as lower-case presentation names. */
  origins (): string[] {
    return [...this.zones.values()].map(z => nameToString(z.origin).toLowerCase())
  }

  /** Every zone served. */
  all (): IterableIterator<ZoneData> {
    return this.zones.values()
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
