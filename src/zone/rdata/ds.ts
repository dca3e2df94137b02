import { ByteReader } from './bytes.ts'
import { algorithm, DS_DIGEST_LENGTHS, digestType } from './dnssec-algorithms.ts'
import { hexRest, u16, type Field } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/**
 * The DS layout (RFC 4034 §5.1, presentation §5.3), shared by CDS, DLV and TA: key tag,
 * algorithm (number or mnemonic), digest type (number or mnemonic such as `SHA-256`) and the
 * digest in hex, whose whitespace-separated pieces are joined. BIND writes the digest in upper
 * case, split every 56 digits; we write it unsplit.
 */
export const DS_FIELDS: readonly Field[] = [u16('key tag'), algorithm('algorithm'), digestType('digest type'), hexRest('digest')]

/**
 * Reasons a DS-style rdata is not valid: a digest whose length does not fit its digest type
 * (RFC 4034 §5.1.4 SHA-1, RFC 4509 §2.2 SHA-256, RFC 6605 §2 SHA-384). BIND refuses these.
 *
 * @param rdata - wire rdata that fits {@link DS_FIELDS}
 * @returns reasons, empty when valid
 */
export function validateDsDigest (rdata: Uint8Array): string[] {
  const r = new ByteReader(rdata)
  r.bytes(3)
  const type = r.u8()
  const digest = r.rest()
  const expected = DS_DIGEST_LENGTHS.get(type)
  if (expected !== undefined && digest.length !== expected) {
    return [`digest type ${type} makes a ${expected}-octet digest, but the digest is ${digest.length} octet(s)`]
  }
  return []
}

/** DS: delegation signer (RFC 4034 §5; digest types RFC 4509, RFC 6605). */
export const DS = defineType({
  type: RRType.DS,
  mnemonic: 'DS',
  rfcs: ['RFC 4034 §5', 'RFC 4509', 'RFC 6605'],
  fields: DS_FIELDS,
  validate: validateDsDigest
})
