import { formatIpv6, parseIpv4, parseIpv6 } from '../ip.ts'
import { NameError, nameToStringAt, parseName, wireNameLength, type WireName } from '../name.ts'
import { ByteReader, ByteWriter, WireError } from './bytes.ts'
import { RdataError, TokenReader, escapeBytes, unescapeBytes, type Token } from './tokens.ts'

/** What a presentation parser needs besides the tokens. */
export interface ParseContext {
  /** Relative names in rdata are completed with it. */
  origin: WireName
}

/**
 * One field of a rdata layout: how it reads from presentation tokens into wire bytes, how it is
 * written back, and how far it extends in wire data. Most record types are a list of fields
 * (the Knot / ldns approach); types with a structure of their own add custom fields.
 */
export interface Field {
  readonly label: string
  parse (r: TokenReader, ctx: ParseContext, w: ByteWriter): void
  format (r: ByteReader): string
  /** Advance over the field in wire data. @throws WireError when the data is malformed. */
  skip (r: ByteReader): void
  /** A domain name (the message codec decompresses it, and compresses it when `compress`). */
  readonly name?: { compress: boolean }
}

/** Decimal digits only, as a number; -1 when the text is not that (or too long to be exact). */
function decimal (text: string): number {
  const n = text.length
  if (n === 0 || n > 15) return -1
  let v = 0
  for (let i = 0; i < n; i++) {
    const d = text.charCodeAt(i) - 0x30
    if (d < 0 || d > 9) return -1
    v = v * 10 + d
  }
  return v
}

function parseUint (t: Token, label: string, max: number): number {
  const v = t.quoted ? -1 : decimal(t.text)
  if (v < 0) throw new RdataError(`${label} must be a number from 0 to ${max}, got "${t.text}"`)
  if (v > max) throw new RdataError(`${label} must be a number from 0 to ${max}, got ${t.text}`)
  return v
}

export function u8 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => w.u8(parseUint(r.next(label), label, 0xff)),
    format: (r) => String(r.u8()),
    skip: (r) => { r.bytes(1) }
  }
}

export function u16 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => w.u16(parseUint(r.next(label), label, 0xffff)),
    format: (r) => String(r.u16()),
    skip: (r) => { r.bytes(2) }
  }
}

export function u32 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => w.u32(parseUint(r.next(label), label, 0xffffffff)),
    format: (r) => String(r.u32()),
    skip: (r) => { r.bytes(4) }
  }
}

const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 }

/**
 * A TTL in seconds, or with BIND's units (`1h30m`, `1w`, case-insensitive).
 * @returns undefined when `text` is not a TTL.
 */
export function parseTtlText (text: string): number | undefined {
  if (/^\d+$/.test(text)) {
    const v = Number(text)
    return v <= 0xffffffff ? v : undefined
  }
  if (!/^(\d+[smhdw])+$/i.test(text)) return undefined
  let total = 0
  for (const m of text.toLowerCase().matchAll(/(\d+)([smhdw])/g)) total += Number(m[1]) * TTL_UNITS[m[2]!]!
  return total <= 0xffffffff ? total : undefined
}

/** A 32-bit time value written as a TTL (SOA timers): seconds or BIND units. */
export function ttl32 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const t = r.next(label)
      const v = t.quoted ? undefined : parseTtlText(t.text)
      if (v === undefined) throw new RdataError(`${label} must be a number of seconds (or like 1h30m), got "${t.text}"`)
      w.u32(v)
    },
    format: (r) => String(r.u32()),
    skip: (r) => { r.bytes(4) }
  }
}

/** A domain name; `compress` marks the RFC 1035 types whose rdata names may be compressed. */
export function name (label: string, compress = false): Field {
  return {
    label,
    name: { compress },
    parse: (r, c, w) => {
      const t = r.next(label)
      try {
        w.bytes(parseName(t.text, c.origin))
      } catch (err) {
        if (err instanceof NameError) throw new RdataError(`${label}: ${err.message}`)
        throw err
      }
    },
    format: (r) => {
      const len = wireNameLength(r.buf, r.pos, r.end)
      const text = nameToStringAt(r.buf, r.pos, len)
      r.pos += len
      return text
    },
    skip: (r) => { r.bytes(wireNameLength(r.buf, r.pos, r.end)) }
  }
}

