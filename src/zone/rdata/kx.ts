import { name, u16 } from './fields.ts'
import { registerType } from './registry.ts'

/** KX: key exchanger (RFC 2230 §3.1). */
export const KX = registerType({ type: 36, mnemonic: 'KX', rfcs: ['RFC 2230 §3.1'], fields: [u16('preference'), name('exchanger')] })
