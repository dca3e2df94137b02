import { ByteReader } from './bytes.ts'
import { NSEC3_PARAMETER_FIELDS } from './nsec3.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** NSEC3PARAM: the NSEC3 parameters of a zone (RFC 5155 §4; presentation §4.3, `-` for no salt). */
export const NSEC3PARAM = defineType({
  type: RRType.NSEC3PARAM,
  mnemonic: 'NSEC3PARAM',
  rfcs: ['RFC 5155 §4', 'RFC 9276'],
  fields: NSEC3_PARAMETER_FIELDS,
  validate: (rdata) => {
    const flags = new ByteReader(rdata, 1).u8()
    // RFC 5155 §4.1.2: the Opt-Out flag is not used here and all flags must be zero.
    if (flags !== 0) return [`flags must be 0 in NSEC3PARAM (RFC 5155 §4.1.2), got ${flags}`]
    return []
  }
})
