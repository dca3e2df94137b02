import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { TLSA_FIELDS, validateTlsa } from './tlsa.ts'

/** SMIMEA: an S/MIME certificate association (RFC 8162 §2), with the TLSA layout. */
export const SMIMEA = defineType({
  type: RRType.SMIMEA,
  mnemonic: 'SMIMEA',
  rfcs: ['RFC 8162 §2', 'RFC 6698 §2.1'],
  fields: TLSA_FIELDS,
  validate: validateTlsa
})
