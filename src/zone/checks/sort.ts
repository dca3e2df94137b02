import { canonicalOrderKey } from '../name.ts'
import type { ZoneRecord } from '../record.ts'

export function compareBytes (a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/**
 * Records in canonical order: by owner (RFC 4034 §6.1), then type number, then rdata octets.
 * Returns the sorted records and each one's owner order key (equal keys: the same owner).
 */
export function sortRecords (records: readonly ZoneRecord[]): { records: ZoneRecord[], keys: string[] } {
  const n = records.length
  const keyOf: string[] = new Array<string>(n)
  for (let i = 0; i < n; i++) {
    const r = records[i]!
    // Consecutive records often share one owner object (blank owners in zone files).
    keyOf[i] = i > 0 && records[i - 1]!.owner === r.owner ? keyOf[i - 1]! : canonicalOrderKey(r.owner)
  }
  const index = Array.from({ length: n }, (_, i) => i)
  index.sort((a, b) => {
    const ka = keyOf[a]!
    const kb = keyOf[b]!
    if (ka !== kb) return ka < kb ? -1 : 1
    const ra = records[a]!
    const rb = records[b]!
    if (ra.type !== rb.type) return ra.type - rb.type
    return compareBytes(ra.rdata, rb.rdata)
  })
  return { records: index.map(i => records[i]!), keys: index.map(i => keyOf[i]!) }
}
