import { name } from './fields.ts'
import { registerType } from './registry.ts'

/** PTR: a pointer to another name (RFC 1035 §3.3.12). */
export const PTR = registerType({ type: 12, mnemonic: 'PTR', rfcs: ['RFC 1035 §3.3.12'], fields: [name('ptrdname', true)] })
