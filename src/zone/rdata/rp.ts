import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** RP: responsible person, a mailbox and a TXT owner (RFC 1183 §2.2). */
export const RP = defineType({ type: RRType.RP, mnemonic: 'RP', rfcs: ['RFC 1183 §2.2'], fields: [name('mbox'), name('txt')] })
