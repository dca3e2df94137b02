import { parseAddress } from '../dns/server/client-address.ts'

/** The networks of client addresses, as the client IP directional report spells them (its required `classCNetwork` filter). */

const classCScratch = new Uint8Array(16)

/**
 * The "class C" network of an address, as the report spells it: IPv4 `a.b.c.0` (its /24);
 * IPv6 its /48 in compressed form (`2001:db8:1::`); IPv4-mapped IPv6 as IPv4. '' when `address`
 * is not an address.
 */
export function classCNetwork (address: string): string {
  const b = classCScratch
  const length = parseAddress(address, b)
  if (length === 0) return ''
  if (length === 4) return `${b[0]}.${b[1]}.${b[2]}.0`
  const groups: string[] = []
  for (let i = 0; i < 3; i++) groups.push(((b[2 * i]! << 8) | b[2 * i + 1]!).toString(16))
  // The compressed form of the /48: the zero groups at its end become '::'.
  while (groups.length > 0 && groups[groups.length - 1] === '0') groups.pop()
  return groups.length === 0 ? '::' : `${groups.join(':')}::`
}

/** An address in the form stored and reported: IPv4-mapped IPv6 as IPv4, the rest as given. */
export function clientAddress (address: string): string {
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7)
  return address
}

/**
 * A network as a report request may give it: an address (`10.33.162.0`, `10.33.162.158`,
 * `2001:db8:1::`) or one with the class C prefix length (`/24` for IPv4, `/48` for IPv6), as
 * {@link classCNetwork} spells it; undefined for anything else.
 */
export function networkOf (text: string): string | undefined {
  const slash = text.indexOf('/')
  const address = slash < 0 ? text : text.slice(0, slash)
  const network = classCNetwork(address)
  if (network === '') return undefined
  if (slash >= 0 && text.slice(slash + 1) !== (network.includes(':') ? '48' : '24')) return undefined
  return network
}

/**
 * An address in the form Node reports clients in (IPv4 dotted; IPv6 compressed, lower-case,
 * RFC 5952), IPv4-mapped IPv6 as IPv4; undefined when `text` is not an address.
 */
export function canonicalAddress (text: string): string | undefined {
  const b = new Uint8Array(16)
  const length = parseAddress(text, b)
  if (length === 0) return undefined
  if (length === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`
  return new URL(`http://[${text}]/`).hostname.slice(1, -1)
}
