import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** DNAME: redirection of a subtree (RFC 6672 §2.1). */
export const DNAME = defineType({ type: RRType.DNAME, mnemonic: 'DNAME', rfcs: ['RFC 6672 §2.1'], fields: [name('target')] })
