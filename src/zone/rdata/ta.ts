import { DS_FIELDS, validateDsDigest } from './ds.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/**
 * TA: DNSSEC trust authority (IANA registration, draft "Deploying DNSSEC Without a Signed Root",
 * Weiler 2004), with the DS layout as BIND reads and writes it.
 */
export const TA = defineType({
  type: RRType.TA,
  mnemonic: 'TA',
  rfcs: ['RFC 4034 §5 (DS layout)'],
  fields: DS_FIELDS,
  validate: validateDsDigest
})
