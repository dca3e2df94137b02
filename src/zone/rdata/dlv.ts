import { DS_FIELDS, validateDsDigest } from './ds.ts'
import { defineType } from './rdata-type.ts'

/** DLV: DNSSEC lookaside validation (RFC 4431 §2, obsolete by RFC 8749), with the DS layout. */
export const DLV = defineType({
  type: 32769,
  mnemonic: 'DLV',
  rfcs: ['RFC 4431 §2', 'RFC 8749'],
  fields: DS_FIELDS,
  validate: validateDsDigest
})
