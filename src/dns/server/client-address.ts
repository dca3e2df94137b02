/**
 * Client addresses as the listeners see them (the text Node gives for a datagram's source),
 * parsed into bytes without allocating, for the response rate limiter: exemption ranges and
 * the network prefix that shares a bucket.
 */

/** An address range: IPv4 (4 bytes) or IPv6 (16 bytes) and a prefix length. */
export interface Cidr {
  bytes: Uint8Array
  bits: number
}

const HEX = new Int8Array(128).fill(-1)
for (let c = 0; c < 10; c++) HEX[48 + c] = c
for (let c = 0; c < 6; c++) {
  HEX[65 + c] = 10 + c
  HEX[97 + c] = 10 + c
}

/** Dotted-quad IPv4 from `text[start..end)` into `out[at..at+4)`; false when it is not one. */
function parseIpv4Into (text: string, start: number, end: number, out: Uint8Array, at: number): boolean {
  let part = 0
  let value = 0
  let digits = 0
  for (let i = start; i <= end; i++) {
    const c = i === end ? 46 : text.charCodeAt(i)
    if (c === 46) {
      if (digits === 0 || part > 3) return false
      out[at + part++] = value
      value = 0
      digits = 0
    } else if (c >= 48 && c <= 57) {
      // No leading zeros (RFC 6943 §3.1.1: they mean octal to some parsers).
      if (digits > 0 && value === 0) return false
      value = value * 10 + c - 48
      if (value > 255) return false
      digits++
    } else {
      return false
    }
  }
  return part === 4
}

const GROUPS = new Uint16Array(8)

/** IPv6 text (RFC 4291 §2.2, with `::` and a dotted IPv4 tail; a `%zone` is ignored) into 16 bytes. */
function parseIpv6Into (text: string, out: Uint8Array): boolean {
  let end = text.indexOf('%')
  if (end < 0) end = text.length
  let count = 0
  let gap = -1
  let i = 0
  if (text.charCodeAt(0) === 58) {
    if (text.charCodeAt(1) !== 58) return false
    gap = 0
    i = 2
  }
  while (i < end) {
    let value = 0
    let digits = 0
    const start = i
    while (i < end && digits <= 4) {
      const c = text.charCodeAt(i)
      const h = c < 128 ? HEX[c]! : -1
      if (h < 0) break
      value = (value << 4) | h
      digits++
      i++
    }
    if (i < end && text.charCodeAt(i) === 46) {
      // The last 32 bits written as IPv4 (RFC 4291 §2.2 form 3).
      if (count > 6 || !parseIpv4Into(text, start, end, out, 0)) return false
      GROUPS[count++] = (out[0]! << 8) | out[1]!
      GROUPS[count++] = (out[2]! << 8) | out[3]!
      i = end
      break
    }
    if (digits === 0 || digits > 4 || count === 8) return false
    GROUPS[count++] = value
    if (i === end) break
    if (text.charCodeAt(i) !== 58) return false
    i++
    if (text.charCodeAt(i) === 58) {
      if (gap >= 0) return false
      gap = count
      i++
    } else if (i === end) {
      return false
    }
  }
  if (gap < 0 ? count !== 8 : count > 7) return false
  const fill = 8 - count
  for (let g = 0, src = 0; g < 8; g++) {
    const v = gap >= 0 && g >= gap && g < gap + fill ? 0 : GROUPS[src++]!
    out[g * 2] = v >> 8
    out[g * 2 + 1] = v & 0xff
  }
  return true
}

/**
 * Parse an address into `out` (16 bytes of room). IPv4-mapped IPv6 (`::ffff:192.0.2.1`, as a
 * dual-stack socket reports IPv4 clients) counts as the IPv4 address.
 *
 * @returns 4 or 16 (the bytes written), or 0 when `text` is not an address.
 */
export function parseAddress (text: string, out: Uint8Array): 0 | 4 | 16 {
  if (text.indexOf(':') < 0) return parseIpv4Into(text, 0, text.length, out, 0) ? 4 : 0
  if (!parseIpv6Into(text, out)) return 0
  for (let i = 0; i < 10; i++) if (out[i] !== 0) return 16
  if (out[10] !== 0xff || out[11] !== 0xff) return 16
  out.copyWithin(0, 12, 16)
  return 4
}

/**
 * Parse `address/bits` or a bare address (all its bits).
 *
 * @returns the range, or undefined when the text is not one.
 */
export function parseCidr (text: string): Cidr | undefined {
  const slash = text.indexOf('/')
  const scratch = new Uint8Array(16)
  const length = parseAddress(slash < 0 ? text : text.slice(0, slash), scratch)
  if (length === 0) return undefined
  let bits = length * 8
  if (slash >= 0) {
    const tail = text.slice(slash + 1)
    if (!/^\d{1,3}$/.test(tail) || Number(tail) > bits) return undefined
    bits = Number(tail)
  }
  return { bytes: scratch.slice(0, length), bits }
}

/** Whether the first `length` bytes of `address` (4 or 16) fall inside `range`. */
export function inCidr (address: Uint8Array, length: number, range: Cidr): boolean {
  if (range.bytes.length !== length) return false
  const whole = range.bits >> 3
  for (let i = 0; i < whole; i++) if (address[i] !== range.bytes[i]) return false
  const rest = range.bits & 7
  if (rest === 0) return true
  const mask = (0xff << (8 - rest)) & 0xff
  return (address[whole]! & mask) === (range.bytes[whole]! & mask)
}
