import { charString } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** HINFO: host CPU and OS (RFC 1035 §3.3.2; RFC 8482 uses it for minimal ANY answers). */
export const HINFO = defineType({ type: RRType.HINFO, mnemonic: 'HINFO', rfcs: ['RFC 1035 §3.3.2', 'RFC 8482'], fields: [charString('cpu'), charString('os')] })