export const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

// The one address parser of the service (zone/ip.ts), re-exported for the rdata modules.
export { formatIpv6, parseIpv4, parseIpv6 }

export function ipv4 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const t = r.next(label)
      const b = parseIpv4(t.text)
      if (b === undefined) throw new RdataError(`${label} must be an IPv4 address, got "${t.text}"`)
      w.bytes(b)
    },
    format: (r) => {
      r.need(4)
      const b = r.buf
      const p = r.pos
      r.pos += 4
      return `${b[p]}.${b[p + 1]}.${b[p + 2]}.${b[p + 3]}`
    },
    skip: (r) => { r.bytes(4) }
  }
}

export function ipv6 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const t = r.next(label)
      const b = parseIpv6(t.text)
      if (b === undefined) throw new RdataError(`${label} must be an IPv6 address, got "${t.text}"`)
      w.bytes(b)
    },
    format: (r) => formatIpv6(r.bytes(16)),
    skip: (r) => { r.bytes(16) }
  }
}

function writeCharString (bytes: Uint8Array, label: string, w: ByteWriter): void {
  if (bytes.length > 255) throw new RdataError(`${label} longer than 255 octets`)
  w.u8(bytes.length)
  w.bytes(bytes)
}

/** One character-string (RFC 1035 §3.3): a length octet and up to 255 octets. */
export function charString (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => writeCharString(unescapeBytes(r.next(label).text), label, w),
    format: (r) => `"${escapeBytes(r.bytes(r.u8()))}"`,
    skip: (r) => { r.bytes(r.u8()) }
  }
}

/**
 * One or more character-strings to the end of the rdata (TXT, SPF). A string longer than 255
 * octets is split into 255-octet strings, never truncated.
 */
export function charStrings (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const tokens = r.rest()
      if (tokens.length === 0) throw new RdataError(`missing ${label}`)
      for (const t of tokens) {
        const bytes = unescapeBytes(t.text)
        if (bytes.length === 0) w.u8(0)
        for (let i = 0; i < bytes.length; i += 255) writeCharString(bytes.subarray(i, i + 255), label, w)
      }
    },
    format: (r) => {
      const parts: string[] = []
      while (r.remaining > 0) parts.push(`"${escapeBytes(r.bytes(r.u8()))}"`)
      return parts.join(' ')
    },
    skip: (r) => {
      if (r.remaining === 0) throw new WireError(`${label}: at least one string is required`)
      while (r.remaining > 0) r.bytes(r.u8())
    }
  }
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/

export function decodeBase64 (text: string, label: string): Uint8Array {
  if (!B64.test(text) || text.length % 4 !== 0) throw new RdataError(`${label} is not valid base64`)
  return new Uint8Array(Buffer.from(text, 'base64'))
}

export function encodeBase64 (b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64')
}

export function decodeHex (text: string, label: string): Uint8Array {
  if (!/^[0-9a-fA-F]*$/.test(text) || text.length % 2 !== 0) throw new RdataError(`${label} is not valid hex (an even number of hex digits)`)
  return new Uint8Array(Buffer.from(text, 'hex'))
}

export function encodeHex (b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex').toUpperCase()
}

/** Base64 to the end of the rdata; whitespace-separated pieces are joined. */
export function base64Rest (label: string, { allowEmpty = false } = {}): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const text = r.rest().map(t => t.text).join('')
      if (text === '' && !allowEmpty) throw new RdataError(`missing ${label}`)
      w.bytes(decodeBase64(text, label))
    },
    format: (r) => encodeBase64(r.rest()),
    skip: (r) => {
      if (r.remaining === 0 && !allowEmpty) throw new WireError(`${label} is empty`)
      r.rest()
    }
  }
}

/** Hex to the end of the rdata; whitespace-separated pieces are joined. */
export function hexRest (label: string, { allowEmpty = false } = {}): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const text = r.rest().map(t => t.text).join('')
      if (text === '' && !allowEmpty) throw new RdataError(`missing ${label}`)
      w.bytes(decodeHex(text, label))
    },
    format: (r) => encodeHex(r.rest()),
    skip: (r) => {
      if (r.remaining === 0 && !allowEmpty) throw new WireError(`${label} is empty`)
      r.rest()
    }
  }
}

