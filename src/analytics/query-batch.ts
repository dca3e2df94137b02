import { QueryFlag } from '../dns/server/query-capture.ts'
import { formatIp } from '../zone/ip.ts'
import { fromWireKey, nameToString } from '../zone/name.ts'

/**
 * One answered query, as a plain object: for sinks that keep a few (samples) and for tests.
 * Sinks that aggregate read the batch's columns instead, which allocates nothing.
 */
export interface QueryRecord {
  /** When it was answered, milliseconds since the epoch (fractional: microsecond resolution). */
  time: number
  /** The node that answered (`ZONAL_NODE_NAME`). */
  node: string
  /** The zone that answered, as a wire key (see {@link nameOfKey}); undefined when none did. */
  zone: string | undefined
  /** The question name as a wire key (lower-cased); undefined when the request had none. */
  qname: string | undefined
  qtype: number
  opcode: number
  /** The response's rcode, extended bits included (BADVERS is 16). */
  rcode: number
  transport: 'udp' | 'tcp'
  family: 'IPv4' | 'IPv6'
  address: string
  port: number
  requestSize: number
  responseSize: number
  /** `QueryFlag` bits: RD, CD, EDNS, DO of the request; AA, TC, RA, AD of the response. */
  flags: number
  /** The request's DNS message id (the response carries the same). */
  dnsId: number
  /** The response header's section counts (a zone transfer's: its first message's). */
  qdcount: number
  ancount: number
  nscount: number
  arcount: number
  /**
   * Microseconds from the request's receipt (for batched UDP, the read of its batch; over
   * TCP, the read of the chunk that completed it) to the response being handed to the socket.
   */
  responseMicros: number
  /** The request's EDNS Client Subnet address (RFC 7871) in presentation form; '' when none. */
  ecsAddress: string
  /** The Client Subnet's SOURCE PREFIX-LENGTH; 0 when none. */
  ecsPrefix: number
}

/**
 * A name from the wire key the capture carries (`wireKey` of zone/name.ts) in presentation
 * form, lower-cased: `example.org.`.
 */
export function nameOfKey (key: string): string {
  return nameToString(fromWireKey(key))
}

/** The columns of captured queries, as many as `length` says: what a batch holds once handed to the sink. */
export interface QueryColumns {
  length: number
  time: Float64Array
  qtype: Uint16Array
  opcode: Uint8Array
  rcode: Uint16Array
  port: Uint16Array
  requestSize: Uint16Array
  responseSize: Uint16Array
  /** `QueryFlag` bits, transport (TCP) and family (IPV6) included. */
  flags: Uint16Array
  dnsId: Uint16Array
  qdcount: Uint16Array
  ancount: Uint16Array
  nscount: Uint16Array
  arcount: Uint16Array
  /** See {@link QueryRecord.responseMicros} (at most 2³² − 1). */
  responseMicros: Uint32Array
  /** Client Subnet SOURCE PREFIX-LENGTH (0 when none). */
  ecsPrefix: Uint8Array
  address: string[]
  /** Zone wire keys; '' when no zone answered. */
  zone: string[]
  /** Question name wire keys; '' when there was no question (the root's key is '\0'). */
  qname: string[]
  /** Client Subnet addresses in presentation form ('' when none), e.g. '81.2.69.0', '2001:db8::'. */
  ecsAddress: string[]
}

/** Octets kept per query of a Client Subnet address (an IPv6 one at most). */
const ECS_BYTES = 16
/** IPv4 Client Subnet addresses as text by their 32 bits (per thread; cleared when full). */
const IPV4_TEXT = new Map<number, string>()
const IPV4_TEXT_SIZE = 4096

/**
 * A fixed-size batch of captured queries, one typed array (or array of shared strings) per
 * field, allocated once and reused: filling it on the answer path allocates nothing. Strings
 * are references to ones the answer path already has (the client address, the name keys); the
 * Client Subnet address is kept as octets on the answer path and written out as text in
 * `ecsAddress` by {@link finish}, before the batch goes to the sink.
 */
export class QueryBatch implements QueryColumns {
  length = 0
  readonly time: Float64Array
  readonly qtype: Uint16Array
  readonly opcode: Uint8Array
  readonly rcode: Uint16Array
  readonly port: Uint16Array
  readonly requestSize: Uint16Array
  readonly responseSize: Uint16Array
  readonly flags: Uint16Array
  readonly dnsId: Uint16Array
  readonly qdcount: Uint16Array
  readonly ancount: Uint16Array
  readonly nscount: Uint16Array
  readonly arcount: Uint16Array
  readonly responseMicros: Uint32Array
  readonly ecsPrefix: Uint8Array
  /** The Client Subnet address's family as captured, not yet written out: 4, 6, or 0. */
  readonly ecsFamily: Uint8Array
  /** The Client Subnet address octets as captured ({@link ECS_BYTES} per query, zero-padded). */
  readonly ecsBytes: Uint8Array
  readonly address: string[]
  readonly zone: string[]
  readonly qname: string[]
  readonly ecsAddress: string[]

  readonly capacity: number
  readonly node: string

