import { ipv6 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** AAAA: an IPv6 address (RFC 3596 §2.2), written in RFC 5952 form. */
export const AAAA = defineType({ type: RRType.AAAA, mnemonic: 'AAAA', rfcs: ['RFC 3596', 'RFC 5952'], fields: [ipv6('address')] })
