import { base64Rest } from './fields.ts'
import { defineType } from './rdata-type.ts'

/** OPENPGPKEY: an OpenPGP transferable public key in base64, pieces joined (RFC 7929 §2). */
export const OPENPGPKEY = defineType({
  type: 61,
  mnemonic: 'OPENPGPKEY',
  rfcs: ['RFC 7929 §2'],
  fields: [base64Rest('public key')]
})
