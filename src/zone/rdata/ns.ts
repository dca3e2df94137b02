import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** NS: an authoritative name server (RFC 1035 §3.3.11). */
export const NS = defineType({ type: RRType.NS, mnemonic: 'NS', rfcs: ['RFC 1035 §3.3.11'], fields: [name('nsdname', true)] })
