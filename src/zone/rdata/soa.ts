import { ByteReader } from './bytes.ts'
import { name, ttl32, u32 } from './fields.ts'
import { defineType } from './rdata-type.ts'
import { RRType } from '../rrtype.ts'
import { wireNameLength } from '../name.ts'

/** SOA: start of authority (RFC 1035 §3.3.13; minimum is the negative TTL, RFC 2308 §4). */
export const SOA = defineType({
  type: RRType.SOA,
  mnemonic: 'SOA',
  rfcs: ['RFC 1035 §3.3.13', 'RFC 2308 §4'],
  fields: [name('mname', true), name('rname', true), u32('serial'), ttl32('refresh'), ttl32('retry'), ttl32('expire'), ttl32('minimum')]
})

export interface SoaFields {
  mname: Uint8Array
  rname: Uint8Array
  serial: number
  refresh: number
  retry: number
  expire: number
  minimum: number
}

/** The fields of SOA wire rdata. */
export function readSoa (rdata: Uint8Array): SoaFields {
  const r = new ByteReader(rdata)
  const mname = r.bytes(wireNameLength(rdata, r.pos))
  const rname = r.bytes(wireNameLength(rdata, r.pos))
  return { mname, rname, serial: r.u32(), refresh: r.u32(), retry: r.u32(), expire: r.u32(), minimum: r.u32() }
}

/** Offset of the serial in SOA wire rdata (after the two names). */
export function soaSerialOffset (rdata: Uint8Array): number {
  const m = wireNameLength(rdata, 0)
  return m + wireNameLength(rdata, m)
}
