import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'

/** DNAME: redirection of a subtree (RFC 6672 §2.1). */
export const DNAME = defineType({ type: 39, mnemonic: 'DNAME', rfcs: ['RFC 6672 §2.1'], fields: [name('target')] })
