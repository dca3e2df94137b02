import { name, u16 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** AFSDB: AFS database location (RFC 1183 §1). */
export const AFSDB = defineType({ type: RRType.AFSDB, mnemonic: 'AFSDB', rfcs: ['RFC 1183 §1'], fields: [u16('subtype'), name('hostname')] })
