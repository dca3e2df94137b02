import type { SecretBox } from '../auth/secrets.ts'
import { ZonalError } from '../errors/catalog.ts'
import { compareIp, parseIp } from '../zone/ip.ts'
import { NameError, nameToString, parseName } from '../zone/name.ts'
import {
  cidrRange, formatEndpoint, parseEndpoint, TSIG_ALGORITHMS,
  type AddressRange, type NotifyTarget, type PrimaryServer, type TsigAlgorithm, type TsigKeySpec, type ZoneTsigKey
} from '../zone/settings.ts'

/**
 * The transfer-related sections of the zone API (restrict list, TSIG, notify addresses, primary
 * name servers), both ways: API input decoded into the zone settings, with the real API's error
 * codes (120001–120010, 53002), and the settings written back in the API's spelling — the
 * section documents the Zone DTO shows, JSON Patch paths address and audit details compare.
 */

type Json = Record<string, unknown>

function isObject (v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function str (v: unknown): string | undefined {
  return typeof v === 'string' ? v.trim() : undefined
}

/** `restrictIPList` → ranges; `{cidr}` and `{singleIP}` become ranges too. */
export function parseRestrictList (input: unknown, field = 'restrictIPList'): AddressRange[] {
  if (input === undefined || input === null) return []
  if (!Array.isArray(input)) throw new ZonalError('INVALID_INPUT', `${field} must be a list`)
  return input.map((item: unknown, i) => {
    if (!isObject(item)) throw new ZonalError('RESTRICT_IP_REQUIRED', field, i)
    const comment = str(item.comment) ?? ''
    let first = str(item.startIP)
    let last = str(item.endIP)
    const cidr = str(item.cidr)
    const single = str(item.singleIP)
    if (cidr !== undefined) {
      const range = cidrRange(cidr)
      if (range === undefined) throw new ZonalError('RESTRICT_CIDR_INVALID', cidr, field, i)
      ;({ first, last } = range)
    } else if (single !== undefined) first = last = single
    if (first === undefined || last === undefined) throw new ZonalError('RESTRICT_IP_REQUIRED', field, i)
    const a = parseIp(first)
    const b = parseIp(last)
    if (a === undefined) throw new ZonalError('RESTRICT_IP_INVALID', first, field, i)
    if (b === undefined) throw new ZonalError('RESTRICT_IP_INVALID', last, field, i)
    if (a.length !== b.length) throw new ZonalError('RESTRICT_FAMILY_MISMATCH', first, last, field, i)
    if (compareIp(a, b) > 0) throw new ZonalError('RESTRICT_RANGE_INVALID', last, first, field, i)
    return { first, last, comment }
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

/** `tsig` of a primary zone, its secret sealed; undefined or null clears it. */
export function parseTsig (input: unknown, secrets: SecretBox, field = 'tsig'): ZoneTsigKey | null {
  if (input === undefined || input === null) return null
  if (!isObject(input)) throw new ZonalError('INVALID_INPUT', `${field} must be an object`)
  const name = str(input.tsigKeyName)
  if (name === undefined || name === '') throw new ZonalError('FIELD_REQUIRED', `${field}.tsigKeyName`)
  return {
    name: checkKeyName(name, field),
    algorithm: parseAlgorithm(input.tsigAlgorithm, field),
    secret: secrets.seal(checkKeyValue(str(input.tsigKeyValue) ?? '', field)),
    description: str(input.description) ?? ''
  }
}

export function parseNotifyAddresses (input: unknown, field = 'notifyAddresses'): NotifyTarget[] {
  if (input === undefined || input === null) return []
  if (!Array.isArray(input)) throw new ZonalError('INVALID_INPUT', `${field} must be a list`)
  return input.map((item: unknown, i) => {
    const address = isObject(item) ? str(item.notifyAddress) : undefined
    // An address may carry a port (`192.0.2.1:5353`, `[2001:db8::1]:5353`) for secondaries on other ports.
    const endpoint = address === undefined ? undefined : parseEndpoint(address)
    if (endpoint === undefined) throw new ZonalError('NOTIFY_IP_INVALID', address ?? '', field, i)
    return { endpoint, description: (isObject(item) ? str(item.description) : undefined) ?? '' }
  })
}

/**
 * One primary name server `{ip, tsigKey?, tsigKeyValue?, tsigAlgorithm?}` (also `nameServer` of
 * createType TRANSFER), its key's secret sealed.
 *
 * @throws ZonalError PRIMARY_NAME_SERVER_INVALID (53002), TSIG_KEY_NAME_INVALID,
 *   TSIG_KEY_VALUE_INVALID, TSIG_ALGORITHM_INVALID.
 */
export function parsePrimaryServer (item: unknown, label: string, field: string, secrets: SecretBox): PrimaryServer {
  if (!isObject(item)) throw new ZonalError('PRIMARY_NAME_SERVER_INVALID', label)
  const ip = str(item.ip)
  const endpoint = ip === undefined ? undefined : parseEndpoint(ip)
  if (endpoint === undefined) throw new ZonalError('PRIMARY_NAME_SERVER_INVALID', `${label}.ip "${ip ?? ''}"`)
  const tsigKey = str(item.tsigKey)
  if (tsigKey === undefined || tsigKey === '') return { endpoint }
  const key: TsigKeySpec = {
    name: checkKeyName(tsigKey, field),
    secret: secrets.seal(checkKeyValue(str(item.tsigKeyValue) ?? '', field)),
    algorithm: parseAlgorithm(item.tsigAlgorithm, field)
  }
  return { endpoint, key }
}

const SERVER_KEY = /^nameServerIp(\d+)$/

/**
 * `primaryNameServers.nameServerIpList` of a secondary zone: nameServerIp1 required; the
 * servers in the order of their numbers.
 */
export function parsePrimaryNameServers (input: unknown, secrets: SecretBox, field = 'primaryNameServers'): PrimaryServer[] {
  const list = isObject(input) ? input.nameServerIpList : undefined
  if (!isObject(list) || !isObject(list.nameServerIp1)) throw new ZonalError('FIELD_REQUIRED', `${field}.nameServerIpList.nameServerIp1`)
  const keys = Object.keys(list)
  for (const key of keys) {
    if (!SERVER_KEY.test(key)) throw new ZonalError('INVALID_INPUT', `${field}.nameServerIpList.${key} is not a known field`)
  }
  keys.sort((a, b) => Number(SERVER_KEY.exec(a)![1]) - Number(SERVER_KEY.exec(b)![1]))
  return keys.map(key => parsePrimaryServer(list[key], key, `${field}.nameServerIpList.${key}`, secrets))
}

/** What a section document shows of a secret: the secret itself, or a mask. */
export type SecretView = (secret: TsigKeySpec['secret']) => string

/** `restrictIpList` as GET shows it. */
export function restrictListDocument (ranges: readonly AddressRange[]): Json[] {
  return ranges.map(r => ({ startIP: r.first, endIP: r.last, comment: r.comment }))
}

/** `tsig` as GET shows it. */
export function tsigDocument (tsig: ZoneTsigKey, secret: SecretView): Json {
  return { tsigKeyName: tsig.name, tsigKeyValue: secret(tsig.secret), tsigAlgorithm: tsig.algorithm, description: tsig.description }
}

/** `notifyAddresses` as GET shows them. */
export function notifyDocument (targets: readonly NotifyTarget[]): Json[] {
  return targets.map(n => ({ notifyAddress: formatEndpoint(n.endpoint), description: n.description }))
}

/** `primaryNameServers` as GET shows them: `{nameServerIpList: {nameServerIp1: …}}`, numbered in order. */
export function primaryNameServersDocument (servers: readonly PrimaryServer[], secret: SecretView): { nameServerIpList: Json } {
  const list: Json = {}
  servers.forEach((s, i) => {
    list[`nameServerIp${i + 1}`] = {
      ip: formatEndpoint(s.endpoint),
      ...(s.key === undefined ? {} : { tsigKey: s.key.name, tsigKeyValue: secret(s.key.secret), tsigAlgorithm: s.key.algorithm })
    }
  })
  return { nameServerIpList: list }
}
