import { QueryFlag } from '../dns/server/query-capture.ts'
import { fromWireKey, nameToString } from '../zone/name.ts'

/**
 * One answered query, as a plain object: for sinks that keep a few (samples) and for tests.
 * Sinks that aggregate read the batch's columns instead, which allocates nothing.
 */
export interface QueryRecord {
  /** When it was answered, milliseconds since the epoch. */
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
  /** `QueryFlag` bits: RD, CD, EDNS, DO of the request; AA, TC of the response. */
  flags: number
}

/**
 * A name from the wire key the capture carries (`wireKey` of zone/name.ts) in presentation
 * form, lower-cased: `example.org.`.
 */
export function nameOfKey (key: string): string {
  return nameToString(fromWireKey(key))
}

/**
 * A fixed-size batch of captured queries, one typed array (or array of shared strings) per
 * field, allocated once and reused: filling it on the answer path allocates nothing. Strings
 * are references to ones the answer path already has (the client address, the name keys).
 */
export class QueryBatch {
  length = 0
  readonly time: Float64Array
  readonly qtype: Uint16Array
  readonly opcode: Uint8Array
  readonly rcode: Uint16Array
  readonly port: Uint16Array
  readonly requestSize: Uint16Array
  readonly responseSize: Uint16Array
  /** `QueryFlag` bits, transport (TCP) and family (IPV6) included. */
  readonly flags: Uint8Array
  readonly address: string[]
  /** Zone wire keys; '' when no zone answered. */
  readonly zone: string[]
  /** Question name wire keys; '' when there was no question (the root's key is '\0'). */
  readonly qname: string[]

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
    this.flags = new Uint8Array(capacity)
    this.address = new Array<string>(capacity).fill('')
    this.zone = new Array<string>(capacity).fill('')
    this.qname = new Array<string>(capacity).fill('')
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
      flags: flags & ~(QueryFlag.TCP | QueryFlag.IPV6)
    }
  }

  /** Every query of the batch as objects. */
  records (): QueryRecord[] {
    const out: QueryRecord[] = []
    for (let i = 0; i < this.length; i++) out.push(this.record(i))
    return out
  }
}
