import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** PTR: a pointer to another name (RFC 1035 §3.3.12). */
export const PTR = defineType({ type: RRType.PTR, mnemonic: 'PTR', rfcs: ['RFC 1035 §3.3.12'], fields: [name('ptrdname', true)] })
