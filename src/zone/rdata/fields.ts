import { NameError, nameToString, parseName, wireNameLength, type WireName } from '../name.ts'
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

function parseUint (t: Token, label: string, max: number): number {
  if (t.quoted || !/^\d+$/.test(t.text)) throw new RdataError(`${label} must be a number from 0 to ${max}, got "${t.text}"`)
  const v = Number(t.text)
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
      return nameToString(r.bytes(len))
    },
    skip: (r) => { r.bytes(wireNameLength(r.buf, r.pos, r.end)) }
  }
}

export const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

export function parseIpv4 (text: string): Uint8Array | undefined {
  if (!IPV4.test(text)) return undefined
  return Uint8Array.from(text.split('.').map(Number))
}

/** Parse an IPv6 address (with `::` and an embedded dotted quad). */
export function parseIpv6 (text: string): Uint8Array | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.length > 45) return undefined
  let head = text
  if (text.includes('.')) {
    // An embedded dotted quad (::ffff:192.0.2.1) becomes the last two groups.
    const lastColon = text.lastIndexOf(':')
    const v4 = parseIpv4(text.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    head = text.slice(0, lastColon + 1) + ((v4[0]! << 8) | v4[1]!).toString(16) + ':' + ((v4[2]! << 8) | v4[3]!).toString(16)
  }
  const parts = head.split('::')
  if (parts.length > 2) return undefined
  const left = parts[0] === '' ? [] : parts[0]!.split(':')
  const right = parts.length === 2 ? (parts[1] === '' ? [] : parts[1]!.split(':')) : []
  const groups = parts.length === 2 ? 8 - left.length - right.length : 0
  if (parts.length === 1 && left.length !== 8) return undefined
  if (parts.length === 2 && groups < 1) return undefined
  const all = [...left, ...Array<string>(groups).fill('0'), ...right]
  if (all.length !== 8 || all.some(g => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined
  const out = new Uint8Array(16)
  all.forEach((g, i) => {
    const v = parseInt(g, 16)
    out[i * 2] = v >> 8
    out[i * 2 + 1] = v & 0xff
  })
  return out
}

/** RFC 5952 text form of an IPv6 address. */
export function formatIpv6 (b: Uint8Array): string {
  const groups: number[] = []
  for (let i = 0; i < 16; i += 2) groups.push((b[i]! << 8) | b[i + 1]!)
  let bestStart = -1
  let bestLen = 1
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen) {
      bestStart = i
      bestLen = j - i
    }
    i = j
  }
  const hex = groups.map(g => g.toString(16))
  if (bestStart < 0) return hex.join(':')
  return hex.slice(0, bestStart).join(':') + '::' + hex.slice(bestStart + bestLen).join(':')
}

export function ipv4 (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const t = r.next(label)
      const b = parseIpv4(t.text)
      if (b === undefined) throw new RdataError(`${label} must be an IPv4 address, got "${t.text}"`)
      w.bytes(b)
    },
    format: (r) => Array.from(r.bytes(4)).join('.'),
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
  const w = new ByteWriter()
  for (const f of fields) f.parse(r, ctx, w)
  if (!r.done) throw new RdataError(`unexpected "${r.peek()!.text}" after the last field`)
  return w.finish()
}

/** Write wire rdata as presentation text, field by field. @throws WireError when malformed. */
export function formatFields (fields: readonly Field[], rdata: Uint8Array): string {
  const r = new ByteReader(rdata)
  const parts: string[] = []
  for (const f of fields) {
    const s = f.format(r)
    if (s !== '') parts.push(s)
  }
  if (r.remaining !== 0) throw new WireError(`${r.remaining} octet(s) after the last field`)
  return parts.join(' ')
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
