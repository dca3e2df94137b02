import { name, u16 } from './fields.ts'
import { defineType } from './rdata-type.ts'

/** KX: key exchanger (RFC 2230 §3.1). */
export const KX = defineType({ type: 36, mnemonic: 'KX', rfcs: ['RFC 2230 §3.1'], fields: [u16('preference'), name('exchanger')] })
