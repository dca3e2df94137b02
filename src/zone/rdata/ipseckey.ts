import { ByteReader, WireError } from './bytes.ts'
import { base64Rest, formatIpv6, parseIpv4, parseIpv6, u8, type Field } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { RdataError } from './tokens.ts'
import { NameError, nameToString, parseName, wireNameLength } from '../name.ts'

/**
 * Gateway type, algorithm and gateway (RFC 4025 §2.3-§2.5) as one field, since the gateway type
 * decides what the gateway is: 0 none (written `.`, nothing on the wire), 1 an IPv4 address,
 * 2 an IPv6 address, 3 a domain name, never compressed (RFC 4025 §2.5), so the message codec can
 * copy it as it is.
 */
const gateway: Field = {
  label: 'gateway',
  parse: (r, c, w) => {
    const typeToken = r.next('gateway type')
    const type = /^\d+$/.test(typeToken.text) ? Number(typeToken.text) : NaN
    if (!(type >= 0 && type <= 3)) throw new RdataError(`gateway type must be 0, 1, 2 or 3, got "${typeToken.text}"`)
    const alg = r.next('algorithm')
    if (!/^\d+$/.test(alg.text) || Number(alg.text) > 255) throw new RdataError(`algorithm must be a number from 0 to 255, got "${alg.text}"`)
    w.u8(type)
    w.u8(Number(alg.text))
    const t = r.next('gateway')
    if (type === 0) {
      // RFC 4025 §3.1: with no gateway the field is written ".".
      if (t.text !== '.') throw new RdataError(`gateway must be "." for gateway type 0, got "${t.text}"`)
    } else if (type === 1) {
      const b = parseIpv4(t.text)
      if (b === undefined) throw new RdataError(`gateway must be an IPv4 address for gateway type 1, got "${t.text}"`)
      w.bytes(b)
    } else if (type === 2) {
      const b = parseIpv6(t.text)
      if (b === undefined) throw new RdataError(`gateway must be an IPv6 address for gateway type 2, got "${t.text}"`)
      w.bytes(b)
    } else {
      try {
        w.bytes(parseName(t.text, c.origin))
      } catch (err) {
        if (err instanceof NameError) throw new RdataError(`gateway: ${err.message}`)
        throw err
      }
    }
  },
  format: (r) => {
    const type = r.u8()
    const alg = r.u8()
    return `${type} ${alg} ${readGateway(r, type)}`
  },
  skip: (r) => {
    const type = r.u8()
    r.u8()
    readGateway(r, type)
  }
}

function readGateway (r: ByteReader, type: number): string {
  if (type === 0) return '.'
  if (type === 1) return Array.from(r.bytes(4)).join('.')
  if (type === 2) return formatIpv6(r.bytes(16))
  if (type === 3) return nameToString(r.bytes(wireNameLength(r.buf, r.pos, r.end)))
  throw new WireError(`gateway type ${type} is not defined (RFC 4025 §2.3)`)
}

/**
 * IPSECKEY: an IPsec keying gateway (RFC 4025 §2; presentation §3.1): precedence, gateway type,
 * algorithm, gateway and the public key in base64 (pieces joined).
 *
 * The public key may be absent (algorithm 0, RFC 4025 §2.4), as the RFC allows; BIND 9.18 reads
 * no IPSECKEY without a key, in text or on the wire, so such a record does not load in BIND.
 */
export const IPSECKEY = defineType({
  type: RRType.IPSECKEY,
  mnemonic: 'IPSECKEY',
  rfcs: ['RFC 4025 §2', 'RFC 4025 §3.1'],
  fields: [u8('precedence'), gateway, base64Rest('public key', { allowEmpty: true })],
  validate: (rdata) => {
    const r = new ByteReader(rdata, 1)
    const type = r.u8()
    const alg = r.u8()
    readGateway(r, type)
    const hasKey = r.remaining > 0
    // RFC 4025 §2.4: algorithm 0 means that no key is present.
    if (alg === 0 && hasKey) return ['algorithm 0 means no public key (RFC 4025 §2.4), but a key is present']
    if (alg !== 0 && !hasKey) return [`algorithm ${alg} needs a public key (RFC 4025 §2.4)`]
    return []
  }
})
