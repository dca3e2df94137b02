import { slabCopy } from './slab.ts'

/**
 * Domain names: presentation ⇄ wire (RFC 1035 §3.1, §5.1), case preserved but compared
 * case-insensitively (RFC 4343), canonical ordering (RFC 4034 §6.1).
 *
 * A {@link WireName} is the uncompressed wire form: length-prefixed labels ending in the root
 * label (a zero byte). It is the one internal form; presentation strings are made from it.
 */
export type WireName = Uint8Array

export const ROOT: WireName = new Uint8Array([0])

export type NameProblemCode =
  | 'NAME_EMPTY'
  | 'NAME_EMPTY_LABEL'
  | 'NAME_LABEL_TOO_LONG'
  | 'NAME_TOO_LONG'
  | 'NAME_BAD_ESCAPE'
  | 'NAME_RELATIVE_WITHOUT_ORIGIN'

/** A name that cannot be parsed; `code` is from a closed list. */
export class NameError extends Error {
  readonly code: NameProblemCode

  constructor (code: NameProblemCode, message: string) {
    super(message)
    this.code = code
  }
}

const MAX_LABEL = 63
const MAX_NAME = 255
const SCRATCH = new Uint8Array(MAX_NAME + 64)
const DOT = 0x2e
const BACKSLASH = 0x5c

/**
 * Parse a presentation name. `@` is the origin; a name without a trailing dot is relative to
 * `origin` (an error when no origin is given). `\.` and `\DDD` escapes are honoured.
 *
 * @throws NameError for empty labels, labels over 63 octets, names over 255 octets, bad escapes.
 */
export function parseName (text: string, origin?: WireName): WireName {
  if (text === '') throw new NameError('NAME_EMPTY', 'empty name')
  if (text === '@') {
    if (origin === undefined) throw new NameError('NAME_RELATIVE_WITHOUT_ORIGIN', '"@" used without an origin')
    return origin
  }
  if (text === '.') return ROOT
  // One scratch buffer for every call (parsing is synchronous); the result is copied out.
  const out = SCRATCH
  let pos = 0
  let labelStart = 0
  let labelLen = 0
  let absolute = false
  out[0] = 0
  pos = 1
  const n = text.length
  for (let i = 0; i < n; i++) {
    let c = text.charCodeAt(i)
    if (c === DOT) {
      if (labelLen === 0) throw new NameError('NAME_EMPTY_LABEL', `empty label in "${text}"`)
      out[labelStart] = labelLen
      if (i === n - 1) {
        absolute = true
        break
      }
      labelStart = pos
      out[pos++] = 0
      labelLen = 0
      continue
    }
    if (c === BACKSLASH) {
      if (i + 1 >= n) throw new NameError('NAME_BAD_ESCAPE', `"${text}" ends with a backslash`)
      const d1 = text.charCodeAt(i + 1)
      if (d1 >= 0x30 && d1 <= 0x39) {
        const d2 = text.charCodeAt(i + 2)
        const d3 = text.charCodeAt(i + 3)
        if (!(d2 >= 0x30 && d2 <= 0x39 && d3 >= 0x30 && d3 <= 0x39)) {
          throw new NameError('NAME_BAD_ESCAPE', `bad \\DDD escape in "${text}"`)
        }
        c = (d1 - 0x30) * 100 + (d2 - 0x30) * 10 + (d3 - 0x30)
        if (c > 255) throw new NameError('NAME_BAD_ESCAPE', `\\DDD escape over 255 in "${text}"`)
        i += 3
      } else {
        c = d1
        i += 1
      }
    } else if (c > 0x7f) {
      // Non-ASCII text is taken as its UTF-8 bytes.
      const bytes = new TextEncoder().encode(String.fromCodePoint(text.codePointAt(i)!))
      if (text.codePointAt(i)! > 0xffff) i++
      for (const b of bytes) {
        if (++labelLen > MAX_LABEL) throw new NameError('NAME_LABEL_TOO_LONG', `label longer than 63 octets in "${text}"`)
        if (pos >= out.length) throw new NameError('NAME_TOO_LONG', `name longer than 255 octets: "${text.slice(0, 40)}…"`)
        out[pos++] = b
      }
      continue
    }
    if (++labelLen > MAX_LABEL) throw new NameError('NAME_LABEL_TOO_LONG', `label longer than 63 octets in "${text}"`)
    if (pos >= out.length) throw new NameError('NAME_TOO_LONG', `name longer than 255 octets: "${text.slice(0, 40)}…"`)
    out[pos++] = c
  }
  if (!absolute) {
    out[labelStart] = labelLen
    if (origin === undefined) throw new NameError('NAME_RELATIVE_WITHOUT_ORIGIN', `relative name "${text}" without an origin`)
    if (pos + origin.length > MAX_NAME) throw new NameError('NAME_TOO_LONG', `name longer than 255 octets: "${text}" + origin`)
    out.set(origin, pos)
    return slabCopy(out.subarray(0, pos + origin.length))
  }
  out[pos++] = 0
  if (pos > MAX_NAME) throw new NameError('NAME_TOO_LONG', `name longer than 255 octets: "${text.slice(0, 40)}…"`)
  return slabCopy(out.subarray(0, pos))
}

