import { base64WithLength16, mnemonicNumber, name, u16, u48, type Mnemonics } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

const RCODES: Array<[number, string]> = [
  [0, 'NOERROR'], [1, 'FORMERR'], [2, 'SERVFAIL'], [3, 'NXDOMAIN'], [4, 'NOTIMP'], [5, 'REFUSED'],
  [6, 'YXDOMAIN'], [7, 'YXRRSET'], [8, 'NXRRSET'], [9, 'NOTAUTH'], [10, 'NOTZONE'],
  [11, 'RESERVED11'], [12, 'RESERVED12'], [13, 'RESERVED13'], [14, 'RESERVED14'], [15, 'RESERVED15'],
  [16, 'BADSIG'], [17, 'BADKEY'], [18, 'BADTIME'], [19, 'BADMODE'], [20, 'BADNAME'], [21, 'BADALG'], [22, 'BADTRUNC']
]

/**
 * The error field of TSIG (RFC 8945 §4.2) and TKEY (RFC 2930 §2.6): an extended RCODE, with the
 * mnemonics BIND 9.18 reads and writes (RFC 1035 §4.1.1, RFC 2136 §2.2, RFC 8945 §3, RFC 2930
 * §2.6); other values are written as numbers.
 */
export const TSIG_ERRORS: Mnemonics = { byName: new Map(RCODES.map(([n, m]) => [m, n])), byNumber: new Map(RCODES) }

/**
 * TSIG: a transaction signature (RFC 8945 §4.2). It appears only in messages, never in zones,
 * but has a presentation form, BIND's (`lib/dns/rdata/any_255/tsig_250.c`, checked against
 * `dig` 9.18): algorithm name, time signed, fudge, MAC size and MAC in base64 (the MAC left out
 * when its size is 0), original ID, error (mnemonic such as `BADSIG` or number), other size and
 * other data (left out when its size is 0). The algorithm name is never compressed (RFC 8945 §4.2).
 */
export const TSIG = defineType({
  type: RRType.TSIG,
  mnemonic: 'TSIG',
  rfcs: ['RFC 8945 §4.2'],
  fields: [
    name('algorithm name'),
    u48('time signed'),
    u16('fudge'),
    base64WithLength16('MAC'),
    u16('original ID'),
    mnemonicNumber('error', 16, TSIG_ERRORS, { write: true }),
    base64WithLength16('other data')
  ]
})
