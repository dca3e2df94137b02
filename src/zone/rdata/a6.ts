/**
 * A6: IPv6 address in pieces (RFC 2874 §3.1, historic since RFC 6563). Wire: a prefix length
 * 0-128; the address suffix, the low (128 - prefix length) bits of an address in
 * 16 - floor(prefix length / 8) octets, with the leading pad bits zero; and the prefix name,
 * present only when the prefix length is over 0 (never compressed).
 *
 * Presentation (§3.2): `prefix-length [suffix-address] [prefix-name]`, the suffix as an IPv6
 * address (absent when the prefix length is 128). As BIND 9.18 does
 * (`lib/dns/rdata/in_1/a6_38.c`), address bits inside the prefix are dropped on parsing, and
 * the suffix is written as the whole address with the prefix bits zero.
 */
import { ByteReader, ByteWriter, WireError } from './bytes.ts'
import { formatIpv6, parseIpv6, type ParseContext } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { RdataError, TokenReader, type Token } from './tokens.ts'
import { nameToString, parseName, wireNameLength } from '../name.ts'

/** Octets of the suffix for a prefix length. */
function suffixOctets (prefixLength: number): number {
  return 16 - Math.floor(prefixLength / 8)
}

/** Mask of the suffix bits in the first suffix octet. */
function firstOctetMask (prefixLength: number): number {
  return 0xff >> (prefixLength % 8)
}

/** Parse A6 presentation. @throws RdataError (a NameError for a bad prefix name). */
export function parseA6 (tokens: readonly Token[], ctx: ParseContext): Uint8Array {
  const r = new TokenReader(tokens)
  const t = r.next('prefix length')
  if (t.quoted || !/^\d+$/.test(t.text) || Number(t.text) > 128) throw new RdataError(`prefix length must be a number from 0 to 128, got "${t.text}"`)
  const prefixLength = Number(t.text)
  const w = new ByteWriter(32)
  w.u8(prefixLength)
  if (prefixLength < 128) {
    const a = r.next('address suffix')
    const address = a.quoted ? undefined : parseIpv6(a.text)
    if (address === undefined) throw new RdataError(`address suffix must be an IPv6 address, got "${a.text}"`)
    const suffix = address.slice(16 - suffixOctets(prefixLength))
    suffix[0]! &= firstOctetMask(prefixLength)
    w.bytes(suffix)
  }
  if (prefixLength > 0) w.bytes(parseName(r.next('prefix name').text, ctx.origin))
  if (!r.done) throw new RdataError(`unexpected "${r.peek()!.text}" after the last field`)
  return w.finish()
}

/** Check A6 wire data (the pad bits must be zero, as BIND checks). @throws WireError or NameError */
export function checkA6 (rdata: Uint8Array): void {
  const r = new ByteReader(rdata)
  const prefixLength = r.u8()
  if (prefixLength > 128) throw new WireError(`prefix length ${prefixLength} is over 128`)
  if (prefixLength < 128) {
    const suffix = r.bytes(suffixOctets(prefixLength))
    if ((suffix[0]! & ~firstOctetMask(prefixLength)) !== 0) throw new WireError('the pad bits before the address suffix must be zero')
  }
  if (prefixLength > 0) r.bytes(wireNameLength(rdata, r.pos))
  if (r.remaining !== 0) throw new WireError(`${r.remaining} octet(s) after the last field`)
}

/** A6 presentation as BIND writes it (one space where BIND writes two for prefix length 128). */
export function formatA6 (rdata: Uint8Array): string {
  checkA6(rdata)
  const prefixLength = rdata[0]!
  const parts = [String(prefixLength)]
  const octets = prefixLength < 128 ? suffixOctets(prefixLength) : 0
  if (octets > 0) {
    const address = new Uint8Array(16)
    address.set(rdata.subarray(1, 1 + octets), 16 - octets)
    parts.push(formatIpv6(address))
  }
  if (prefixLength > 0) parts.push(nameToString(rdata.subarray(1 + octets)))
  return parts.join(' ')
}

/**
 * A6 (RFC 2874 §3.1). The layout depends on the prefix length, which a field list cannot say,
 * so `fields` is empty and parsing, writing and the wire check are custom.
 */
export const A6 = defineType({
  type: RRType.A6,
  mnemonic: 'A6',
  rfcs: ['RFC 2874 §3.1', 'RFC 6563'],
  fields: [],
  parse: parseA6,
  format: formatA6,
  check: checkA6
})