/** Run the fields of a layout over presentation tokens; all tokens must be used. */
export function parseFields (fields: readonly Field[], tokens: readonly Token[], ctx: ParseContext): Uint8Array {
  const r = new TokenReader(tokens)
  const w = ByteWriter.acquire()
  try {
    for (const f of fields) f.parse(r, ctx, w)
    if (!r.done) throw new RdataError(`unexpected "${r.peek()!.text}" after the last field`)
    return w.finish()
  } finally {
    ByteWriter.release(w)
  }
}

/** Write wire rdata as presentation text, field by field. @throws WireError when malformed. */
export function formatFields (fields: readonly Field[], rdata: Uint8Array): string {
  const r = new ByteReader(rdata)
  let out = ''
  for (const f of fields) {
    // Each field is checked (skip) before it is written, so malformed data never yields text.
    const start = r.pos
    f.skip(r)
    const end = r.pos
    r.pos = start
    const s = f.format(r)
    if (r.pos !== end) throw new WireError(`${f.label}: the field reads ${r.pos - start} octets but spans ${end - start}`)
    if (s !== '') out = out === '' ? s : out + ' ' + s
  }
  if (r.remaining !== 0) throw new WireError(`${r.remaining} octet(s) after the last field`)
  return out
}

/** Check that wire rdata is exactly the fields of a layout. @throws WireError (or NameError) when not. */
export function checkFields (fields: readonly Field[], rdata: Uint8Array): void {
  const r = new ByteReader(rdata)
  for (const f of fields) f.skip(r)
  if (r.remaining !== 0) throw new WireError(`${r.remaining} octet(s) after the last field`)
}

/** A string to the end of the rdata without a length octet (CAA value, URI target), written quoted. */
export function stringRest (label: string, { allowEmpty = true } = {}): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const t = r.next(label)
      const bytes = unescapeBytes(t.text)
      if (bytes.length === 0 && !allowEmpty) throw new RdataError(`${label} must not be empty`)
      w.bytes(bytes)
    },
    format: (r) => `"${escapeBytes(r.rest())}"`,
    skip: (r) => {
      if (r.remaining === 0 && !allowEmpty) throw new WireError(`${label} is empty`)
      r.rest()
    }
  }
}

// Fields for DNSSEC and the other binary-data types (RFC 4034, RFC 5155, RFC 8945, RFC 2930).

/** Mnemonics of a numeric field: names read on input (upper case) and, optionally, names written. */
export interface Mnemonics {
  /** Number of each accepted mnemonic, keyed in upper case. */
  readonly byName: ReadonlyMap<string, number>
  /** Mnemonic written for a number; numbers not in it are written as numbers. */
  readonly byNumber?: ReadonlyMap<number, string>
}

/**
 * An 8- or 16-bit number whose presentation may also be a mnemonic (any case), as BIND's
 * `dns_mnemonic_fromtext` reads it: a token starting with a digit is a number, anything else a
 * mnemonic. With `write`, numbers that have a mnemonic in `names.byNumber` are written with it.
 *
 * @param label - field name used in reasons
 * @param bits - 8 or 16
 * @param names - the mnemonic table
 * @returns a field that throws RdataError for out-of-range numbers and unknown mnemonics
 */
export function mnemonicNumber (label: string, bits: 8 | 16, names: Mnemonics, { write = false } = {}): Field {
  const max = bits === 8 ? 0xff : 0xffff
  return {
    label,
    parse: (r, _c, w) => {
      const t = r.next(label)
      let v: number | undefined
      if (/^\d/.test(t.text)) v = parseUint(t, label, max)
      else if (!t.quoted) v = names.byName.get(t.text.toUpperCase())
      if (v === undefined) {
        const example = [...names.byName.keys()][0] ?? ''
        throw new RdataError(`${label} must be a number from 0 to ${max} or a mnemonic such as ${example}, got "${t.text}"`)
      }
      if (bits === 8) w.u8(v)
      else w.u16(v)
    },
    format: (r) => {
      const v = bits === 8 ? r.u8() : r.u16()
      return (write ? names.byNumber?.get(v) : undefined) ?? String(v)
    },
    skip: (r) => { r.bytes(bits / 8) }
  }
}

