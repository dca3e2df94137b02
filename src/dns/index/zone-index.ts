import { nameToString, wireKey, type WireName } from '../../zone/name.ts'
import type { ZoneData } from './zone-data.ts'

/** The zones this server answers for, found by longest match of the query name. */
export class ZoneIndex {
  private readonly zones = new Map<string, ZoneData>()

  set (zone: ZoneData): void {
    this.zones.set(zone.originKey, zone)
  }

  delete (origin: WireName): void {
    this.zones.delete(wireKey(origin))
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