/** Whether a name byte is written as is in presentation form (BIND's set of special characters is escaped). */
function plain (b: number): boolean {
  if (b <= 0x20 || b >= 0x7f) return false
  return b !== 0x2e && b !== 0x5c && b !== 0x22 && b !== 0x28 && b !== 0x29 && b !== 0x3b && b !== 0x40 && b !== 0x24
}

/** Presentation form of one label, escaped. */
export function labelToString (wire: Uint8Array, start: number, len: number): string {
  let s = ''
  for (let i = start; i < start + len; i++) {
    const b = wire[i]!
    if (plain(b)) s += String.fromCharCode(b)
    else if (b > 0x20 && b < 0x7f) s += '\\' + String.fromCharCode(b)
    else s += '\\' + String(b).padStart(3, '0')
  }
  return s
}

const CODES: number[] = []

/** Presentation form with escapes and the trailing dot (`.` for the root). */
export function nameToString (wire: WireName): string {
  return labelsToString(wire, 0, wire.length)
}

/**
 * Presentation form of the labels from offset `start` up to (not including) the label at
 * `stop`, each followed by a dot; `.` when there are none.
 */
function labelsToString (wire: WireName, start: number, stop: number): string {
  // Fast path: no octet needs an escape, so the text is the octets with dots for length bytes.
  CODES.length = 0
  let i = start
  let simple = true
  while (i < stop && simple) {
    const len = wire[i]!
    if (len === 0) break
    for (let j = i + 1; j <= i + len; j++) {
      const b = wire[j]!
      if (!plain(b)) {
        simple = false
        break
      }
      CODES.push(b)
    }
    CODES.push(0x2e)
    i += len + 1
  }
  if (simple) return CODES.length === 0 ? '.' : String.fromCharCode.apply(null, CODES)
  let s = ''
  i = start
  while (i < stop) {
    const len = wire[i]!
    if (len === 0) break
    s += labelToString(wire, i + 1, len) + '.'
    i += len + 1
  }
  return s === '' ? '.' : s
}

/** Presentation form of the wire name starting at `offset` of `buf` (uncompressed, already checked). */
export function nameToStringAt (buf: Uint8Array, offset: number, length: number): string {
  return labelsToString(buf, offset, offset + length)
}

