import { canonicalOrderKey, type WireName } from '../../zone/name.ts'

/** An owner found by {@link CanonicalOwners.atOrBefore}: its wire key, and whether it is the name asked. */
export interface OwnerAtOrBefore {
  /** The owner's wire key (`wireKey`), to read its node with `ZoneData.nodeByKey`. */
  key: string
  /** The owner is the name itself (an NSEC or NSEC3 that matches), not one before it (that covers it). */
  exact: boolean
}

/** The wire key (`wireKey`) of the name a {@link canonicalOrderKey} was made from. */
function wireKeyOf (orderKey: string): string {
  const labels = orderKey.split('\0')
  let out = ''
  // The order key ends in U+0000, so the last piece is empty; labels come right to left.
  for (let i = labels.length - 2; i >= 0; i--) {
    const label = labels[i]!
    out += String.fromCharCode(label.length)
    for (let j = 0; j < label.length; j++) out += String.fromCharCode(label.charCodeAt(j) - 1)
  }
  return out + '\0'
}

/**
 * The owners of one record type in a zone (NSEC, or NSEC3) in canonical order (RFC 4034 §6.1),
 * for the ordered question a hash table cannot answer: which owner is the name or the last one
 * before it — the NSEC that matches or covers a name (RFC 4035 §3.1.3), or, owners being
 * `<hash>.<zone>`, the NSEC3 that matches or covers a hash (RFC 5155 §7.2; base32hex keeps the
 * order of the hashes). Only the sorted canonical order keys are kept (one string per owner);
 * a binary search answers in O(log n) without allocation.
 */
export class CanonicalOwners {
  private readonly keys: string[]

  /** @param owners the owners, in any order (each once) */
  constructor (owners: Iterable<WireName>) {
    const keys: string[] = []
    for (const o of owners) keys.push(canonicalOrderKey(o))
    // Code unit order is canonical order for these keys (see canonicalOrderKey).
    keys.sort()
    this.keys = keys
  }

  get size (): number {
    return this.keys.length
  }

  /**
   * The owner equal to `name` (ignoring case) or the last one before it in canonical order; before
   * the first owner, the last one (the chain is a ring: the last record's next name is the
   * first, RFC 4034 §4.1.1). Undefined when there are no owners.
   */
  atOrBefore (name: WireName): OwnerAtOrBefore | undefined {
    const keys = this.keys
    if (keys.length === 0) return undefined
    const k = canonicalOrderKey(name)
    let lo = 0
    let hi = keys.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      if (keys[mid]! <= k) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    const at = found < 0 ? keys.length - 1 : found
    return { key: wireKeyOf(keys[at]!), exact: found >= 0 && keys[found] === k }
  }

  /** Add an owner (a record of the type added where there was none): one binary search and one move of the array. */
  insert (owner: WireName): void {
    const k = canonicalOrderKey(owner)
    const at = this.firstAtOrAfter(k)
    if (this.keys[at] !== k) this.keys.splice(at, 0, k)
  }

  /** Remove an owner (its last record of the type removed). */
  delete (owner: WireName): void {
    const k = canonicalOrderKey(owner)
    const at = this.firstAtOrAfter(k)
    if (this.keys[at] === k) this.keys.splice(at, 1)
  }

  /** The index of the first key not below `k` (the length when there is none). */
  private firstAtOrAfter (k: string): number {
    let lo = 0
    let hi = this.keys.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.keys[mid]! < k) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Octets these keys take, roughly (string headers and characters, the array's slots): for measurements. */
  get approximateBytes (): number {
    let n = this.keys.length * 8
    for (const k of this.keys) n += 16 + k.length
    return n
  }
}
