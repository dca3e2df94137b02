import { wireNameLength } from '../name.ts'
import { ByteReader } from '../rdata/bytes.ts'
import { rdataType } from '../rdata/registry.ts'
import { RRType } from '../rrtype.ts'

/**
 * The canonical form of rdata and rrsets for signing (RFC 4034 §6.2, §6.3, corrected by RFC
 * 6840 §5.1): names inside the rdata of the listed types lower-cased, rdatas sorted as octet
 * strings, duplicates removed.
 */

/**
 * Layouts of the listed types that have no rdata module (the rest are read from the
 * registry's field layouts): a fixed number of octets, or a name.
 */
const OLD_LAYOUTS: ReadonlyMap<number, ReadonlyArray<number | 'name'>> = new Map<number, ReadonlyArray<number | 'name'>>([
  [RRType.MD, ['name']],
  [RRType.MB, ['name']],
  [RRType.MG, ['name']],
  [RRType.MR, ['name']],
  [RRType.MINFO, ['name', 'name']],
  [RRType.RT, [2, 'name']],
  [RRType.PX, [2, 'name', 'name']],
  [RRType.SIG, [18, 'name']],
  [RRType.NXT, ['name']]
])

/**
 * RFC 4034 §6.2 item 3 as RFC 6840 §5.1 corrects it: the types whose rdata names are
 * lower-cased (HINFO has none; NSEC's next name keeps its case, RRSIG's signer is lowered).
 */
export const LOWERCASE_RDATA_TYPES: ReadonlySet<number> = new Set([
  RRType.NS, RRType.MD, RRType.MF, RRType.CNAME, RRType.SOA, RRType.MB, RRType.MG, RRType.MR,
  RRType.PTR, RRType.MINFO, RRType.MX, RRType.RP, RRType.AFSDB, RRType.RT, RRType.SIG,
  RRType.PX, RRType.NXT, RRType.NAPTR, RRType.KX, RRType.SRV, RRType.DNAME, RRType.A6, RRType.RRSIG
])

function lowerInPlace (out: Uint8Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const b = out[i]!
    if (b >= 0x41 && b <= 0x5a) out[i] = b + 32
  }
}

/**
 * Rdata in canonical form (RFC 4034 §6.2 item 3): a copy with the embedded names lower-cased
 * for the types listed there; the same bytes for every other type (RFC 3597 §7 for unknown
 * ones). Rdata that does not fit its layout is returned as is (the zone checks report it).
 */
export function canonicalRdata (type: number, rdata: Uint8Array): Uint8Array {
  if (!LOWERCASE_RDATA_TYPES.has(type)) return rdata
  const out = rdata.slice()
  try {
    if (type === RRType.A6) {
      // RFC 2874 §3.1: prefix length, suffix octets, then the prefix name when the length is over 0.
      const prefix = out[0] ?? 0
      const at = 1 + 16 - Math.floor(prefix / 8)
      if (prefix > 0 && at < out.length) lowerInPlace(out, at, at + wireNameLength(out, at))
      return out
    }
    const old = OLD_LAYOUTS.get(type)
    let pos = 0
    if (old !== undefined) {
      for (const part of old) {
        if (part === 'name') {
          const n = wireNameLength(out, pos)
          lowerInPlace(out, pos, pos + n)
          pos += n
        } else {
          pos += part
        }
      }
      return out
    }
    const fields = rdataType(type)?.fields ?? []
    const r = new ByteReader(out)
    for (const f of fields) {
      const start = r.pos
      f.skip(r)
      if (f.name !== undefined) lowerInPlace(out, start, r.pos)
    }
    return out
  } catch {
    return rdata
  }
}

/**
 * An rrset's rdatas in canonical form and order (RFC 4034 §6.3): each made canonical, sorted
 * as left-justified octet strings (a shorter prefix first), duplicates removed (§6.3, RFC 2181 §5).
 */
export function canonicalRdatas (type: number, rdatas: readonly Uint8Array[]): Uint8Array[] {
  if (rdatas.length === 1) return [canonicalRdata(type, rdatas[0]!)]
  const sorted = rdatas.map(r => canonicalRdata(type, r)).sort((a, b) => Buffer.compare(a, b))
  const out: Uint8Array[] = []
  for (const r of sorted) if (out.length === 0 || Buffer.compare(out[out.length - 1]!, r) !== 0) out.push(r)
  return out
}
