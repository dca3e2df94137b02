import { stringRest, u16 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** URI: a target URI with priority and weight (RFC 7553 §4.5). */
export const URI = defineType({
  type: RRType.URI,
  mnemonic: 'URI',
  rfcs: ['RFC 7553 §4.5'],
  fields: [u16('priority'), u16('weight'), stringRest('target', { allowEmpty: false })]
})
