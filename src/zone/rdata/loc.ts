/**
 * LOC: location (RFC 1876). Wire: version, size, horizontal and vertical precision (each a
 * mantissa and power-of-ten exponent of centimetres, §2), then latitude and longitude in
 * thousandths of an arc second offset by 2^31, and altitude in centimetres above -100000 m.
 *
 * Presentation (§3): `d1 [m1 [s1]] N|S d2 [m2 [s2]] E|W alt[m] [siz[m] [hp[m] [vp[m]]]]`,
 * with size 1m, horizontal precision 10000m and vertical precision 10m by default. Read and
 * written the way BIND 9.18 does (`lib/dns/rdata/generic/loc_29.c`): every field written, seconds
 * with three decimals, altitude with two, sizes as whole metres from 1m up and as `0.NNm` below.
 */
import { ByteReader, ByteWriter, WireError } from './bytes.ts'
import { u32, u8 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { RdataError, TokenReader, type Token } from './tokens.ts'

/** 2^31: the equator and the prime meridian (RFC 1876 §2). */
const EQUATOR = 0x80000000
/** Altitude 0 m is 100000 m above the base of the altitude field, in centimetres. */
const ALT_BASE = 10000000
const MS_PER_DEGREE = 3600000
const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000]

/** Size byte for 1m, 10000m and 10m (RFC 1876 §3 defaults). */
const DEFAULT_SIZE = 0x12
const DEFAULT_HP = 0x16
const DEFAULT_VP = 0x13

/**
 * Encode a size or precision in metres (`12`, `0.5m`, at most two decimals, at most 90000000m)
 * as mantissa and exponent (RFC 1876 §2), truncating as BIND does (`15m` is 1e3 cm).
 */
function parsePrecision (t: Token, label: string): number {
  const text = t.text
  const m = /^(\d*)(?:\.(\d{0,2}))?m?$/.exec(text)
  if (t.quoted || m === null || (m[1] === '' && (m[2] ?? '') === '')) throw new RdataError(`${label} must be metres like 30m or 0.5m, got "${text}"`)
  const metres = Number(m[1] === '' ? '0' : m[1])
  if (metres > 90000000) throw new RdataError(`${label} must be at most 90000000m, got "${text}"`)
  const cm = Number((m[2] ?? '').padEnd(2, '0'))
  if (metres > 0) {
    let exp = 0
    while (exp < 7 && metres >= POW10[exp + 1]!) exp++
    return (Math.floor(metres / POW10[exp]!) << 4) | (exp + 2)
  }
  return cm >= 10 ? (Math.floor(cm / 10) << 4) | 1 : cm << 4
}

/** Presentation of a size or precision byte, as BIND writes it. */
function formatPrecision (b: number): string {
  const man = b >> 4
  const exp = b & 0x0f
  if (exp > 1) return `${man * POW10[exp - 2]!}m`
  return `0.${String(man * POW10[exp]!).padStart(2, '0')}m`
}

/** RFC 1876 §2: both digits 0-9, and no zero mantissa with a non-zero exponent (as BIND). */
function checkPrecision (b: number, label: string): void {
  if (b === 0) return
  if ((b >> 4) > 9 || (b & 0x0f) > 9 || (b >> 4) === 0) throw new WireError(`${label} 0x${b.toString(16)} is not a mantissa and exponent of 0-9`)
}

function number (t: Token, label: string, max: number): number {
  if (t.quoted || !/^\d+$/.test(t.text) || Number(t.text) > max) throw new RdataError(`${label} must be a number from 0 to ${max}, got "${t.text}"`)
  return Number(t.text)
}

/** `d [m [s]] H`: one coordinate in thousandths of an arc second from 2^31. */
function parseCoordinate (r: TokenReader, what: string, hemispheres: [string, string], maxDegrees: number): number {
  const isHemisphere = (t: Token | undefined): boolean => t !== undefined && !t.quoted && hemispheres.includes(t.text)
  const d = number(r.next(`${what} degrees`), `${what} degrees`, maxDegrees)
  let m = 0
  let ms = 0
  if (!isHemisphere(r.peek())) {
    m = number(r.next(`${what} minutes`), `${what} minutes`, 59)
    if (!isHemisphere(r.peek())) {
      const t = r.next(`${what} seconds`)
      const s = /^(\d*)(?:\.(\d{0,3}))?$/.exec(t.text)
      if (t.quoted || s === null || (s[1] === '' && (s[2] ?? '') === '') || Number(s[1]) > 59) throw new RdataError(`${what} seconds must be from 0 to 59.999, got "${t.text}"`)
      ms = Number(s[1]) * 1000 + Number((s[2] ?? '').padEnd(3, '0'))
    }
  }
  const h = r.next(`${what} ${hemispheres.join(' or ')}`)
  if (!isHemisphere(h)) throw new RdataError(`${what} must end in ${hemispheres.join(' or ')}, got "${h.text}"`)
  if (d === maxDegrees && (m !== 0 || ms !== 0)) throw new RdataError(`${what} must be at most ${maxDegrees} degrees`)
  const offset = (d * 3600 + m * 60) * 1000 + ms
  return h.text === hemispheres[1] ? EQUATOR + offset : EQUATOR - offset
}

