import { ByteReader } from './bytes.ts'
import { hexRest, u32, u8 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** Octets of the digest per hash algorithm (RFC 8976 §2.2.3: 1 SHA-384, 2 SHA-512). */
const DIGEST_LENGTHS: ReadonlyMap<number, number> = new Map([[1, 48], [2, 64]])

/** RFC 8976 §2.2.4: a digest is never shorter than 12 octets. */
const MIN_DIGEST = 12

/**
 * ZONEMD: a message digest of the zone (RFC 8976 §2; presentation §2.3): serial, scheme, hash
 * algorithm and the digest in hex (pieces joined).
 */
export const ZONEMD = defineType({
  type: RRType.ZONEMD,
  mnemonic: 'ZONEMD',
  rfcs: ['RFC 8976 §2'],
  fields: [u32('serial'), u8('scheme'), u8('hash algorithm'), hexRest('digest')],
  validate: (rdata) => {
    const r = new ByteReader(rdata, 5)
    const alg = r.u8()
    const digest = r.rest()
    const expected = DIGEST_LENGTHS.get(alg)
    if (expected !== undefined && digest.length !== expected) {
      return [`hash algorithm ${alg} makes a ${expected}-octet digest, but the digest is ${digest.length} octet(s) (RFC 8976 §2.2.3)`]
    }
    if (digest.length < MIN_DIGEST) return [`digest must be at least ${MIN_DIGEST} octets (RFC 8976 §2.2.4), got ${digest.length}`]
    return []
  }
})
