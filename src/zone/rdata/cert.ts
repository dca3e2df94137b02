import { algorithm } from './dnssec-algorithms.ts'
import { base64Rest, mnemonicNumber, u16, type Mnemonics } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'

/** Certificate type mnemonics (RFC 4398 §2.1), read in any case and written as BIND writes them. */
const CERT_TYPES: Mnemonics = (() => {
  const rows: Array<[number, string]> = [
    [1, 'PKIX'], [2, 'SPKI'], [3, 'PGP'], [4, 'IPKIX'], [5, 'ISPKI'], [6, 'IPGP'],
    [7, 'ACPKIX'], [8, 'IACPKIX'], [253, 'URI'], [254, 'OID']
  ]
  return { byName: new Map(rows.map(([n, m]) => [m, n])), byNumber: new Map(rows) }
})()

/**
 * CERT: a certificate or CRL (RFC 4398 §2; presentation §2.2). The type and the algorithm are
 * read as numbers or mnemonics and, as BIND 9.18 writes them, written as mnemonics where one is
 * known (`PKIX 0 RSASHA256 …`, `65000 2 DSA …`); the certificate is base64 with pieces joined.
 */
export const CERT = defineType({
  type: RRType.CERT,
  mnemonic: 'CERT',
  rfcs: ['RFC 4398 §2'],
  fields: [
    mnemonicNumber('certificate type', 16, CERT_TYPES, { write: true }),
    u16('key tag'),
    algorithm('algorithm', { write: 'mnemonic' }),
    base64Rest('certificate')
  ]
})
