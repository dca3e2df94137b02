import { mnemonicNumber, type Field, type Mnemonics } from './fields.ts'

/**
 * DNSSEC algorithm numbers (IANA "DNS Security Algorithm Numbers"; RFC 4034 Appendix A.1,
 * RFC 8624 §3.1) and DS digest types (IANA "Digest Algorithms"; RFC 4034 Appendix A.2,
 * RFC 8624 §3.3), with the mnemonics read in presentation format.
 *
 * Input takes the IANA mnemonic and the spellings BIND 9.18 reads (`NSEC3RSASHA1`, `ECCGOST`,
 * `ECDSA256` …), in any case. The first name of each entry is the one BIND writes where it
 * writes mnemonics at all (CERT, RFC 4398 §2.1); DS, DNSKEY and RRSIG are written with numbers.
 */
const ALGORITHMS: ReadonlyArray<readonly [number, ...string[]]> = [
  [1, 'RSAMD5'],
  [2, 'DH'],
  [3, 'DSA'],
  [5, 'RSASHA1'],
  [6, 'NSEC3DSA', 'DSA-NSEC3-SHA1'],
  [7, 'NSEC3RSASHA1', 'RSASHA1-NSEC3-SHA1'],
  [8, 'RSASHA256'],
  [10, 'RSASHA512'],
  [12, 'ECCGOST', 'ECC-GOST'],
  [13, 'ECDSAP256SHA256', 'ECDSA256'],
  [14, 'ECDSAP384SHA384', 'ECDSA384'],
  [15, 'ED25519'],
  [16, 'ED448'],
  [252, 'INDIRECT'],
  [253, 'PRIVATEDNS'],
  [254, 'PRIVATEOID']
]

/** DS digest types with the mnemonics BIND 9.18 reads (it writes numbers). */
const DIGEST_TYPES: ReadonlyArray<readonly [number, ...string[]]> = [
  [1, 'SHA-1', 'SHA1'],
  [2, 'SHA-256', 'SHA256'],
  [3, 'GOST'],
  [4, 'SHA-384', 'SHA384']
]

function table (rows: ReadonlyArray<readonly [number, ...string[]]>): Mnemonics {
  const byName = new Map<string, number>()
  const byNumber = new Map<number, string>()
  for (const [n, ...names] of rows) {
    byNumber.set(n, names[0]!)
    for (const name of names) byName.set(name, n)
  }
  return { byName, byNumber }
}

/** DNSSEC algorithm mnemonics (RFC 8624 §3.1). */
export const DNSSEC_ALGORITHMS: Mnemonics = table(ALGORITHMS)

/** DS digest type mnemonics (RFC 8624 §3.3). */
export const DS_DIGEST_TYPES: Mnemonics = table(DIGEST_TYPES)

/**
 * Octets of the digest each DS digest type makes (RFC 4034 §5.1.4 SHA-1, RFC 4509 §2.2 SHA-256,
 * RFC 6605 §2 SHA-384): the digest types whose length BIND 9.18 checks.
 */
export const DS_DIGEST_LENGTHS: ReadonlyMap<number, number> = new Map([[1, 20], [2, 32], [4, 48]])

/**
 * A DNSSEC algorithm octet (RFC 4034 §2.1.3, §3.1.2, §5.1.2): a number or a mnemonic on input.
 *
 * @param label - field name used in reasons
 * @param options.write - `'mnemonic'` writes BIND's mnemonic for known numbers (CERT); the default writes numbers
 * @returns a field that throws RdataError for numbers over 255 and unknown mnemonics
 */
export function algorithm (label: string, { write = 'number' }: { write?: 'number' | 'mnemonic' } = {}): Field {
  return mnemonicNumber(label, 8, DNSSEC_ALGORITHMS, { write: write === 'mnemonic' })
}

/**
 * A DS digest type octet (RFC 4034 §5.1.3): a number, or a mnemonic such as `SHA-256` as BIND
 * reads it; written as a number.
 *
 * @returns a field that throws RdataError for numbers over 255 and unknown mnemonics
 */
export function digestType (label: string): Field {
  return mnemonicNumber(label, 8, DS_DIGEST_TYPES)
}