/** Altitude in metres (-100000.00 to 42849672.95, at most two decimals) → centimetres from the base. */
function parseAltitude (t: Token): number {
  const m = /^(-?)(\d*)(?:\.(\d{0,2}))?m?$/.exec(t.text)
  if (t.quoted || m === null || (m[2] === '' && (m[3] ?? '') === '')) throw new RdataError(`altitude must be metres like -24m or 10.5m, got "${t.text}"`)
  const cm = Number(m[2] === '' ? '0' : m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'))
  if (m[1] === '-') {
    if (cm > ALT_BASE) throw new RdataError(`altitude must be at least -100000m, got "${t.text}"`)
    return ALT_BASE - cm
  }
  if (cm > 0xffffffff - ALT_BASE) throw new RdataError(`altitude must be at most 42849672.95m, got "${t.text}"`)
  return ALT_BASE + cm
}

/** Parse LOC presentation (RFC 1876 §3). @throws RdataError */
export function parseLoc (tokens: readonly Token[]): Uint8Array {
  const r = new TokenReader(tokens)
  const latitude = parseCoordinate(r, 'latitude', ['S', 'N'], 90)
  const longitude = parseCoordinate(r, 'longitude', ['W', 'E'], 180)
  const altitude = parseAltitude(r.next('altitude'))
  const size = r.done ? DEFAULT_SIZE : parsePrecision(r.next('size'), 'size')
  const hp = r.done ? DEFAULT_HP : parsePrecision(r.next('horizontal precision'), 'horizontal precision')
  const vp = r.done ? DEFAULT_VP : parsePrecision(r.next('vertical precision'), 'vertical precision')
  if (!r.done) throw new RdataError(`unexpected "${r.peek()!.text}" after the vertical precision`)
  const w = new ByteWriter(16)
  w.u8(0)
  w.u8(size)
  w.u8(hp)
  w.u8(vp)
  w.u32(latitude)
  w.u32(longitude)
  w.u32(altitude)
  return w.finish()
}

/**
 * Check LOC wire data: a version other than 0 is opaque (RFC 1876 §2: no assumptions about
 * its format; written in the generic form); version 0 is 16 octets with valid sizes and the
 * latitude and longitude in range, as BIND checks them. @throws WireError
 */
export function checkLoc (rdata: Uint8Array): void {
  const r = new ByteReader(rdata)
  if (r.u8() !== 0) return
  if (rdata.length !== 16) throw new WireError(`LOC version 0 is 16 octets, got ${rdata.length}`)
  checkPrecision(r.u8(), 'size')
  checkPrecision(r.u8(), 'horizontal precision')
  checkPrecision(r.u8(), 'vertical precision')
  const lat = r.u32()
  if (Math.abs(lat - EQUATOR) > 90 * MS_PER_DEGREE) throw new WireError('latitude beyond 90 degrees')
  const lon = r.u32()
  if (Math.abs(lon - EQUATOR) > 180 * MS_PER_DEGREE) throw new WireError('longitude beyond 180 degrees')
}

function formatCoordinate (v: number, hemispheres: [string, string]): string {
  const positive = v >= EQUATOR
  let x = positive ? v - EQUATOR : EQUATOR - v
  const ms = x % 1000
  x = Math.floor(x / 1000)
  const s = x % 60
  x = Math.floor(x / 60)
  return `${Math.floor(x / 60)} ${x % 60} ${s}.${String(ms).padStart(3, '0')} ${positive ? hemispheres[1] : hemispheres[0]}`
}

/** LOC presentation as BIND writes it. @throws WireError for data that is not version 0. */
export function formatLoc (rdata: Uint8Array): string {
  checkLoc(rdata)
  if (rdata[0] !== 0) throw new WireError(`LOC version ${rdata[0]} has no presentation form`)
  const r = new ByteReader(rdata, 1)
  const size = r.u8()
  const hp = r.u8()
  const vp = r.u8()
  const lat = formatCoordinate(r.u32(), ['S', 'N'])
  const lon = formatCoordinate(r.u32(), ['W', 'E'])
  const alt = r.u32()
  const cm = alt < ALT_BASE ? ALT_BASE - alt : alt - ALT_BASE
  const altText = `${alt < ALT_BASE ? '-' : ''}${Math.floor(cm / 100)}.${String(cm % 100).padStart(2, '0')}m`
  return `${lat} ${lon} ${altText} ${formatPrecision(size)} ${formatPrecision(hp)} ${formatPrecision(vp)}`
}

/**
 * LOC (RFC 1876). `fields` is the version 0 wire layout; presentation and checks are custom,
 * since the text order and units differ from the wire.
 */
export const LOC = defineType({
  type: RRType.LOC,
  mnemonic: 'LOC',
  rfcs: ['RFC 1876'],
  fields: [u8('version'), u8('size'), u8('horizontal precision'), u8('vertical precision'), u32('latitude'), u32('longitude'), u32('altitude')],
  parse: parseLoc,
  format: formatLoc,
  check: checkLoc,
  validate: (rdata) => rdata[0] === 0 ? [] : [`LOC version ${rdata[0]} is not defined (RFC 1876 §2 defines version 0 only)`]
})
