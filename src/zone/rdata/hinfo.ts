import { charString } from './fields.ts'
import { registerType } from './registry.ts'

/** HINFO: host CPU and OS (RFC 1035 §3.3.2; RFC 8482 uses it for minimal ANY answers). */
export const HINFO = registerType({ type: 13, mnemonic: 'HINFO', rfcs: ['RFC 1035 §3.3.2', 'RFC 8482'], fields: [charString('cpu'), charString('os')] })
