import { Rcode } from '../wire/constants.ts'

/**
 * How the response rate limiter tells responses apart, read from the response bytes alone (the
 * answer path is not asked again), and the truncated reply it sends instead of a response.
 */

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
const MAX_HOPS = 64

/**
 * FNV-1a over the name at `offset`, lower-cased (RFC 4343) and with compression pointers
 * followed, so spellings of one name hash alike.
 *
 * @returns an unsigned 32-bit hash, or -1 when the name cannot be read.
 */
function hashName (msg: Uint8Array, offset: number): number {
  let h = FNV_OFFSET
  let p = offset
  let hops = 0
  for (;;) {
    const len = msg[p]
    if (len === undefined) return -1
    if (len >= 0xc0) {
      if (p + 1 >= msg.length || ++hops > MAX_HOPS) return -1
      p = ((len & 0x3f) << 8) | msg[p + 1]!
      continue
    }
    if (len > 63 || p + len >= msg.length) return -1
    h = Math.imul(h ^ len, FNV_PRIME)
    if (len === 0) return h >>> 0
    for (let i = p + 1; i <= p + len; i++) {
      const b = msg[i]!
      h = Math.imul(h ^ (b >= 0x41 && b <= 0x5a ? b + 32 : b), FNV_PRIME)
    }
    p += len + 1
  }
}

/** The offset after the resource record at `offset`, or -1 when it runs past the end. */
function skipRecord (msg: Uint8Array, offset: number): number {
  let p = offset
  for (;;) {
    const len = msg[p]
    if (len === undefined) return -1
    if (len >= 0xc0) {
      p += 2
      break
    }
    p += len + 1
    if (len === 0) break
  }
  if (p + 10 > msg.length) return -1
  return p + 10 + ((msg[p + 8]! << 8) | msg[p + 9]!)
}

/** Offset after the first question's name (uncompressed: nothing comes before it), or -1. */
function questionNameEnd (response: Uint8Array): number {
  if (response.length < 12 || response[4] !== 0 || response[5] !== 1) return -1
  let p = 12
  for (;;) {
    const len = response[p]
    if (len === undefined || len > 63) return -1
    p += len + 1
    if (len === 0) break
  }
  return p + 4 <= response.length ? p : -1
}

/**
 * What makes two responses "the same" for rate limiting (BIND's RRL categories): a positive
 * answer by its qname and qtype (`A/`); NXDOMAIN (`N/`), NODATA (`D/`) and referrals (`R/`) by
 * the zone the authority section names (the SOA owner, or the delegated zone), so random names
 * under one zone share a bucket; any other rcode by the rcode alone (`E/`). Names are hashed
 * (32 bits): two names that collide share a bucket, which only limits them together.
 */
export function responseIdentity (response: Uint8Array): string {
  const rcode = response[3]! & 0xf
  const nameEnd = questionNameEnd(response)
  if (nameEnd < 0 || (rcode !== Rcode.NOERROR && rcode !== Rcode.NXDOMAIN)) return `E/${rcode}`
  const answers = (response[6]! << 8) | response[7]!
  if (rcode === Rcode.NOERROR && answers > 0) return `A/${(response[nameEnd]! << 8) | response[nameEnd + 1]!}/${hashName(response, 12)}`
  const kind = rcode === Rcode.NXDOMAIN ? 'N' : (response[2]! & 0x04) !== 0 ? 'D' : 'R'
  // A CNAME chain may come before an NXDOMAIN or NODATA: skip the answers.
  let p = nameEnd + 4
  for (let i = 0; i < answers && p >= 0; i++) p = skipRecord(response, p)
  const authority = (response[8]! << 8) | response[9]!
  const zone = p >= 0 && authority > 0 ? hashName(response, p) : -1
  return `${kind}/${zone >= 0 ? zone : hashName(response, 12)}`
}

/** The header and question of `response` with TC set and no records (the "slip" reply). */
export function truncatedCopy (response: Uint8Array): Uint8Array {
  const nameEnd = questionNameEnd(response)
  const end = nameEnd < 0 ? 12 : nameEnd + 4
  const out = response.slice(0, end)
  out[2] = out[2]! | 0x02
  if (nameEnd < 0) {
    out[4] = 0
    out[5] = 0
  }
  out.fill(0, 6, 12)
  return out
}
