import { canonicalSortKey, nameEquals, wireKey, type WireName } from '../zone/name.ts'
import type { ZoneRecord } from '../zone/record.ts'

const SOA = 6
const NS = 2

function compareBytes (a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/**
 * The writer's fixed record order (DNSControl `sorting.go` in spirit): the apex SOA, the apex
 * NS records, then every other record by owner in canonical DNS order (RFC 4034 §6.1, label by
 * label from the right), then by type number, then by rdata octets.
 */
export function sortRecords (records: readonly ZoneRecord[], origin: WireName): ZoneRecord[] {
  const keys = new Map<string, string>()
  const decorated = records.map((r) => {
    const wk = wireKey(r.owner)
    let sk = keys.get(wk)
    if (sk === undefined) {
      sk = canonicalSortKey(r.owner)
      keys.set(wk, sk)
    }
    const apex = nameEquals(r.owner, origin)
    const group = apex && r.type === SOA ? 0 : apex && r.type === NS ? 1 : 2
    return { r, group, sk }
  })
  decorated.sort((a, b) => {
    if (a.group !== b.group) return a.group - b.group
    if (a.sk !== b.sk) return a.sk < b.sk ? -1 : 1
    if (a.r.type !== b.r.type) return a.r.type - b.r.type
    return compareBytes(a.r.rdata, b.r.rdata)
  })
  return decorated.map(d => d.r)
}