  constructor (capacity: number, node: string) {
    this.capacity = capacity
    this.node = node
    this.time = new Float64Array(capacity)
    this.qtype = new Uint16Array(capacity)
    this.opcode = new Uint8Array(capacity)
    this.rcode = new Uint16Array(capacity)
    this.port = new Uint16Array(capacity)
    this.requestSize = new Uint16Array(capacity)
    this.responseSize = new Uint16Array(capacity)
    this.flags = new Uint16Array(capacity)
    this.dnsId = new Uint16Array(capacity)
    this.qdcount = new Uint16Array(capacity)
    this.ancount = new Uint16Array(capacity)
    this.nscount = new Uint16Array(capacity)
    this.arcount = new Uint16Array(capacity)
    this.responseMicros = new Uint32Array(capacity)
    this.ecsPrefix = new Uint8Array(capacity)
    this.ecsFamily = new Uint8Array(capacity)
    this.ecsBytes = new Uint8Array(capacity * ECS_BYTES)
    this.address = new Array<string>(capacity).fill('')
    this.zone = new Array<string>(capacity).fill('')
    this.qname = new Array<string>(capacity).fill('')
    this.ecsAddress = new Array<string>(capacity).fill('')
  }

  /**
   * Keep the request's Client Subnet option (RFC 7871 §6: FAMILY, SOURCE PREFIX-LENGTH, SCOPE
   * PREFIX-LENGTH, ADDRESS) for query `i` when it is valid: family 1 (IPv4) or 2 (IPv6), a
   * prefix no longer than the family's addresses, exactly ⌈prefix / 8⌉ address octets and no
   * bit set beyond the prefix. An invalid one is not kept (as if there were none).
   */
  setEcs (i: number, bytes: Uint8Array, at: number, length: number): void {
    this.ecsFamily[i] = 0
    this.ecsPrefix[i] = 0
    if (length < 4) return
    const family = (bytes[at]! << 8) | bytes[at + 1]!
    const prefix = bytes[at + 2]!
    const max = family === 1 ? 32 : family === 2 ? 128 : 0
    const octets = (prefix + 7) >> 3
    if (max === 0 || prefix > max || length !== 4 + octets) return
    if ((prefix & 7) !== 0 && (bytes[at + 3 + octets]! & (0xff >> (prefix & 7))) !== 0) return
    const out = i * ECS_BYTES
    const kept = this.ecsBytes
    const size = family === 1 ? 4 : 16
    for (let k = 0; k < size; k++) kept[out + k] = k < octets ? bytes[at + 4 + k]! : 0
    this.ecsFamily[i] = family === 1 ? 4 : 6
    this.ecsPrefix[i] = prefix
  }

  /**
   * Write out the Client Subnet addresses captured as octets (off the answer path). IPv4 ones
   * come from a small cache by their 32 bits: a resolver sends a few subnets many times.
   */
  finish (): void {
    const kept = this.ecsBytes
    for (let i = 0; i < this.length; i++) {
      const family = this.ecsFamily[i]!
      if (family === 0) continue
      const at = i * ECS_BYTES
      if (family === 4) {
        const key = ((kept[at]! << 24) | (kept[at + 1]! << 16) | (kept[at + 2]! << 8) | kept[at + 3]!) >>> 0
        let text = IPV4_TEXT.get(key)
        if (text === undefined) {
          if (IPV4_TEXT.size >= IPV4_TEXT_SIZE) IPV4_TEXT.clear()
          text = `${kept[at]!}.${kept[at + 1]!}.${kept[at + 2]!}.${kept[at + 3]!}`
          IPV4_TEXT.set(key, text)
        }
        this.ecsAddress[i] = text
      } else this.ecsAddress[i] = formatIp(kept.subarray(at, at + 16))
      this.ecsFamily[i] = 0
    }
  }

  /** The i-th query as an object. */
  record (i: number): QueryRecord {
    const flags = this.flags[i]!
    return {
      time: this.time[i]!,
      node: this.node,
      zone: this.zone[i] === '' ? undefined : this.zone[i],
      qname: this.qname[i] === '' ? undefined : this.qname[i],
      qtype: this.qtype[i]!,
      opcode: this.opcode[i]!,
      rcode: this.rcode[i]!,
      transport: (flags & QueryFlag.TCP) !== 0 ? 'tcp' : 'udp',
      family: (flags & QueryFlag.IPV6) !== 0 ? 'IPv6' : 'IPv4',
      address: this.address[i]!,
      port: this.port[i]!,
      requestSize: this.requestSize[i]!,
      responseSize: this.responseSize[i]!,
      flags: flags & ~(QueryFlag.TCP | QueryFlag.IPV6),
      dnsId: this.dnsId[i]!,
      qdcount: this.qdcount[i]!,
      ancount: this.ancount[i]!,
      nscount: this.nscount[i]!,
      arcount: this.arcount[i]!,
      responseMicros: this.responseMicros[i]!,
      ecsAddress: this.ecsAddress[i]!,
      ecsPrefix: this.ecsPrefix[i]!
    }
  }

  /** Every query of the batch as objects. */
  records (): QueryRecord[] {
    const out: QueryRecord[] = []
    for (let i = 0; i < this.length; i++) out.push(this.record(i))
    return out
  }
}
