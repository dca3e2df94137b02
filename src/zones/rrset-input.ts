import { ZonalError } from '../errors/catalog.ts'
import { compareBytes } from '../zone/checks/sort.ts'
import { isSubdomain, NameError, nameToString, parseName, type WireName } from '../zone/name.ts'
import { RdataError, validateRdata } from '../zone/rdata/index.ts'
import { rdataToRecordText, recordTextToRdata } from '../zone/record-text.ts'
import { isMetaType, parseTypeName, RRType, typeName } from '../zone/rrtype.ts'

/**
 * The parts of an rrset request as the API spells them (reference notes §7 "RRSets"): the type
 * and owner of the path, and the `ttl` and `rdata` of the body, checked and turned into wire form
 * with one clear reason per mistake.
 */

/** `ANY` in a read path: every type. */
export const ANY = RRType.ANY

/** TTL of an rrset created without one: UltraDNS's default TTL (reference notes §7). */
export const DEFAULT_RRSET_TTL = 86400

/** RFC 2181 §8: a TTL is an unsigned 32-bit number whose top bit is zero. */
export const TTL_MAX = 2147483647

/** Most values one rrset may hold (an input limit, DESIGN.md "Security"). */
export const RDATA_MAX = 1000

/**
 * A type of the path: a mnemonic (`A`, any case), a number (`1`), `TYPE1` or the UltraDNS
 * spelling `A (1)`. `ANY` (255) is returned for reads to mean every type.
 *
 * @throws ZonalError INVALID_INPUT for a string that names no type.
 */
export function rrtypeFrom (text: string): number {
  const type = parseTypeName(text)
  if (type === undefined || type === 0) throw new ZonalError('INVALID_INPUT', `rrType ${text} is not a record type`)
  return type
}

/**
 * A type an rrset may be written with: not `ANY` and no other meta or query type (RFC 6895 §3.1:
 * OPT, and 128–255 such as TSIG, IXFR, AXFR), which never live in a zone.
 *
 * @throws ZonalError INVALID_INPUT
 */
export function writableRrtype (text: string): number {
  const type = rrtypeFrom(text)
  if (isMetaType(type)) throw new ZonalError('INVALID_INPUT', `rrType ${typeName(type)} cannot be stored in a zone`)
  return type
}

/**
 * The owner of the path as a wire name in zone `origin`: `@` is the apex, a name with a trailing
 * dot is absolute, any other is relative to the zone (`www`). A name without the trailing dot that
 * already ends in the zone's name (`www.example.org` in `example.org.`) is taken as absolute, as
 * clients that send FQDNs without the dot mean; write `www.example.org.example.org.` to mean the
 * other. `%2F` stands for `/` (RFC 2317 names such as `0/26`).
 *
 * @throws ZonalError INVALID_INPUT for a name that cannot be parsed or lies outside the zone.
 */
export function ownerFrom (text: string, origin: WireName): WireName {
  const input = text.trim().replace(/%2F/gi, '/')
  let owner: WireName
  try {
    owner = parseName(input, origin)
    if (!input.endsWith('.') && input !== '@') {
      const absolute = parseName(input + '.')
      if (isSubdomain(absolute, origin)) owner = absolute
    }
  } catch (err) {
    if (err instanceof NameError) throw new ZonalError('INVALID_INPUT', `ownerName ${text}: ${err.message}`)
    throw err
  }
  // RFC 1034 §4.2.1: a zone holds the names at and below its apex.
  if (!isSubdomain(owner, origin)) throw new ZonalError('INVALID_INPUT', `ownerName ${nameToString(owner)} is not in the zone ${nameToString(origin)}`)
  return owner
}

/**
 * `ttl` of a body: a whole number from 0 to 2147483647 (RFC 2181 §8), as a JSON number or a
 * string of digits.
 *
 * @throws ZonalError INVALID_INPUT naming `ttl`.
 */
export function ttlFrom (value: unknown): number {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > TTL_MAX) {
    throw new ZonalError('INVALID_INPUT', `ttl must be a whole number from 0 to ${TTL_MAX} (RFC 2181 §8), got ${JSON.stringify(value)}`)
  }
  return n
}

/** Rdata of a body in wire form and as record text (`zone/record-text.ts`), one entry per record. */
export interface ParsedRdata {
  wire: Uint8Array[]
  text: string[]
  /** Each value as the client wrote it, when it came from a request body. */
  given?: string[]
}

/**
 * `rdata` of a body: a non-empty list of record texts (a single string is taken as a list of
 * one): presentation format read as one value, parsed and validated by the record type's module,
 * relative names completed with the zone's name; for TXT and SPF the text itself
 * (`zone/record-text.ts`). Every bad value is reported, each naming its index:
 * `Invalid input: rdata[1]: address must be an IPv4 address, got "1.2.3"`.
 *
 * @throws ZonalError INVALID_INPUT (one item per bad value), RRSET_DUPLICATE_RDATA (450001) when
 *   two values are the same record (RFC 2181 §5: an rrset is a set) or read back the same.
 */
export function rdataFrom (type: number, value: unknown, origin: WireName): ParsedRdata {
  const list = typeof value === 'string' ? [value] : value
  if (!Array.isArray(list)) throw new ZonalError('INVALID_INPUT', 'rdata must be a list of strings')
  if (list.length === 0) throw new ZonalError('INVALID_INPUT', 'rdata must hold at least one value (DELETE removes an rrset)')
  if (list.length > RDATA_MAX) throw new ZonalError('INVALID_INPUT', `rdata holds ${list.length} values; at most ${RDATA_MAX} are allowed`)
  const problems: string[] = []
  const wire: Uint8Array[] = []
  list.forEach((item: unknown, i) => {
    if (typeof item !== 'string') {
      problems.push(`rdata[${i}] must be a string, got ${JSON.stringify(item)}`)
      return
    }
    try {
      const rdata = recordTextToRdata(type, item, origin)
      const reasons = validateRdata(type, rdata)
      if (reasons.length > 0) problems.push(`rdata[${i}]: ${reasons.join('; ')}`)
      else wire.push(rdata)
    } catch (err) {
      if (!(err instanceof RdataError)) throw err
      problems.push(`rdata[${i}]: ${item.trim() === '' ? 'empty value' : err.message}`)
    }
  })
  if (problems.length > 0) throw ZonalError.many('INVALID_INPUT', problems)
  const sorted = [...wire].sort(compareBytes)
  for (let i = 1; i < sorted.length; i++) {
    if (compareBytes(sorted[i - 1]!, sorted[i]!) === 0) throw new ZonalError('RRSET_DUPLICATE_RDATA')
  }
  // The canonical record text is what GET shows and `q=value:` searches.
  const text = wire.map(w => rdataToRecordText(type, w))
  if (new Set(text).size !== text.length) throw new ZonalError('RRSET_DUPLICATE_RDATA')
  return { wire, text, given: list as string[] }
}
