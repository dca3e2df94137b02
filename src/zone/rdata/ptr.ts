import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'

/** PTR: a pointer to another name (RFC 1035 §3.3.12). */
export const PTR = defineType({ type: 12, mnemonic: 'PTR', rfcs: ['RFC 1035 §3.3.12'], fields: [name('ptrdname', true)] })
