import { ByteReader, WireError } from './bytes.ts'
import { stringRest, u8, type Field } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { RdataError } from './tokens.ts'

const TAG = /^[A-Za-z0-9]{1,255}$/

/** The property tag: a length octet and letters and digits, written without quotes. */
const tag: Field = {
  label: 'tag',
  parse: (r, _c, w) => {
    const t = r.next('tag')
    if (!TAG.test(t.text)) throw new RdataError(`tag must be 1-255 letters or digits, got "${t.text}"`)
    w.u8(t.text.length)
    w.bytes(new TextEncoder().encode(t.text))
  },
  format: (r) => new TextDecoder().decode(r.bytes(r.u8())),
  skip: (r) => {
    const len = r.u8()
    if (len === 0) throw new WireError('tag is empty')
    // RFC 8659 §4.1: the tag is US-ASCII letters and digits (the parser and writer assume it).
    if (!TAG.test(String.fromCharCode(...r.bytes(len)))) throw new WireError('tag must be letters and digits')
  }
}

const KNOWN_TAGS = new Set(['issue', 'issuewild', 'iodef', 'contactemail', 'contactphone', 'issuemail', 'issuevmc'])

/** CAA: certification authority authorization (RFC 8659 §4.1). */
export const CAA = defineType({
  type: RRType.CAA,
  mnemonic: 'CAA',
  rfcs: ['RFC 8659 §4.1'],
  fields: [u8('flags'), tag, stringRest('value')],
  validate: (rdata) => {
    const r = new ByteReader(rdata)
    const flags = r.u8()
    const name = new TextDecoder().decode(r.bytes(r.u8())).toLowerCase()
    const reasons: string[] = []
    if ((flags & 0x7f) !== 0) reasons.push(`flags ${flags}: only the critical bit (128) is defined`)
    if (!KNOWN_TAGS.has(name) && (flags & 0x80) !== 0) reasons.push(`critical flag on unknown tag "${name}" makes CAs refuse issuance`)
    return reasons
  }
})
