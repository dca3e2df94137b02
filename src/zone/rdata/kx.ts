import { name, u16 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** KX: key exchanger (RFC 2230 §3.1). */
export const KX = defineType({ type: RRType.KX, mnemonic: 'KX', rfcs: ['RFC 2230 §3.1'], fields: [u16('preference'), name('exchanger')] })
