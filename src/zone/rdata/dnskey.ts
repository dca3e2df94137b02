import { ByteReader } from './bytes.ts'
import { algorithm } from './dnssec-algorithms.ts'
import { base64Rest, u16, u8, type Field } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/**
 * The DNSKEY layout (RFC 4034 §2.1, presentation §2.2), shared by CDNSKEY: flags, protocol,
 * algorithm (number or mnemonic, written as a number) and the public key in base64, whose
 * whitespace-separated pieces are joined.
 */
export const DNSKEY_FIELDS: readonly Field[] = [u16('flags'), u8('protocol'), algorithm('algorithm'), base64Rest('public key')]

/** Flag bits with a meaning: Zone Key (RFC 4034 §2.1.1), REVOKE (RFC 5011 §3), SEP (RFC 4034 §2.1.1). */
const KNOWN_FLAGS = 0x0100 | 0x0080 | 0x0001

/**
 * Reasons a DNSKEY-style rdata is not valid: a protocol other than 3 (RFC 4034 §2.1.2) and
 * reserved flag bits set (RFC 4034 §2.1.1).
 *
 * @param rdata - wire rdata that fits {@link DNSKEY_FIELDS}
 * @returns reasons, empty when valid
 */
export function validateDnskey (rdata: Uint8Array): string[] {
  const r = new ByteReader(rdata)
  const flags = r.u16()
  const protocol = r.u8()
  const reasons: string[] = []
  if (protocol !== 3) reasons.push(`protocol must be 3 (RFC 4034 §2.1.2), got ${protocol}`)
  if ((flags & ~KNOWN_FLAGS) !== 0) reasons.push(`flags ${flags}: only 256 (zone key), 128 (revoke) and 1 (SEP) are defined`)
  return reasons
}

/** DNSKEY: a DNSSEC public key (RFC 4034 §2; REVOKE flag RFC 5011 §3). */
export const DNSKEY = defineType({
  type: RRType.DNSKEY,
  mnemonic: 'DNSKEY',
  rfcs: ['RFC 4034 §2', 'RFC 5011 §3'],
  fields: DNSKEY_FIELDS,
  validate: validateDnskey
})