/** A 48-bit unsigned number (TSIG time signed, RFC 8945 §4.2), written in decimal. */
export function u48 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => w.u48(parseUint(r.next(label), label, 2 ** 48 - 1)),
    format: (r) => String(r.u48()),
    skip: (r) => { r.bytes(6) }
  }
}

/**
 * Hex data after a length octet (NSEC3 and NSEC3PARAM salt, RFC 5155 §3.3 and §4.3): one token
 * of hex digits, or `-` for no data (written `-` too; other data in upper case as BIND does).
 */
export function hexWithLength8 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const t = r.next(label)
      if (t.text === '' || t.quoted) throw new RdataError(`${label} must be hex digits or "-", got "${t.text}"`)
      const bytes = t.text === '-' ? new Uint8Array(0) : decodeHex(t.text, label)
      if (bytes.length > 255) throw new RdataError(`${label} longer than 255 octets`)
      w.u8(bytes.length)
      w.bytes(bytes)
    },
    format: (r) => {
      const bytes = r.bytes(r.u8())
      return bytes.length === 0 ? '-' : encodeHex(bytes)
    },
    skip: (r) => { r.bytes(r.u8()) }
  }
}

const BASE32HEX = '0123456789ABCDEFGHIJKLMNOPQRSTUV'

/** Base32hex without padding (RFC 4648 §7), upper case. */
export function encodeBase32Hex (bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const b of bytes) {
    value = (value << 8) | b
    bits += 8
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
    value &= (1 << bits) - 1
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31]
  return out
}

/**
 * Decode unpadded base32hex (RFC 4648 §7), any case. Refused like BIND's `base32hexnp`: padding,
 * letters past V, a length that cannot end a quantum (1, 3 or 6 digits over a multiple of 8) and
 * non-zero bits after the last octet.
 *
 * @throws RdataError naming `label`
 */
export function decodeBase32Hex (text: string, label: string): Uint8Array {
  const upper = text.toUpperCase()
  const rem = upper.length % 8
  if (!/^[0-9A-V]*$/.test(upper) || rem === 1 || rem === 3 || rem === 6) {
    throw new RdataError(`${label} is not valid base32hex (digits 0-9 and A-V, no padding)`)
  }
  const out = new Uint8Array(Math.floor(upper.length * 5 / 8))
  let bits = 0
  let value = 0
  let n = 0
  for (const c of upper) {
    value = (value << 5) | BASE32HEX.indexOf(c)
    bits += 5
    if (bits >= 8) {
      out[n++] = (value >>> (bits - 8)) & 0xff
      bits -= 8
    }
    value &= (1 << bits) - 1
  }
  if (value !== 0) throw new RdataError(`${label} is not valid base32hex (non-zero bits after the last octet)`)
  return out
}

/**
 * Base32hex data after a length octet (NSEC3 next hashed owner name, RFC 5155 §3.3): one token,
 * at least one octet, written in upper case as BIND does.
 */
export function base32hexWithLength8 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const t = r.next(label)
      const bytes = decodeBase32Hex(t.text, label)
      if (bytes.length === 0) throw new RdataError(`${label} must not be empty`)
      if (bytes.length > 255) throw new RdataError(`${label} longer than 255 octets`)
      w.u8(bytes.length)
      w.bytes(bytes)
    },
    format: (r) => encodeBase32Hex(r.bytes(r.u8())),
    skip: (r) => {
      const len = r.u8()
      if (len === 0) throw new WireError(`${label} is empty`)
      r.bytes(len)
    }
  }
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/**
 * Parse a signature time (RFC 4034 §3.2): `YYYYMMDDHHmmSS` in UTC (years 0-9999, second 60
 * allowed, taken modulo 2^32 as BIND's `dns_time32_fromtext` does) or, for up to ten digits, a
 * plain number of seconds since 1970.
 *
 * @returns the 32-bit value, or a reason when `text` is not a time
 */
