import { formatIp, parseIp } from './ip.ts'

/**
 * A zone's settings in the service's own terms: transfer out (restrict list, TSIG key, notify
 * targets), transfer in (primary servers, transfer state), registrar facts and flags. The store
 * decodes them once; the API maps them to the UltraDNS DTOs (`api/routes/zones/dto.ts`) and the
 * zone use cases decode API input into them (`zones/sections.ts`).
 */

export const TSIG_ALGORITHMS = ['hmac-md5', 'hmac-sha1', 'hmac-sha224', 'hmac-sha256', 'hmac-sha384', 'hmac-sha512'] as const
export type TsigAlgorithm = typeof TSIG_ALGORITHMS[number]

declare const sealed: unique symbol

/**
 * A secret as stored: encrypted with `ZONAL_SECRET_KEY` when one is set (`auth/secrets.ts`
 * `SecretBox`, which alone makes and opens them). The brand keeps a sealed value from being
 * used as the secret itself.
 */
export type SealedSecret = string & { readonly [sealed]: true }

/** A TSIG key (RFC 8945): its name (presentation, trailing dot), algorithm and sealed secret. */
export interface TsigKeySpec {
  name: string
  algorithm: TsigAlgorithm
  secret: SealedSecret
}

/** The TSIG key of a primary zone, which transfers out require. */
export interface ZoneTsigKey extends TsigKeySpec {
  description: string
}

/** An IP address (as given) with an optional port (53 when absent). */
export interface Endpoint {
  address: string
  port?: number
}

/** One range of the restrict list: addresses from `first` to `last` (one family) may transfer. */
export interface AddressRange {
  first: string
  last: string
  comment: string
}

/** A secondary told of changes by NOTIFY (RFC 1996). */
export interface NotifyTarget {
  endpoint: Endpoint
  description: string
}

/** A primary a secondary zone transfers from, with the key transfers from it are signed with. */
export interface PrimaryServer {
  endpoint: Endpoint
  key?: TsigKeySpec
}

/**
 * Where a secondary zone's transfers stand. `requested` is a transfer asked for and not yet
 * started (`full`: the whole zone, even with a copy); `running` one under way; `succeeded` and
 * `failed` the last outcome. Times are ISO 8601 UTC.
 */
export type TransferPhase =
  | { kind: 'requested', full: boolean }
  | { kind: 'running' }
  | { kind: 'succeeded', serial: number, changed: boolean }
  | { kind: 'failed', reason: string }

export interface TransferState {
  phase: TransferPhase
  lastRefresh?: string
  nextRefresh?: string
}

/** What is known of the zone's registration (nothing asks registries yet). */
export interface RegistrarInfo {
  registrar?: string
  /** ISO 8601 UTC. */
  whoisExpiration?: string
}

/** Every setting of a zone besides its records. */
export interface ZoneSettings {
  restrictList: readonly AddressRange[]
  tsig: ZoneTsigKey | null
  notify: readonly NotifyTarget[]
  primaries: readonly PrimaryServer[]
  transfer: TransferState | null
  registrar: RegistrarInfo | null
  notificationEmail: string | null
  /** The UltraDNS `inherit` value (ALL, NONE, IP_RANGE,NOTIFY_IP,TSIG), kept as given. */
  inherit: string | null
  mailMonitor: boolean
  certEnabled: boolean
  valimailMonitor: boolean
}

/** The settings of a new zone before anything is set. */
export const EMPTY_SETTINGS: ZoneSettings = {
  restrictList: [],
  tsig: null,
  notify: [],
  primaries: [],
  transfer: null,
  registrar: null,
  notificationEmail: null,
  inherit: null,
  mailMonitor: false,
  certEnabled: false,
  valimailMonitor: false
}

/**
 * An address with an optional port: `192.0.2.1`, `192.0.2.1:5353`, `2001:db8::1`,
 * `[2001:db8::1]:5353`; undefined when it is not one.
 */
export function parseEndpoint (text: string): Endpoint | undefined {
  let address = text
  let port: number | undefined
  const v6port = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text)
  const v4port = /^([\d.]+):(\d{1,5})$/.exec(text)
  if (v6port !== null) {
    address = v6port[1]!
    port = Number(v6port[2])
  } else if (v4port !== null) {
    address = v4port[1]!
    port = Number(v4port[2])
  }
  if (parseIp(address) === undefined || (port !== undefined && (port < 1 || port > 65535))) return undefined
  return port === undefined ? { address } : { address, port }
}

/** An endpoint as written: the address, with `:port` (IPv6 in brackets) when it has one. */
export function formatEndpoint (e: Endpoint): string {
  if (e.port === undefined) return e.address
  return e.address.includes(':') ? `[${e.address}]:${e.port}` : `${e.address}:${e.port}`
}

/** Where to send to: the address and port (53 by default). */
export function endpointTarget (e: Endpoint): { host: string, port: number } {
  return { host: e.address, port: e.port ?? 53 }
}

/** The range of a CIDR block (`192.0.2.0/24`) as first and last address; undefined when it is not one. */
export function cidrRange (cidr: string): { first: string, last: string } | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(cidr)
  const base = m === null ? undefined : parseIp(m[1]!)
  const bits = m === null ? -1 : Number(m[2])
  if (base === undefined || bits > base.length * 8) return undefined
  const first = Uint8Array.from(base)
  const last = Uint8Array.from(base)
  for (let b = bits; b < base.length * 8; b++) {
    first[b >> 3]! &= ~(0x80 >> (b & 7))
    last[b >> 3]! |= 0x80 >> (b & 7)
  }
  return { first: formatIp(first), last: formatIp(last) }
}
