import type { Client } from './handle-query.ts'

/**
 * Bits of a captured query's `flags`: what the request asked for (RD, CD, EDNS, DO) and what
 * the response said (AA, TC), plus the transport and address family of the client.
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
  IPV6: 0x80
} as const

/** Request flags from a request's header and OPT record. */
export function requestFlags (header2: number, header3: number, edns: boolean, dnssecOk: boolean): number {
  return (header2 & 0x01) | ((header3 & 0x10) !== 0 ? QueryFlag.CD : 0) | (edns ? QueryFlag.EDNS : 0) | (dnssecOk ? QueryFlag.DO : 0)
}

/** Response flags (AA, TC) from a response's header. */
export function responseFlags (response: Uint8Array): number {
  return ((response[2]! & 0x04) !== 0 ? QueryFlag.AA : 0) | ((response[2]! & 0x02) !== 0 ? QueryFlag.TC : 0)
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
   * @param requestSize octets received (without the TCP length prefix)
   * @param responseSize octets sent (without the TCP length prefix)
   * @param flags `QueryFlag` bits of the request and response (RD, CD, EDNS, DO, AA, TC)
   * @param time when it was answered (ms since the epoch); now when absent (a DNS worker
   *   thread's capture, handed to the main thread later, gives it)
   */
  query (client: Client, zone: string | undefined, qname: string | undefined, qtype: number, opcode: number, rcode: number, requestSize: number, responseSize: number, flags: number, time?: number): void
}
