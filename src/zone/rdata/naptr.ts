import { charString, name, u16 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** NAPTR: naming authority pointer (RFC 3403 §4.1). */
export const NAPTR = defineType({
  type: RRType.NAPTR,
  mnemonic: 'NAPTR',
  rfcs: ['RFC 3403 §4.1'],
  fields: [u16('order'), u16('preference'), charString('flags'), charString('services'), charString('regexp'), name('replacement')]
})
