import { Rcode } from '../../dns/wire/constants.ts'

const NAMES = new Map<number, string>(Object.entries(Rcode).map(([name, n]) => [n, name]))

/** An rcode's mnemonic (RFC 1035 §4.1.1, RFC 6895 §2.3), or its number. */
export function rcodeName (rcode: number): string {
  return NAMES.get(rcode) ?? String(rcode)
}
