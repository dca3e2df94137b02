import { ByteReader } from './bytes.ts'
import { hexRest, u8, type Field } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/**
 * The TLSA layout (RFC 6698 §2.1, presentation §2.2), shared by SMIMEA: certificate usage,
 * selector, matching type and the certificate association data in hex (pieces joined).
 */
export const TLSA_FIELDS: readonly Field[] = [u8('certificate usage'), u8('selector'), u8('matching type'), hexRest('certificate association data')]

/** Octets of the association data per matching type (RFC 6698 §2.1.3: 1 SHA-256, 2 SHA-512). */
const MATCHING_LENGTHS: ReadonlyMap<number, number> = new Map([[1, 32], [2, 64]])

/**
 * Reasons a TLSA-style rdata is not valid: association data whose length does not fit a hashed
 * matching type (RFC 6698 §2.1.3).
 *
 * @param rdata - wire rdata that fits {@link TLSA_FIELDS}
 * @returns reasons, empty when valid
 */
export function validateTlsa (rdata: Uint8Array): string[] {
  const r = new ByteReader(rdata, 2)
  const matching = r.u8()
  const data = r.rest()
  const expected = MATCHING_LENGTHS.get(matching)
  if (expected !== undefined && data.length !== expected) {
    return [`matching type ${matching} makes ${expected}-octet hashes, but the data is ${data.length} octet(s) (RFC 6698 §2.1.3)`]
  }
  return []
}

/** TLSA: a TLS server certificate association (RFC 6698 §2; usages RFC 7218, RFC 7671). */
export const TLSA = defineType({
  type: RRType.TLSA,
  mnemonic: 'TLSA',
  rfcs: ['RFC 6698 §2', 'RFC 7671'],
  fields: TLSA_FIELDS,
  validate: validateTlsa
})
