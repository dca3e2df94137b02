import { charStrings } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** TXT: one or more character-strings (RFC 1035 §3.3.14); long strings are split at 255 octets. */
export const TXT = defineType({ type: RRType.TXT, mnemonic: 'TXT', rfcs: ['RFC 1035 §3.3.14', 'RFC 7208 §3.3'], fields: [charStrings('text')] })