/** Length of the uncompressed wire name starting at `offset` of `buf`. @throws NameError when malformed. */
export function wireNameLength (buf: Uint8Array, offset: number, end = buf.length): number {
  let i = offset
  while (true) {
    if (i >= end) throw new NameError('NAME_TOO_LONG', 'name runs past the end of its data')
    const len = buf[i]!
    if (len === 0) break
    if (len > MAX_LABEL) throw new NameError('NAME_LABEL_TOO_LONG', 'label length byte over 63 (a compression pointer where none is allowed?)')
    i += len + 1
  }
  const total = i + 1 - offset
  if (total > MAX_NAME) throw new NameError('NAME_TOO_LONG', 'name longer than 255 octets')
  return total
}

function lower (b: number): number {
  return b >= 0x41 && b <= 0x5a ? b + 32 : b
}

/** A lower-cased copy (for case-insensitive keys and comparison). */
export function lowerName (wire: WireName): WireName {
  const out = new Uint8Array(wire.length)
  for (let i = 0; i < wire.length; i++) out[i] = lower(wire[i]!)
  return out
}

/** A string key equal for names that are equal ignoring case: the lower-cased presentation form. */
export function nameKey (wire: WireName): string {
  return nameToString(wire).toLowerCase()
}

/** Equality ignoring ASCII case (RFC 4343). */
export function nameEquals (a: WireName, b: WireName): boolean {
  if (a === b) return true
  const n = a.length
  if (n !== b.length) return false
  for (let i = 0; i < n; i++) {
    const x = a[i]!
    const y = b[i]!
    if (x !== y && lower(x) !== lower(y)) return false
  }
  return true
}

/** Offsets of each label's length byte, from the leftmost label; the root is not included. */
export function labelOffsets (wire: WireName): number[] {
  const out: number[] = []
  let i = 0
  while (i < wire.length && wire[i] !== 0) {
    out.push(i)
    i += wire[i]! + 1
  }
  return out
}

export function labelCount (wire: WireName): number {
  return labelOffsets(wire).length
}

/** Whether `name` is `parent` or below it. */
export function isSubdomain (name: WireName, parent: WireName): boolean {
  if (name.length < parent.length) return false
  const offset = name.length - parent.length
  // The suffix must start on a label boundary.
  let at = 0
  while (at < offset) at += name[at]! + 1
  if (at !== offset) return false
  for (let i = 0; i < parent.length; i++) {
    const x = name[offset + i]!
    const y = parent[i]!
    if (x !== y && lower(x) !== lower(y)) return false
  }
  return true
}

/** The name with its leftmost `n` labels removed. */
export function parentName (wire: WireName, n = 1): WireName {
  let i = 0
  for (let k = 0; k < n && wire[i] !== 0; k++) i += wire[i]! + 1
  return wire.subarray(i)
}

/**
 * Canonical DNS name order (RFC 4034 §6.1): compare label by label from the right, each label
 * as lower-cased octets, a shorter label (prefix) first; a name sorts before its children.
 */
export function compareNames (a: WireName, b: WireName): number {
  const la = labelOffsets(a)
  const lb = labelOffsets(b)
  let ia = la.length - 1
  let ib = lb.length - 1
  while (ia >= 0 && ib >= 0) {
    const oa = la[ia]!
    const ob = lb[ib]!
    const lenA = a[oa]!
    const lenB = b[ob]!
    const n = Math.min(lenA, lenB)
    for (let k = 1; k <= n; k++) {
      const d = lower(a[oa + k]!) - lower(b[ob + k]!)
      if (d !== 0) return d
    }
    if (lenA !== lenB) return lenA - lenB
    ia--
    ib--
  }
  return ia - ib
}

/**
 * A sortable text key in canonical order: labels right to left, lower-cased, each label's bytes
 * as two hex digits and labels separated by a byte below any hex digit. Used as the store's
 * owner key so SQL ordering is DNS ordering.
 */
export function canonicalSortKey (wire: WireName): string {
  const offsets = labelOffsets(wire)
  let s = ''
  for (let k = offsets.length - 1; k >= 0; k--) {
    const o = offsets[k]!
    const len = wire[o]!
    for (let j = 1; j <= len; j++) s += lower(wire[o + j]!).toString(16).padStart(2, '0')
    s += '!'
  }
  return s
}

