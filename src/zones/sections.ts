import { ZonalError } from '../errors/catalog.ts'
import { NameError, nameToString, parseName } from '../zone/name.ts'
import { formatIpv6, parseIpv4, parseIpv6 } from '../zone/rdata/fields.ts'

/**
 * The transfer-related sections of the zone DTOs (restrict list, TSIG, notify addresses,
 * primary name servers): validation of API input into the stored form, with the real API's
 * error codes (120001–120010, 53002).
 */

export const TSIG_ALGORITHMS = ['hmac-md5', 'hmac-sha1', 'hmac-sha224', 'hmac-sha256', 'hmac-sha384', 'hmac-sha512'] as const
export type TsigAlgorithm = typeof TSIG_ALGORITHMS[number]

export interface RestrictIp { startIP: string, endIP: string, comment: string }
export interface Tsig { tsigKeyName: string, tsigKeyValue: string, tsigAlgorithm: TsigAlgorithm, description: string }
export interface NotifyAddress { notifyAddress: string, description: string }
export interface PrimaryNameServer { ip: string, tsigKey?: string, tsigKeyValue?: string, tsigAlgorithm?: TsigAlgorithm }
export type PrimaryNameServers = Record<string, PrimaryNameServer>

type Json = Record<string, unknown>

function isObject (v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function str (v: unknown): string | undefined {
  return typeof v === 'string' ? v.trim() : undefined
}

/** IPv4 or IPv6 address bytes, or undefined. */
export function ipBytes (text: string): Uint8Array | undefined {
  return parseIpv4(text) ?? parseIpv6(text)
}

function compare (a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return 0
}

function cidrRange (cidr: string, field: string, i: number): [string, string] {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(cidr)
  const base = m === null ? undefined : ipBytes(m[1]!)
  const bits = m === null ? -1 : Number(m[2])
  if (base === undefined || bits > base.length * 8) throw new ZonalError('RESTRICT_CIDR_INVALID', cidr, field, i)
  const start = Uint8Array.from(base)
  const end = Uint8Array.from(base)
  for (let b = bits; b < base.length * 8; b++) {
    start[b >> 3]! &= ~(0x80 >> (b & 7))
    end[b >> 3]! |= 0x80 >> (b & 7)
  }
  return [formatIp(start), formatIp(end)]
}

function formatIp (b: Uint8Array): string {
  return b.length === 4 ? Array.from(b).join('.') : formatIpv6(b)
}

/** `restrictIPList` → ranges; `{cidr}` and `{singleIP}` become ranges too. */
export function parseRestrictList (input: unknown, field = 'restrictIPList'): RestrictIp[] {
  if (input === undefined || input === null) return []
  if (!Array.isArray(input)) throw new ZonalError('INVALID_INPUT', `${field} must be a list`)
  return input.map((item: unknown, i) => {
    if (!isObject(item)) throw new ZonalError('RESTRICT_IP_REQUIRED', field, i)
    const comment = str(item.comment) ?? ''
    let start = str(item.startIP)
    let end = str(item.endIP)
    const cidr = str(item.cidr)
    const single = str(item.singleIP)
    if (cidr !== undefined) [start, end] = cidrRange(cidr, field, i)
    else if (single !== undefined) start = end = single
    if (start === undefined || end === undefined) throw new ZonalError('RESTRICT_IP_REQUIRED', field, i)
    const a = ipBytes(start)
    const b = ipBytes(end)
    if (a === undefined) throw new ZonalError('RESTRICT_IP_INVALID', start, field, i)
    if (b === undefined) throw new ZonalError('RESTRICT_IP_INVALID', end, field, i)
    if (a.length !== b.length) throw new ZonalError('RESTRICT_FAMILY_MISMATCH', start, end, field, i)
    if (compare(a, b) > 0) throw new ZonalError('RESTRICT_RANGE_INVALID', end, start, field, i)
    return { startIP: start, endIP: end, comment }
  })
}

function parseAlgorithm (v: unknown, field: string): TsigAlgorithm {
  const alg = (str(v) ?? 'hmac-md5').toLowerCase().replace(/\.$/, '').replace(/^hmac-md5\.sig-alg\.reg\.int$/, 'hmac-md5')
  if (!(TSIG_ALGORITHMS as readonly string[]).includes(alg)) throw new ZonalError('TSIG_ALGORITHM_INVALID', field, TSIG_ALGORITHMS.join(', '))
  return alg as TsigAlgorithm
}

function checkKeyName (name: string, field: string): string {
  try {
    return nameToString(parseName(name.endsWith('.') ? name : name + '.'))
  } catch (err) {
    if (err instanceof NameError) throw new ZonalError('TSIG_KEY_NAME_INVALID', name, field)
    throw err
  }
}

function checkKeyValue (value: string, field: string): string {
  if (value === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) throw new ZonalError('TSIG_KEY_VALUE_INVALID', field)
  return value
}

/** `tsig` of a primary zone; undefined or null clears it. */
export function parseTsig (input: unknown, field = 'tsig'): Tsig | undefined {
  if (input === undefined || input === null) return undefined
  if (!isObject(input)) throw new ZonalError('INVALID_INPUT', `${field} must be an object`)
  const name = str(input.tsigKeyName)
  if (name === undefined || name === '') throw new ZonalError('FIELD_REQUIRED', `${field}.tsigKeyName`)
  return {
    tsigKeyName: checkKeyName(name, field),
    tsigKeyValue: checkKeyValue(str(input.tsigKeyValue) ?? '', field),
    tsigAlgorithm: parseAlgorithm(input.tsigAlgorithm, field),
    description: str(input.description) ?? ''
  }
}

export function parseNotifyAddresses (input: unknown, field = 'notifyAddresses'): NotifyAddress[] {
  if (input === undefined || input === null) return []
  if (!Array.isArray(input)) throw new ZonalError('INVALID_INPUT', `${field} must be a list`)
  return input.map((item: unknown, i) => {
    const address = isObject(item) ? str(item.notifyAddress) : undefined
    // An address may carry a port (`192.0.2.1:5353`, `[2001:db8::1]:5353`) for secondaries on other ports.
    if (address === undefined || parseServerAddress(address) === undefined) throw new ZonalError('NOTIFY_IP_INVALID', address ?? '', field, i)
    return { notifyAddress: address, description: (isObject(item) ? str(item.description) : undefined) ?? '' }
  })
}

/** An address with an optional port: `192.0.2.1`, `192.0.2.1:5353`, `2001:db8::1`, `[2001:db8::1]:5353`. */
export function parseServerAddress (text: string): { host: string, port: number } | undefined {
  let host = text
  let port = 53
  const v6port = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text)
  const v4port = /^([\d.]+):(\d{1,5})$/.exec(text)
  if (v6port !== null) {
    host = v6port[1]!
    port = Number(v6port[2])
  } else if (v4port !== null) {
    host = v4port[1]!
    port = Number(v4port[2])
  }
  if (ipBytes(host) === undefined || port < 1 || port > 65535) return undefined
  return { host, port }
}

