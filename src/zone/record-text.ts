import type { WireName } from './name.ts'
import { formatGeneric, formatRdata, parseRdata, RdataError, tokenize, wireProblem } from './rdata/index.ts'
import { RRType } from './rrtype.ts'

/**
 * Record text: one record's rdata as a single string, the form the API, the stored `rdata_text`,
 * `q=value:` search and the audit log use. It is the presentation format of the type (RFC 1035
 * §5.1), read as one value (`;` and parentheses are ordinary characters, never a comment or a
 * grouping), except for the text types below, whose record text is the text itself.
 *
 * Text types (TXT, SPF): the text is taken literally (spaces, `;`, `"` and `\` included) and
 * encoded in UTF-8; more than 255 octets are split into 255-octet character-strings (RFC 1035
 * §3.3), an empty text is one empty character-string. Read back, the character-strings are
 * joined (as UltraDNS shows a multi-string record). When that is not exact, the RFC 3597
 * generic form `\# <length> <hex>` of the whole rdata is given instead, and is taken back as
 * such: for octets that are not UTF-8 (`"\255"` from a zone file) and for a text that itself
 * starts with `\#` and a space.
 */

/** Types whose record text is the text itself, not presentation format. */
export function isTextType (type: number): boolean {
  return type === RRType.TXT || type === RRType.SPF
}

/** RFC 3597 §5: `\#` then whitespace (or nothing) starts the generic form. */
const GENERIC = /^\\#(?:\s|$)/

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const encoder = new TextEncoder()
/** In Unicode mode a surrogate pair is one code point, so only a lone surrogate is in Cs. */
const LONE_SURROGATE = /\p{Cs}/u

/** Largest character-string (RFC 1035 §3.3: a length octet). */
const MAX_STRING = 255

/** TXT/SPF rdata of a text: UTF-8, split into 255-octet character-strings. */
function textRdata (text: string): Uint8Array {
  if (LONE_SURROGATE.test(text)) throw new RdataError('text holds a lone UTF-16 surrogate, which has no UTF-8 form')
  const bytes = encoder.encode(text)
  const strings = Math.max(1, Math.ceil(bytes.length / MAX_STRING))
  const out = new Uint8Array(bytes.length + strings)
  let p = 0
  for (let i = 0; i < strings; i++) {
    const part = bytes.subarray(i * MAX_STRING, (i + 1) * MAX_STRING)
    out[p++] = part.length
    out.set(part, p)
    p += part.length
  }
  // RFC 1035 §3.2.1: RDLENGTH is 16 bits.
  if (out.length > 65535) throw new RdataError(`text too long: ${bytes.length} octets make rdata longer than 65535 octets`)
  return out
}

/**
 * The wire rdata of one record text.
 *
 * @param type - the record type
 * @param text - the record text (see the module comment)
 * @param origin - completes relative names
 * @throws RdataError naming what is wrong (the type's own reasons for presentation format)
 */
export function recordTextToRdata (type: number, text: string, origin: WireName): Uint8Array {
  if (isTextType(type) && !GENERIC.test(text)) return textRdata(text)
  return parseRdata(type, tokenize(text, { zoneFile: false }), { origin })
}

/**
 * The record text of wire rdata; malformed rdata, and rdata of types without a module, in the
 * RFC 3597 generic form.
 */
export function rdataToRecordText (type: number, rdata: Uint8Array): string {
  if (!isTextType(type)) return formatRdata(type, rdata)
  if (wireProblem(type, rdata) !== undefined) return formatGeneric(rdata)
  const joined = new Uint8Array(rdata.length)
  let n = 0
  for (let p = 0; p < rdata.length;) {
    const len = rdata[p]!
    joined.set(rdata.subarray(p + 1, p + 1 + len), n)
    n += len
    p += 1 + len
  }
  let text: string
  try {
    text = utf8.decode(joined.subarray(0, n))
  } catch {
    return formatGeneric(rdata)
  }
  return GENERIC.test(text) ? formatGeneric(rdata) : text
}
