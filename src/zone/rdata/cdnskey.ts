import { ByteReader } from './bytes.ts'
import { DNSKEY_FIELDS, validateDnskey } from './dnskey.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/**
 * CDNSKEY: child copy of DNSKEY (RFC 7344 §3.2), with the DNSKEY layout. `0 3 0 AA==` asks the
 * parent to remove its DS records (RFC 8078 §4).
 */
export const CDNSKEY = defineType({
  type: RRType.CDNSKEY,
  mnemonic: 'CDNSKEY',
  rfcs: ['RFC 7344 §3.2', 'RFC 8078 §4'],
  fields: DNSKEY_FIELDS,
  validate: (rdata) => {
    const r = new ByteReader(rdata)
    const flags = r.u16()
    r.u8()
    const alg = r.u8()
    const key = r.rest()
    // RFC 8078 §4: the delete form is exactly 0 3 0 AA==; algorithm 0 means nothing else.
    if (alg === 0 && (flags !== 0 || key.length !== 1 || key[0] !== 0)) {
      return ['algorithm 0 is only for the delete form "0 3 0 AA==" (RFC 8078 §4)']
    }
    return validateDnskey(rdata)
  }
})