/** `primaryNameServers.nameServerIpList` of a secondary zone: nameServerIp1 required. */
export function parsePrimaryNameServers (input: unknown, field = 'primaryNameServers'): PrimaryNameServers {
  const list = isObject(input) ? input.nameServerIpList : undefined
  if (!isObject(list) || !isObject(list.nameServerIp1)) throw new ZonalError('FIELD_REQUIRED', `${field}.nameServerIpList.nameServerIp1`)
  const out: PrimaryNameServers = {}
  for (const key of Object.keys(list).sort()) {
    if (!/^nameServerIp\d+$/.test(key)) throw new ZonalError('INVALID_INPUT', `${field}.nameServerIpList.${key} is not a known field`)
    const item = list[key]
    if (!isObject(item)) throw new ZonalError('PRIMARY_NAME_SERVER_INVALID', key)
    const ip = str(item.ip)
    if (ip === undefined || parseServerAddress(ip) === undefined) throw new ZonalError('PRIMARY_NAME_SERVER_INVALID', `${key}.ip "${ip ?? ''}"`)
    const server: PrimaryNameServer = { ip }
    const tsigKey = str(item.tsigKey)
    if (tsigKey !== undefined && tsigKey !== '') {
      server.tsigKey = checkKeyName(tsigKey, `${field}.nameServerIpList.${key}`)
      server.tsigKeyValue = checkKeyValue(str(item.tsigKeyValue) ?? '', `${field}.nameServerIpList.${key}`)
      server.tsigAlgorithm = parseAlgorithm(item.tsigAlgorithm, `${field}.nameServerIpList.${key}`)
    }
    out[key] = server
  }
  return out
}
