import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'

/** NS: an authoritative name server (RFC 1035 §3.3.11). */
export const NS = defineType({ type: 2, mnemonic: 'NS', rfcs: ['RFC 1035 §3.3.11'], fields: [name('nsdname', true)] })
