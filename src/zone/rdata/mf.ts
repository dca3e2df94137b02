import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** MF: mail forwarder, obsolete (RFC 1035 §3.3.5; RFC 973 replaced it with MX). */
export const MF = defineType({ type: RRType.MF, mnemonic: 'MF', rfcs: ['RFC 1035 §3.3.5'], fields: [name('madname', true)] })
