/**
 * BIND's `$GENERATE` templates (BIND 9 ARM, "BIND Master File Extension: the $GENERATE
 * Directive"; `genname()` in BIND `lib/dns/master.c`): the range and the `$` substitutions.
 */

/** Most records the `$GENERATE` lines of one file may make together, unless the parse says otherwise (BIND has no cap; a /16 of PTRs still fits). */
export const MAX_GENERATE = 65536

/** A `$GENERATE` range `start-stop[/step]`. */
export interface GenerateRange {
  start: number
  stop: number
  step: number
}

/** A template that cannot be expanded; the message says why. */
export class GenerateError extends Error {}

const INT_MAX = 0x7fffffff

/**
 * Parse `start-stop[/step]` (BIND: unsigned numbers, start ≤ stop, step ≥ 1).
 *
 * @returns the range, or undefined when the text is not a valid range
 */
export function parseRange (text: string): GenerateRange | undefined {
  const m = /^(\d{1,10})-(\d{1,10})(?:\/(\d{1,10}))?$/.exec(text)
  if (m === null) return undefined
  const start = Number(m[1])
  const stop = Number(m[2])
  const step = m[3] === undefined ? 1 : Number(m[3])
  if (start > stop || step < 1 || stop > INT_MAX || step > INT_MAX) return undefined
  return { start, stop, step }
}

/** How many values a range yields. */
export function rangeCount (r: GenerateRange): number {
  return Math.floor((r.stop - r.start) / r.step) + 1
}

const HEX = '0123456789abcdef0123456789ABCDEF'

/** BIND's nibble mode: hex digits lowest first, dot-separated, `width` counting the dots. */
function nibbles (value: number, width: number, upper: boolean): string {
  let out = ''
  do {
    out += HEX[(value & 0x0f) + (upper ? 16 : 0)]
    value >>>= 4
    if (width > 0) width--
    if (width > 0 || value !== 0) {
      out += '.'
      if (width > 0) width--
    }
  } while (value !== 0 || width > 0)
  return out
}

/** printf `%0<width><mode>` of a C int. */
function formatNumber (value: number, width: number, mode: string): string {
  let digits: string
  let sign = ''
  if (mode === 'd') {
    if (value < 0) sign = '-'
    digits = String(Math.abs(value))
  } else {
    const u = value >>> 0
    digits = mode === 'o' ? u.toString(8) : u.toString(16)
    if (mode === 'X') digits = digits.toUpperCase()
  }
  const pad = width - sign.length - digits.length
  return sign + (pad > 0 ? '0'.repeat(pad) : '') + digits
}

// `${offset}`, `${offset,width}`, `${offset,width,base}`: what BIND's sscanf pattern
// "{%d%1[,}]%u%1[,}]%1[doxXnN]%1[}]" accepts.
const MODIFIER = /^\{([+-]?\d+)(?:\}|,(\d+)(?:\}|,([doxXnN])\}))/

/**
 * Expand a `$GENERATE` template for one value of the iterator: `$` is the value, `${offset,
 * width, base}` the value plus offset, zero-padded to width, in base d, o, x, X or n/N (nibble
 * labels, lowest first); `$$` and `\$` are a literal `$` (the backslash form stays escaped for the
 * name parser, as BIND does). Other backslash escapes are kept as written.
 *
 * @throws GenerateError for a bad modifier or a value out of range
 */
export function expandTemplate (template: string, it: number): string {
  let out = ''
  const n = template.length
  let i = 0
  while (i < n) {
    const c = template[i]!
    if (c === '\\') {
      out += template.slice(i, i + 2)
      i += 2
      continue
    }
    if (c !== '$') {
      out += c
      i++
      continue
    }
    i++
    if (template[i] === '$') {
      out += '$'
      i++
      continue
    }
    let offset = 0
    let width = 0
    let mode = 'd'
    if (template[i] === '{') {
      const m = MODIFIER.exec(template.slice(i))
      if (m === null) throw new GenerateError(`bad modifier "${template.slice(i - 1, template.indexOf('}', i) + 1 || undefined)}" (expected \${offset[,width[,base]]} with base d, o, x, X, n or N)`)
      offset = Number(m[1])
      if (m[2] !== undefined) width = Number(m[2])
      if (m[3] !== undefined) mode = m[3]
      i += m[0].length
    }
    // BIND formats into a 128-octet buffer: wider is an error there too.
    if (width > 127) throw new GenerateError(`width ${width} is over 127`)
    const value = it + offset
    if (value > INT_MAX || value < -INT_MAX - 1) throw new GenerateError(`${it} + ${offset} is out of range`)
    if (mode === 'n' || mode === 'N') {
      if (value < 0) throw new GenerateError(`negative value ${value} in nibble mode`)
      out += nibbles(value, width, mode === 'N')
    } else {
      out += formatNumber(value, width, mode)
    }
  }
  return out
}
