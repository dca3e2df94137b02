import { parseTtlText } from '../zone/rdata/fields.ts'
import { parseTypeName } from '../zone/rrtype.ts'

/**
 * The TTL, class and type fields of a master-file record (RFC 1035 §5.1), read fast: these run
 * once per record, so the common spellings avoid regular expressions.
 */

/** Largest TTL kept as is; RFC 2181 §8: a TTL with the top bit set is taken as zero. */
export const MAX_TTL = 0x7fffffff

/**
 * A TTL token: seconds, or BIND units (`1h30m`, `1W`), up to 2^32-1.
 * @returns undefined when the text is not a TTL
 */
export function readTtl (text: string): number | undefined {
  const n = text.length
  const c0 = text.charCodeAt(0)
  if (!(c0 >= 0x30 && c0 <= 0x39)) return undefined
  if (n <= 9) {
    let v = 0
    let i = 0
    for (; i < n; i++) {
      const c = text.charCodeAt(i)
      if (c < 0x30 || c > 0x39) break
      v = v * 10 + c - 0x30
    }
    if (i === n) return v
  }
  return parseTtlText(text)
}

const CLASSES: Record<string, number> = { IN: 1, CS: 2, CH: 3, CHAOS: 3, HS: 4, HESIOD: 4, NONE: 254, ANY: 255 }

/** The class IN (RFC 1035 §3.2.4). */
export const IN = 1

/**
 * A class token: a mnemonic (any case) or `CLASSnnn` (RFC 3597 §5).
 * @returns the class number, -1 for a malformed `CLASSnnn`, undefined when it is not a class
 */
export function readClass (text: string): number | undefined {
  if (text === 'IN' || text === 'in') return IN
  if (text.length > 12) return undefined
  const upper = text.toUpperCase()
  const known = CLASSES[upper]
  if (known !== undefined) return known
  if (!upper.startsWith('CLASS')) return undefined
  const digits = upper.slice(5)
  if (!/^\d{1,5}$/.test(digits)) return -1
  const v = Number(digits)
  return v <= 0xffff ? v : -1
}

const typeCache = new Map<string, number>()

/**
 * A type token: a mnemonic (any case) or `TYPEnnn` (RFC 3597 §5), never a bare number (that is
 * BIND's "unknown RR type '6'"). Known spellings are cached; unknown ones are not, so types
 * registered later are still found.
 *
 * @returns the type number, or undefined
 */
export function readType (text: string): number | undefined {
  const cached = typeCache.get(text)
  if (cached !== undefined) return cached
  const c0 = text.charCodeAt(0)
  if (text === '' || (c0 >= 0x30 && c0 <= 0x39)) return undefined
  const type = parseTypeName(text)
  if (type !== undefined && typeCache.size < 4096) typeCache.set(text, type)
  return type
}

/**
 * Types that cannot be in a zone: 0, OPT and the query and meta range 128–255 (RFC 6895 §3.1;
 * BIND: "invalid use of a meta type").
 */
export { isMetaType } from '../zone/rrtype.ts'
