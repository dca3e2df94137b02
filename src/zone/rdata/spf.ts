import { charStrings } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** SPF: TXT layout under its own type (RFC 4408 §3.1.1; deprecated by RFC 7208 §3.1). */
export const SPF = defineType({ type: RRType.SPF, mnemonic: 'SPF', rfcs: ['RFC 4408 §3.1.1', 'RFC 7208 §3.1'], fields: [charStrings('text')] })
