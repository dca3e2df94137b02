import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** CNAME: the canonical name of an alias (RFC 1035 §3.3.1). */
export const CNAME = defineType({ type: RRType.CNAME, mnemonic: 'CNAME', rfcs: ['RFC 1035 §3.3.1'], fields: [name('cname', true)] })
