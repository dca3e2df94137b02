import { nameEquals, parentName, wireKey, type WireName } from '../../zone/name.ts'
import type { ZoneRecord } from '../../zone/record.ts'
import type { TsigKey } from '../wire/tsig.ts'

/** One rrset as served: TTL, rdata in canonical wire form, and how a pool orders it. */
export interface ServedRrset {
  ttl: number
  rdata: Uint8Array[]
  /** RD pool order (FIXED, RANDOM, ROUND_ROBIN); plain rrsets keep their stored order. */
  order?: 'FIXED' | 'RANDOM' | 'ROUND_ROBIN'
  /** Where the next ROUND_ROBIN answer starts. */
  next?: number
}

/** Who may transfer the zone out (RFC 5936 §6): address ranges and an optional TSIG key. */
export interface TransferPolicy {
  /** Inclusive ranges of 4- or 16-octet addresses. */
  ranges: { start: Uint8Array, end: Uint8Array }[]
  key?: TsigKey
}

/** The rrsets at one owner name. */
export interface ZoneNode {
  owner: WireName
  rrsets: Map<number, ServedRrset>
}

/**
 * The in-memory copy of one zone that the DNS answer path reads (it never touches the
 * database): nodes by owner (case-insensitive key), and the empty non-terminals between the
 * owners and the apex, so "name exists" (NODATA) and "name does not exist" (NXDOMAIN) differ
 * as RFC 8020 wants.
 */
export class ZoneData {
  readonly originKey: string
  readonly nodes = new Map<string, ZoneNode>()
  /** Names that exist only because names below them do (empty non-terminals). */
  readonly emptyNonTerminals = new Set<string>()
  /** Zone transfers out: nobody when unset. */
  transfer: TransferPolicy | undefined
  /** Prebuilt replies by question and client settings; the whole zone object is replaced on change. */
  readonly replies = new Map<string, Uint8Array>()
  /** Where NOTIFY goes when the serial changes (RFC 1996). */
  notify: { host: string, port: number }[] = []
  /**
   * Set for a secondary zone: its primaries, the only addresses whose NOTIFY is accepted
   * (RFC 1996 §3.10; the port is where we transfer from, not compared with a NOTIFY's source).
   */
  primaries?: { host: string, port: number }[]

  constructor (readonly origin: WireName, readonly serial: number, readonly version: number) {
    this.originKey = wireKey(origin)
  }

  /** Build a zone's data from its records (all of them inside the zone). */
  static from (origin: WireName, serial: number, version: number, records: Iterable<ZoneRecord>, orders?: Map<string, ServedRrset['order']>): ZoneData {
    const z = new ZoneData(origin, serial, version)
    for (const r of records) z.add(r, orders?.get(`${wireKey(r.owner)}/${r.type}`))
    return z
  }

  add (r: ZoneRecord, order?: ServedRrset['order']): void {
    const key = wireKey(r.owner)
    let node = this.nodes.get(key)
    if (node === undefined) {
      node = { owner: r.owner, rrsets: new Map() }
      this.nodes.set(key, node)
      this.emptyNonTerminals.delete(key)
      // Every name between the owner and the apex exists (RFC 4592 §2.2.2).
      let up = parentName(r.owner)
      while (up.length > this.origin.length && !nameEquals(up, this.origin)) {
        const k = wireKey(up)
        if (this.nodes.has(k) || this.emptyNonTerminals.has(k)) break
        this.emptyNonTerminals.add(k)
        up = parentName(up)
      }
    }
    const existing = node.rrsets.get(r.type)
    if (existing === undefined) node.rrsets.set(r.type, { ttl: r.ttl, rdata: [r.rdata], ...(order === undefined ? {} : { order }) })
    else {
      existing.rdata.push(r.rdata)
      if (r.ttl < existing.ttl) existing.ttl = r.ttl
    }
  }

  node (name: WireName): ZoneNode | undefined {
    return this.nodes.get(wireKey(name))
  }

  /** Whether the name exists: it owns records or names below it do. */
  exists (name: WireName): boolean {
    const key = wireKey(name)
    return this.nodes.has(key) || this.emptyNonTerminals.has(key)
  }

  get apex (): ZoneNode | undefined {
    return this.nodes.get(this.originKey)
  }
}
