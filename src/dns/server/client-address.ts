import { parseIpInto } from '../../zone/ip.ts'

/**
 * Client addresses as the listeners see them (the text Node gives for a datagram's source),
 * parsed into bytes without allocating (by the service's one address parser, `zone/ip.ts`), for
 * the response rate limiter: exemption ranges and the network prefix that shares a bucket.
 */

/** An address range: IPv4 (4 bytes) or IPv6 (16 bytes) and a prefix length. */
export interface Cidr {
  bytes: Uint8Array
  bits: number
}

/**
 * Parse an address into `out` (16 bytes of room). IPv4-mapped IPv6 (`::ffff:192.0.2.1`, as a
 * dual-stack socket reports IPv4 clients) counts as the IPv4 address.
 *
 * @returns 4 or 16 (the bytes written), or 0 when `text` is not an address.
 */
export function parseAddress (text: string, out: Uint8Array): 0 | 4 | 16 {
  const length = parseIpInto(text, out, true)
  if (length !== 16) return length
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
