import { ByteReader } from './bytes.ts'
import { algorithm } from './dnssec-algorithms.ts'
import { base64Rest, name, time32, u16, u32, u8, type Field } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { parseTypeName, RRType, typeName } from '../rrtype.ts'
import { RdataError } from './tokens.ts'
import { labelCount, wireNameLength } from '../name.ts'

/**
 * The type covered by a signature (RFC 4034 §3.1.1, presentation §3.2): a mnemonic, `TYPEnnn`
 * or (as BIND reads it) a plain number; written as the mnemonic or `TYPEnnn`.
 */
export function typeCovered (label: string): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const t = r.next(label)
      const n = t.quoted ? undefined : parseTypeName(t.text)
      if (n === undefined) throw new RdataError(`${label}: "${t.text}" is not a type`)
      w.u16(n)
    },
    format: (r) => typeName(r.u16()),
    skip: (r) => { r.bytes(2) }
  }
}

/**
 * RRSIG: a DNSSEC signature (RFC 4034 §3; presentation §3.2). Times are read as
 * `YYYYMMDDHHmmSS` or seconds and written as `YYYYMMDDHHmmSS`, nearest to now in serial number
 * arithmetic (RFC 4034 §3.1.5) as BIND writes them. The signer's name is never compressed
 * (RFC 4034 §3.1.7) and the signature is base64 with its pieces joined.
 */
export const RRSIG = defineType({
  type: RRType.RRSIG,
  mnemonic: 'RRSIG',
  rfcs: ['RFC 4034 §3', 'RFC 6840 §5.1'],
  fields: [
    typeCovered('type covered'),
    algorithm('algorithm'),
    u8('labels'),
    u32('original TTL'),
    time32('signature expiration'),
    time32('signature inception'),
    u16('key tag'),
    name("signer's name"),
    base64Rest('signature')
  ],
  validate: (rdata) => {
    const r = new ByteReader(rdata)
    r.bytes(3)
    const labels = r.u8()
    r.bytes(4)
    const expiration = r.u32()
    const inception = r.u32()
    r.bytes(2)
    const signer = r.bytes(wireNameLength(rdata, r.pos))
    const reasons: string[] = []
    // RFC 4034 §3.1.5: expiration is later than inception in serial number arithmetic (RFC 1982).
    const delta = (expiration - inception + 2 ** 32) % 2 ** 32
    if (delta === 0 || delta >= 2 ** 31) reasons.push('signature expiration is not after its inception (RFC 4034 §3.1.5)')
    // RFC 4034 §3.1.7: the signer is the zone holding the owner, so it has no more labels than
    // the owner (§3.1.3), wildcard excluded. BIND refuses the record otherwise.
    const signerLabels = labelCount(signer)
    if (signerLabels > labels) reasons.push(`signer's name has ${signerLabels} labels, more than the ${labels} of the owner (RFC 4034 §3.1.3, §3.1.7)`)
    return reasons
  }
})