export function parseTime32 (text: string): number | string {
  if (/^\d{1,10}$/.test(text)) {
    const v = Number(text)
    return v <= 0xffffffff ? v : `${text} is over 4294967295`
  }
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text)
  if (m === null) return `"${text}" is neither YYYYMMDDHHmmSS nor a number of seconds`
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number]
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  if (month < 1 || month > 12) return `month ${month} out of range in "${text}"`
  if (day < 1 || day > MONTH_DAYS[month - 1]! + (month === 2 && leap ? 1 : 0)) return `day ${day} out of range in "${text}"`
  if (hour > 23 || minute > 59 || second > 60) return `time of day out of range in "${text}"`
  const d = new Date(0)
  // setUTCFullYear, unlike Date.UTC, takes years 0-99 as they are.
  d.setUTCFullYear(year, month - 1, day)
  d.setUTCHours(hour, minute, second, 0)
  const seconds = d.getTime() / 1000
  return ((seconds % 2 ** 32) + 2 ** 32) % 2 ** 32
}

/**
 * Write a 32-bit signature time as `YYYYMMDDHHmmSS` (RFC 4034 §3.2). The value is read with
 * serial number arithmetic (RFC 1982) as the time nearest `now`, as BIND's `dns_time32_totext`
 * does, so 32-bit times keep working after 2106.
 *
 * @param value - seconds modulo 2^32
 * @param now - the current time in seconds since 1970 (default: the clock)
 */
export function formatTime32 (value: number, now = Math.floor(Date.now() / 1000)): string {
  const now32 = now % 2 ** 32
  let delta = (value - now32) % 2 ** 32
  if (delta < 0) delta += 2 ** 32
  // RFC 1982 §3.2: a difference of 2^31 or more counts as earlier.
  const t = now + (delta >= 2 ** 31 ? delta - 2 ** 32 : delta)
  const d = new Date(t * 1000)
  const p = (n: number, w = 2): string => String(n).padStart(w, '0')
  return p(d.getUTCFullYear(), 4) + p(d.getUTCMonth() + 1) + p(d.getUTCDate()) + p(d.getUTCHours()) + p(d.getUTCMinutes()) + p(d.getUTCSeconds())
}

/**
 * A 32-bit time (RFC 4034 §3.2): read as `YYYYMMDDHHmmSS` or seconds, written as
 * `YYYYMMDDHHmmSS` (RRSIG), or with `{ write: 'number' }` as seconds (TKEY, as BIND writes it).
 */
export function time32 (label: string, { write = 'date' }: { write?: 'date' | 'number' } = {}): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const t = r.next(label)
      const v = t.quoted ? `"${t.text}" is quoted` : parseTime32(t.text)
      if (typeof v === 'string') throw new RdataError(`${label} must be YYYYMMDDHHmmSS or a number of seconds: ${v}`)
      w.u32(v)
    },
    format: (r) => write === 'date' ? formatTime32(r.u32()) : String(r.u32()),
    skip: (r) => { r.bytes(4) }
  }
}

/** Octets a run of base64 text decodes to, padding excluded. */
function base64Length (text: string): number {
  return Math.floor(text.replace(/=+$/, '').length * 3 / 4)
}

/**
 * Base64 data after a 16-bit length (TSIG MAC and other data, RFC 8945 §4.2; TKEY key and other
 * data, RFC 2930 §2): the length, then as many base64 tokens as make that many octets (none for
 * 0), as BIND reads it. Written `<length> <base64>`, or just `0`.
 */
export function base64WithLength16 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const n = parseUint(r.next(`${label} length`), `${label} length`, 0xffff)
      let text = ''
      while (base64Length(text) < n) text += r.next(label).text
      const bytes = decodeBase64(text, label)
      if (bytes.length !== n) throw new RdataError(`${label} is ${bytes.length} octet(s) but its length says ${n}`)
      w.u16(n)
      w.bytes(bytes)
    },
    format: (r) => {
      const bytes = r.bytes(r.u16())
      return bytes.length === 0 ? '0' : `${bytes.length} ${encodeBase64(bytes)}`
    },
    skip: (r) => { r.bytes(r.u16()) }
  }
}
