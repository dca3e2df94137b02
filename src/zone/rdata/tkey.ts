import { base64WithLength16, mnemonicNumber, name, time32, u16 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { TSIG_ERRORS } from './tsig.ts'

/**
 * TKEY: transaction key establishment (RFC 2930 §2). It appears only in messages, never in
 * zones, but has a presentation form, BIND's (`lib/dns/rdata/generic/tkey_249.c`, checked
 * against `dig` 9.18): algorithm name, inception and expiration as numbers of seconds, mode,
 * error (mnemonic such as `BADKEY` or number), key size and key in base64, other size and other
 * data (each left out when its size is 0). Unlike BIND, the times are also read as
 * `YYYYMMDDHHmmSS` (the RRSIG form, RFC 4034 §3.2). The algorithm name is never compressed
 * (RFC 3597 §4).
 */
export const TKEY = defineType({
  type: RRType.TKEY,
  mnemonic: 'TKEY',
  rfcs: ['RFC 2930 §2'],
  fields: [
    name('algorithm name'),
    time32('inception', { write: 'number' }),
    time32('expiration', { write: 'number' }),
    u16('mode'),
    mnemonicNumber('error', 16, TSIG_ERRORS, { write: true }),
    base64WithLength16('key data'),
    base64WithLength16('other data')
  ]
})
