import { DS_FIELDS, validateDsDigest } from './ds.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** DLV: DNSSEC lookaside validation (RFC 4431 §2, obsolete by RFC 8749), with the DS layout. */
export const DLV = defineType({
  type: RRType.DLV,
  mnemonic: 'DLV',
  rfcs: ['RFC 4431 §2', 'RFC 8749'],
  fields: DS_FIELDS,
  validate: validateDsDigest
})
