import { name, u16 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** SRV: service location (RFC 2782). */
export const SRV = defineType({ type: RRType.SRV, mnemonic: 'SRV', rfcs: ['RFC 2782'], fields: [u16('priority'), u16('weight'), u16('port'), name('target')] })
