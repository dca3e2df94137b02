import { name, u16 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** MX: mail exchange (RFC 1035 §3.3.9; a null MX is `0 .`, RFC 7505). */
export const MX = defineType({ type: RRType.MX, mnemonic: 'MX', rfcs: ['RFC 1035 §3.3.9', 'RFC 7505'], fields: [u16('preference'), name('exchange', true)] })
