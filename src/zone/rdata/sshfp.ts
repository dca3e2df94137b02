import { ByteReader } from './bytes.ts'
import { hexRest, u8 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** Octets of the fingerprint per fingerprint type (RFC 4255 §3.1.2 SHA-1, RFC 6594 §3 SHA-256). */
const FINGERPRINT_LENGTHS: ReadonlyMap<number, number> = new Map([[1, 20], [2, 32]])

/**
 * SSHFP: an SSH host key fingerprint (RFC 4255 §3; SHA-256 RFC 6594, Ed25519 RFC 7479, Ed448
 * RFC 8709): algorithm, fingerprint type and the fingerprint in hex (pieces joined).
 */
export const SSHFP = defineType({
  type: RRType.SSHFP,
  mnemonic: 'SSHFP',
  rfcs: ['RFC 4255 §3', 'RFC 6594', 'RFC 7479', 'RFC 8709'],
  fields: [u8('algorithm'), u8('fingerprint type'), hexRest('fingerprint')],
  validate: (rdata) => {
    const r = new ByteReader(rdata, 1)
    const type = r.u8()
    const fingerprint = r.rest()
    const expected = FINGERPRINT_LENGTHS.get(type)
    if (expected !== undefined && fingerprint.length !== expected) {
      return [`fingerprint type ${type} makes a ${expected}-octet fingerprint, but the fingerprint is ${fingerprint.length} octet(s)`]
    }
    return []
  }
})
