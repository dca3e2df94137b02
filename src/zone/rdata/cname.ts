import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'

/** CNAME: the canonical name of an alias (RFC 1035 §3.3.1). */
export const CNAME = defineType({ type: 5, mnemonic: 'CNAME', rfcs: ['RFC 1035 §3.3.1'], fields: [name('cname', true)] })
