import { parseName, type WireName } from './name.ts'
import { parseRdata, tokenize } from './rdata/index.ts'
import type { ZoneRecord } from './record.ts'
import { dateSerial } from './serial.ts'
import { RRType } from './rrtype.ts'

/** TTL of records the service creates (UltraDNS's default TTL). */
export const DEFAULT_TTL = 86400

/** SOA timers of new zones: refresh, retry, expire, minimum (negative TTL, RFC 2308). */
export const SOA_TIMERS = [7200, 3600, 1209600, 300] as const

/**
 * The records of a new empty primary zone: an SOA (primary master the first name server,
 * mailbox `hostmaster.<zone>`, serial `YYYYMMDD00`) and one NS record per name server.
 */
export function newZoneRecords (origin: WireName, nameservers: readonly string[], now: Date): ZoneRecord[] {
  const ns = nameservers.map(n => parseName(n.endsWith('.') ? n : n + '.'))
  if (ns.length === 0) throw new Error('at least one name server is needed for a new zone')
  const ctx = { origin }
  const soaText = `${nameservers[0]!.endsWith('.') ? nameservers[0] : nameservers[0] + '.'} hostmaster ${dateSerial(now)} ${SOA_TIMERS.join(' ')}`
  const soa: ZoneRecord = { owner: origin, type: RRType.SOA, ttl: DEFAULT_TTL, rdata: parseRdata(RRType.SOA, tokenize(soaText), ctx) }
  return [soa, ...ns.map(n => ({ owner: origin, type: RRType.NS, ttl: DEFAULT_TTL, rdata: n }))]
}
