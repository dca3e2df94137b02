import { stringRest, u16 } from './fields.ts'
import { registerType } from './registry.ts'

/** URI: a target URI with priority and weight (RFC 7553 §4.5). */
export const URI = registerType({
  type: 256,
  mnemonic: 'URI',
  rfcs: ['RFC 7553 §4.5'],
  fields: [u16('priority'), u16('weight'), stringRest('target', { allowEmpty: false })]
})
