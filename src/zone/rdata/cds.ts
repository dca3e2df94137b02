import { ByteReader } from './bytes.ts'
import { DS_FIELDS, validateDsDigest } from './ds.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/**
 * CDS: child copy of DS (RFC 7344 §3.1), with the DS layout. `0 0 0 00` asks the parent to
 * remove its DS records (RFC 8078 §4).
 */
export const CDS = defineType({
  type: RRType.CDS,
  mnemonic: 'CDS',
  rfcs: ['RFC 7344 §3.1', 'RFC 8078 §4'],
  fields: DS_FIELDS,
  validate: (rdata) => {
    const r = new ByteReader(rdata)
    const keyTag = r.u16()
    const alg = r.u8()
    const digestType = r.u8()
    const digest = r.rest()
    // RFC 8078 §4: the delete form is exactly 0 0 0 00; algorithm 0 means nothing else.
    if (alg === 0 && (keyTag !== 0 || digestType !== 0 || digest.length !== 1 || digest[0] !== 0)) {
      return ['algorithm 0 is only for the delete form "0 0 0 00" (RFC 8078 §4)']
    }
    return validateDsDigest(rdata)
  }
})
