import { ipv4 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** A: an IPv4 address (RFC 1035 §3.4.1). */
export const A = defineType({ type: RRType.A, mnemonic: 'A', rfcs: ['RFC 1035 §3.4.1'], fields: [ipv4('address')] })
