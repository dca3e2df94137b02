import type { Client } from './handle-query.ts'

/**
 * Bits of a captured query's `flags`: what the request asked for (RD, CD, EDNS, DO) and what
 * the response said (AA, TC, RA, AD), plus the transport and address family of the client.
 */
export const QueryFlag = {
  /** Request: recursion desired (RFC 1035 §4.1.1). */
  RD: 0x01,
  /** Request: checking disabled (RFC 4035 §3.2.2). */
  CD: 0x02,
  /** Request: an OPT record was present (RFC 6891). */
  EDNS: 0x04,
  /** Request: the EDNS DO bit (RFC 3225). */
  DO: 0x08,
  /** Response: authoritative answer. */
  AA: 0x10,
  /** Response: truncated (RFC 1035 §4.1.1). */
  TC: 0x20,
  /** Over TCP (else UDP). */
  TCP: 0x40,
  /** From an IPv6 address (else IPv4). */
  IPV6: 0x80,
  /** Response: recursion available (RFC 1035 §4.1.1; never set by this authoritative server). */
  RA: 0x100,
  /** Response: authentic data (RFC 4035 §3.2.3). */
  AD: 0x200
} as const

/** Request flags from a request's header and OPT record. */
export function requestFlags (header2: number, header3: number, edns: boolean, dnssecOk: boolean): number {
  return (header2 & 0x01) | ((header3 & 0x10) !== 0 ? QueryFlag.CD : 0) | (edns ? QueryFlag.EDNS : 0) | (dnssecOk ? QueryFlag.DO : 0)
}

/** Response flags (AA, TC, RA, AD) from a response's header. */
export function responseFlags (response: Uint8Array): number {
  const h2 = response[2]!
  const h3 = response[3]!
  return ((h2 & 0x04) !== 0 ? QueryFlag.AA : 0) | ((h2 & 0x02) !== 0 ? QueryFlag.TC : 0) |
    ((h3 & 0x80) !== 0 ? QueryFlag.RA : 0) | ((h3 & 0x20) !== 0 ? QueryFlag.AD : 0)
}

/** EDNS option code of the Client Subnet option (RFC 7871 §6). */
export const EDNS_CLIENT_SUBNET = 8

/**
 * Where a request's EDNS Client Subnet option lies (RFC 7871 §6): its data, FAMILY first, is
 * `length` octets of `bytes` from `at`. The answer path fills one such object and reuses it
 * (nothing allocated per query); the capture reads it during its call, checks it and copies
 * what it keeps.
 */
export interface EcsOption {
  bytes: Uint8Array
  at: number
  length: number
}

/**
 * Find the Client Subnet option among the options of an OPT record's rdata (`bytes` from
 * `start` to `end`) and point `out` at its data. False when there is none (or the options are
 * malformed); then `out` is left as it was.
 */
export function findEcs (bytes: Uint8Array, start: number, end: number, out: EcsOption): boolean {
  let p = start
  while (p + 4 <= end) {
    const code = (bytes[p]! << 8) | bytes[p + 1]!
    const length = (bytes[p + 2]! << 8) | bytes[p + 3]!
    if (p + 4 + length > end) return false
    if (code === EDNS_CLIENT_SUBNET) {
      out.bytes = bytes
      out.at = p + 4
      out.length = length
      return true
    }
    p += 4 + length
  }
  return false
}

/**
 * Where the query handler reports each answered query (the analytics capture hook, filled by
 * `analytics/QueryCollector`). Called on the answer path, once per response sent: it must be
 * cheap, must not allocate much and must never throw.
 *
 * Names are passed as wire keys (`wireKey` of zone/name.ts: the lower-cased wire form as a
 * latin1 string), which the answer path has already built for its own lookups.
 */
export interface QueryCapture {
  /**
   * @param client who asked, over what
   * @param zone the wire key of the zone that answered, or undefined (not ours, malformed)
   * @param qname the wire key of the question name, or undefined (no readable question)
   * @param qtype the question type (0 when there is none)
   * @param opcode the request's opcode
   * @param rcode the response's rcode (with extended bits when there are some)
   * @param request the request as received (without the TCP length prefix): its size and DNS
   *   id are read from it
   * @param response the response (the first message of a zone transfer): its section counts
   *   are read from its header
   * @param responseSize octets sent (without TCP length prefixes; all messages of a transfer)
   * @param flags `QueryFlag` bits of the request and response (RD, CD, EDNS, DO, AA, TC, RA, AD)
   * @param received `performance.now()` of this thread when the request was received (for
   *   batched UDP, when its batch was read): the capture's own clock reading, as the response
   *   is handed to the socket, less this is the response time
   * @param ecs the request's Client Subnet option, if it has one (read during the call only)
   */
  query (client: Client, zone: string | undefined, qname: string | undefined, qtype: number, opcode: number, rcode: number,
    request: Uint8Array, response: Uint8Array, responseSize: number, flags: number, received: number, ecs: EcsOption | undefined): void
}
