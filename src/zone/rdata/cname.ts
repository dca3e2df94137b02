import { name } from './fields.ts'
import { registerType } from './registry.ts'

/** CNAME: the canonical name of an alias (RFC 1035 §3.3.1). */
export const CNAME = registerType({ type: 5, mnemonic: 'CNAME', rfcs: ['RFC 1035 §3.3.1'], fields: [name('cname', true)] })
