/**
 * The record type numbers (RFC 1035 §3.2.2, the IANA "Resource Record (RR) TYPEs" registry):
 * the one vocabulary of types for every layer (`RRType.SOA`, never `6` or a local `const SOA`).
 * Keys are the mnemonics, `-` written `_` (`NSAP_PTR`). Types without an rdata module are named
 * here too; their data uses the RFC 3597 generic form.
 */
export const RRType = {
  A: 1,
  NS: 2,
  MD: 3,
  MF: 4,
  CNAME: 5,
  SOA: 6,
  MB: 7,
  MG: 8,
  MR: 9,
  NULL: 10,
  WKS: 11,
  PTR: 12,
  HINFO: 13,
  MINFO: 14,
  MX: 15,
  TXT: 16,
  RP: 17,
  AFSDB: 18,
  X25: 19,
  ISDN: 20,
  RT: 21,
  NSAP: 22,
  NSAP_PTR: 23,
  SIG: 24,
  KEY: 25,
  PX: 26,
  GPOS: 27,
  AAAA: 28,
  LOC: 29,
  NXT: 30,
  EID: 31,
  NIMLOC: 32,
  SRV: 33,
  ATMA: 34,
  NAPTR: 35,
  KX: 36,
  CERT: 37,
  A6: 38,
  DNAME: 39,
  SINK: 40,
  OPT: 41,
  APL: 42,
  DS: 43,
  SSHFP: 44,
  IPSECKEY: 45,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  DHCID: 49,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  SMIMEA: 53,
  HIP: 55,
  NINFO: 56,
  RKEY: 57,
  TALINK: 58,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  CSYNC: 62,
  ZONEMD: 63,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  NID: 104,
  L32: 105,
  L64: 106,
  LP: 107,
  EUI48: 108,
  EUI64: 109,
  TKEY: 249,
  TSIG: 250,
  IXFR: 251,
  AXFR: 252,
  MAILB: 253,
  MAILA: 254,
  ANY: 255,
  URI: 256,
  CAA: 257,
  TA: 32768,
  DLV: 32769
} as const

export type RRTypeName = keyof typeof RRType

const mnemonicOf = new Map<number, string>()
const numberOf = new Map<string, number>()
for (const [key, n] of Object.entries(RRType)) {
  const mnemonic = key.replace('_', '-')
  mnemonicOf.set(n, mnemonic)
  numberOf.set(mnemonic, n)
}

/** Mnemonic of a type number, or `TYPEnnn` (RFC 3597 §5). */
export function typeName (type: number): string {
  return mnemonicOf.get(type) ?? `TYPE${type}`
}

/** The UltraDNS spelling of a type: `A (1)`. */
export function typeLabel (type: number): string {
  return `${typeName(type)} (${type})`
}

/**
 * Type number of a mnemonic (any case), `TYPEnnn`, a plain number, or the UltraDNS `A (1)`
 * spelling. Returns undefined when it names no type.
 */
export function parseTypeName (text: string): number | undefined {
  const s = text.trim()
  const ultra = /^([A-Za-z0-9-]+)\s*\((\d+)\)$/.exec(s)
  if (ultra !== null) {
    const n = parseTypeName(ultra[1]!)
    return n !== undefined && n === Number(ultra[2]) ? n : undefined
  }
  const upper = s.toUpperCase()
  const known = numberOf.get(upper)
  if (known !== undefined) return known
  const m = /^(?:TYPE)?(\d{1,5})$/.exec(upper)
  if (m !== null) {
    const n = Number(m[1])
    return n <= 0xffff ? n : undefined
  }
  return undefined
}

/**
 * Meta and query types (RFC 6895 §3.1: OPT, and 128–255 such as TSIG, IXFR, AXFR, ANY) and type
 * 0: never data in a zone.
 */
export function isMetaType (type: number): boolean {
  return type === 0 || type === RRType.OPT || (type >= 128 && type <= 255)
}
