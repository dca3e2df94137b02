import { ByteReader } from './bytes.ts'
import { name } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { decodeTypeBitmap, typeBitmap } from './type-bitmap.ts'
import { wireNameLength } from '../name.ts'

/**
 * NSEC: next secure name and the types at the owner (RFC 4034 §4; presentation §4.2). The next
 * domain name is never compressed (RFC 4034 §4.1.1, RFC 6840 §5.1). The layout allows an empty
 * type bit map, which BIND 9.18 refuses; validation reports it, as every NSEC must list NSEC and
 * RRSIG (RFC 4035 §2.3).
 */
export const NSEC = defineType({
  type: RRType.NSEC,
  mnemonic: 'NSEC',
  rfcs: ['RFC 4034 §4', 'RFC 4035 §2.3'],
  fields: [name('next domain name'), typeBitmap('type bit maps')],
  validate: (rdata) => {
    const r = new ByteReader(rdata)
    r.bytes(wireNameLength(rdata, 0))
    const types = decodeTypeBitmap(r.rest())
    const missing = [RRType.NSEC, RRType.RRSIG].filter(t => !types.includes(t))
    if (missing.length > 0) return ['type bit map must include NSEC and RRSIG (RFC 4035 §2.3)']
    return []
  }
})
