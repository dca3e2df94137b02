import { base64Rest } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** OPENPGPKEY: an OpenPGP transferable public key in base64, pieces joined (RFC 7929 §2). */
export const OPENPGPKEY = defineType({
  type: RRType.OPENPGPKEY,
  mnemonic: 'OPENPGPKEY',
  rfcs: ['RFC 7929 §2'],
  fields: [base64Rest('public key')]
})
