/**
 * IP addresses in text (RFC 4291 §2.2 for IPv6, dotted quads for IPv4): the one parser of the
 * service. The core writes into a caller's buffer and allocates nothing, so the DNS listeners can
 * parse every client address with it; the other functions wrap it.
 */

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

/** IPv6 text in `text[0..end)` (RFC 4291 §2.2, with `::` and a dotted IPv4 tail) into 16 bytes. */
function parseIpv6Into (text: string, end: number, out: Uint8Array): boolean {
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
 * Parse an IPv4 or IPv6 address into `out` (16 bytes of room), without allocating.
 *
 * @param zoneId accept (and ignore) an IPv6 `%zone` suffix, as Node reports link-local peers.
 * @returns 4 or 16 (the bytes written), or 0 when `text` is not an address.
 */
export function parseIpInto (text: string, out: Uint8Array, zoneId = false): 0 | 4 | 16 {
  if (text.indexOf(':') < 0) return parseIpv4Into(text, 0, text.length, out, 0) ? 4 : 0
  let end = zoneId ? text.indexOf('%') : -1
  if (end < 0) end = text.length
  return parseIpv6Into(text, end, out) ? 16 : 0
}

/** Dotted-quad IPv4, decimal without leading zeros; undefined when `text` is not one. */
export function parseIpv4 (text: string): Uint8Array | undefined {
  const out = new Uint8Array(4)
  return parseIpv4Into(text, 0, text.length, out, 0) ? out : undefined
}

/** IPv6 (with `::` and an embedded dotted quad); undefined when `text` is not one. */
export function parseIpv6 (text: string): Uint8Array | undefined {
  const out = new Uint8Array(16)
  return text.indexOf(':') >= 0 && parseIpv6Into(text, text.length, out) ? out : undefined
}

/** IPv4 or IPv6 address bytes (4 or 16), or undefined. */
export function parseIp (text: string): Uint8Array | undefined {
  const out = new Uint8Array(16)
  const n = parseIpInto(text, out)
  return n === 0 ? undefined : n === 4 ? out.slice(0, 4) : out
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
  // RFC 5952 §5 and BIND (inet_ntop): IPv4-mapped and IPv4-compatible addresses end in a dotted quad.
  if (bestStart === 0 && (bestLen === 6 || (bestLen === 5 && groups[5] === 0xffff))) {
    return (bestLen === 5 ? '::ffff:' : '::') + Array.from(b.subarray(12, 16)).join('.')
  }
  const hex = groups.map(g => g.toString(16))
  if (bestStart < 0) return hex.join(':')
  return hex.slice(0, bestStart).join(':') + '::' + hex.slice(bestStart + bestLen).join(':')
}

/** Text of 4 or 16 address bytes (IPv6 in RFC 5952 form). */
export function formatIp (b: Uint8Array): string {
  return b.length === 4 ? Array.from(b).join('.') : formatIpv6(b)
}

/** Compare two addresses of one family octet by octet. */
export function compareIp (a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}