/** The name (lower-cased) a {@link canonicalSortKey} was made from. */
export function nameFromSortKey (key: string): WireName {
  const labels = key.split('!').slice(0, -1).reverse()
  const out: number[] = []
  for (const hex of labels) {
    out.push(hex.length / 2)
    for (let i = 0; i < hex.length; i += 2) out.push(parseInt(hex.slice(i, i + 2), 16))
  }
  out.push(0)
  return Uint8Array.from(out)
}

/**
 * The presentation of `name` relative to `origin`: `@` for the origin itself, the leading labels
 * for names below it, the absolute name otherwise.
 */
export function relativeName (name: WireName, origin: WireName): string {
  if (nameEquals(name, origin)) return '@'
  if (origin.length > 1 && isSubdomain(name, origin)) {
    return labelsToString(name, 0, name.length - origin.length).slice(0, -1)
  }
  return nameToString(name)
}

/**
 * A key whose plain string order (`<`) is canonical DNS name order (RFC 4034 §6.1): labels from
 * the right, each octet lower-cased and shifted up by one, labels ended by U+0000 (so a label
 * sorts before a longer label it is a prefix of, and a name before its children). Cheap to
 * build; for in-memory sorting only (see {@link canonicalSortKey} for the store).
 */
export function canonicalOrderKey (wire: WireName): string {
  const offsets = labelOffsets(wire)
  const codes: number[] = []
  for (let k = offsets.length - 1; k >= 0; k--) {
    const o = offsets[k]!
    const len = wire[o]!
    for (let j = 1; j <= len; j++) codes.push(lower(wire[o + j]!) + 1)
    codes.push(0)
  }
  return String.fromCharCode.apply(null, codes)
}

/**
 * Normalise a zone name given to the API: with or without the trailing dot, `%2F` for `/` (RFC
 * 2317 classless reverse zones such as `0/24.2.0.192.in-addr.arpa.`), returned lower-cased with
 * the trailing dot.
 *
 * @throws NameError when it is not a valid domain name.
 */
export function normalizeZoneName (input: string): string {
  const text = input.trim().replace(/%2F/gi, '/')
  if (text === '' || text === '.') throw new NameError('NAME_EMPTY', 'empty zone name')
  // The final dot ends the name unless escaped: an even number of backslashes stands before it.
  const [, backslashes, dot] = /(\\*)(\.?)$/.exec(text)!
  if (dot === '' && backslashes!.length % 2 === 1) throw new NameError('NAME_BAD_ESCAPE', `"${input}" ends with a backslash`)
  const absolute = dot === '.' && backslashes!.length % 2 === 0 ? text : text + '.'
  return nameKey(parseName(absolute))
}

/**
 * A fast case-insensitive map key: the lower-cased wire bytes as a latin1 string (cheaper than
 * {@link nameKey}, which builds the escaped presentation form).
 */
export function wireKey (wire: WireName): string {
  const n = wire.length
  if (n > KEY_CODES.length) return wireKeySlow(wire)
  for (let i = 0; i < n; i++) KEY_CODES[i] = lower(wire[i]!)
  return String.fromCharCode.apply(null, KEY_CODES.subarray(0, n) as unknown as number[])
}

const KEY_CODES = new Uint16Array(512)

function wireKeySlow (wire: WireName): string {
  let s = ''
  for (let i = 0; i < wire.length; i++) s += String.fromCharCode(lower(wire[i]!))
  return s
}

/** The name a {@link wireKey} was made from (lower-cased). */
export function fromWireKey (key: string): WireName {
  const out = new Uint8Array(key.length)
  for (let i = 0; i < key.length; i++) out[i] = key.charCodeAt(i)
  return out
}
