import { base64Rest } from './fields.ts'
import { registerType } from './registry.ts'

/** OPENPGPKEY: an OpenPGP transferable public key in base64, pieces joined (RFC 7929 §2). */
export const OPENPGPKEY = registerType({
  type: 61,
  mnemonic: 'OPENPGPKEY',
  rfcs: ['RFC 7929 §2'],
  fields: [base64Rest('public key')]
})
