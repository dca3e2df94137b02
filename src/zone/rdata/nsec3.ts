import { ByteReader } from './bytes.ts'
import { base32hexWithLength8, hexWithLength8, u16, u8, type Field } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { typeBitmap } from './type-bitmap.ts'

/** The NSEC3 and NSEC3PARAM parameters (RFC 5155 §3.1.1-§3.1.5, presentation §3.3 and §4.3). */
export const NSEC3_PARAMETER_FIELDS: readonly Field[] = [u8('hash algorithm'), u8('flags'), u16('iterations'), hexWithLength8('salt')]

/** Octets of the hash each NSEC3 hash algorithm makes (RFC 5155 §11: 1 is SHA-1, 20 octets). */
const HASH_LENGTHS: ReadonlyMap<number, number> = new Map([[1, 20]])

/**
 * NSEC3: hashed next secure name and the types at the owner (RFC 5155 §3). The salt is hex, `-`
 * for none; the next hashed owner name is unpadded base32hex (RFC 4648 §7), written in upper
 * case as BIND writes it. The type bit map may be empty (an empty non-terminal, RFC 5155 §7.1).
 */
export const NSEC3 = defineType({
  type: RRType.NSEC3,
  mnemonic: 'NSEC3',
  rfcs: ['RFC 5155 §3', 'RFC 9276'],
  fields: [...NSEC3_PARAMETER_FIELDS, base32hexWithLength8('next hashed owner name'), typeBitmap('type bit maps')],
  validate: (rdata) => {
    const r = new ByteReader(rdata)
    const alg = r.u8()
    const flags = r.u8()
    r.bytes(2)
    r.bytes(r.u8())
    const hashLength = r.u8()
    const reasons: string[] = []
    // RFC 5155 §3.1.2: only the Opt-Out flag (1) is defined; the others must be zero.
    if ((flags & 0xfe) !== 0) reasons.push(`flags ${flags}: only 1 (Opt-Out) is defined (RFC 5155 §3.1.2)`)
    const expected = HASH_LENGTHS.get(alg)
    if (expected !== undefined && hashLength !== expected) {
      reasons.push(`hash algorithm ${alg} makes ${expected}-octet hashes, but the next hashed owner name is ${hashLength} octet(s)`)
    }
    return reasons
  }
})
