import { QueryFlag } from '../dns/server/query-capture.ts'
import type { QueryBatch } from './query-batch.ts'

/**
 * The counters of one aggregated row (query volume, then response codes) and how one captured
 * query adds to them: shared by the sinks that count per (day, zone, node) and per host.
 */

/** The record types the query volume report counts one by one (spec: `record<Type>`), by qtype. */
export const COUNTED_TYPES: ReadonlyArray<readonly [string, number]> = [
  ['a', 1], ['a6', 38], ['aaaa', 28], ['any', 255], ['axfr', 252], ['cert', 37], ['cname', 5],
  ['dlv', 32769], ['dnskey', 48], ['hinfo', 13], ['ipseckey', 45], ['ixfr', 251], ['loc', 29],
  ['mf', 4], ['naptr', 35], ['mx', 15], ['ns', 2], ['nsec', 47], ['nsec3', 50], ['nsec3param', 51],
  ['rp', 17], ['ptr', 12], ['rrsig', 46], ['soa', 6], ['spf', 99], ['srv', 33], ['sshfp', 44],
  ['ta', 32768], ['tsig', 250], ['tkey', 249], ['txt', 16], ['https', 65], ['svcb', 64]
]

/** The query volume counters, in the order of a row's counting array. */
export const VOLUME_COLUMNS: readonly string[] = [
  'rsp_total', 'tcp', 'udp', 'ipv4', 'ipv6', 'ipv4_tcp', 'ipv4_udp', 'ipv6_tcp', 'ipv6_udp',
  ...COUNTED_TYPES.map(([name]) => `type_${name}`)
]

/** The response code counters, in the order of a row's counting array (after the volume ones). */
export const RCODE_COLUMNS: readonly string[] = ['noerror', 'formerr', 'servfail', 'nxdomain', 'notimp', 'refused', 'other']

const TOTAL = 0
const TCP = 1
const UDP = 2
const IPV4 = 3
const IPV6 = 4
/** ipv4_tcp; ipv4_udp, ipv6_tcp and ipv6_udp follow. */
const FAMILY_TRANSPORT = 5
const FIRST_TYPE = 9
const FIRST_RCODE = VOLUME_COLUMNS.length
const OTHER_RCODE = FIRST_RCODE + RCODE_COLUMNS.length - 1
/** Length of a row's counting array: the volume counters, then the response code ones. */
export const WIDTH = FIRST_RCODE + RCODE_COLUMNS.length

/** Column index of each qtype counted one by one, 0 (the total, already counted) for the rest. */
const TYPE_COLUMN = new Uint8Array(65536)
COUNTED_TYPES.forEach(([, qtype], i) => { TYPE_COLUMN[qtype] = FIRST_TYPE + i })

const DAY_MS = 86_400_000

/** Days since the epoch (UTC) of a time in milliseconds. */
export function dayOf (ms: number): number {
  return Math.floor(ms / DAY_MS)
}

/** 'YYYY-MM-DD' of days since the epoch. */
export function dayText (day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}

/**
 * Add the i-th query of the batch to the {@link WIDTH} counters at `at` of `c` (a row's own
 * counting array, or its row of a larger one).
 */
export function countQuery (c: Float64Array, batch: QueryBatch, i: number, at = 0): void {
  const flags = batch.flags[i]!
  const tcp = (flags & QueryFlag.TCP) !== 0 ? 1 : 0
  const v6 = (flags & QueryFlag.IPV6) !== 0 ? 1 : 0
  c[at + TOTAL]!++
  c[at + (tcp === 1 ? TCP : UDP)]!++
  c[at + (v6 === 1 ? IPV6 : IPV4)]!++
  c[at + FAMILY_TRANSPORT + v6 * 2 + (1 - tcp)]!++
  const type = TYPE_COLUMN[batch.qtype[i]!]!
  if (type !== 0) c[at + type]!++
  const rcode = batch.rcode[i]!
  c[at + (rcode <= 5 ? FIRST_RCODE + rcode : OTHER_RCODE)]!++
}

/** Add the {@link WIDTH} counters at `fromAt` of `from` to those at `toAt` of `to`. */
export function addCounts (to: Float64Array, from: Float64Array, toAt = 0, fromAt = 0): void {
  for (let i = 0; i < WIDTH; i++) to[toAt + i]! += from[fromAt + i]!
}

/** The query volume counters at `at` of a counting array by column name, zeros left out. */
export function volumeCounts (c: Float64Array, at = 0): Record<string, number> {
  const out: Record<string, number> = {}
  VOLUME_COLUMNS.forEach((col, i) => { if (c[at + i] !== 0) out[col] = c[at + i]! })
  return out
}

/** The response code counters at `at` of a counting array by column name, zeros left out. */
export function rcodeCounts (c: Float64Array, at = 0): Record<string, number> {
  const out: Record<string, number> = {}
  RCODE_COLUMNS.forEach((col, i) => { if (c[at + FIRST_RCODE + i] !== 0) out[col] = c[at + FIRST_RCODE + i]! })
  return out
}
