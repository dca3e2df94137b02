import { isSubdomain, type WireName } from './name.ts'
import { ByteReader, ByteWriter } from './rdata/bytes.ts'
import { rdataType } from './rdata/registry.ts'
import type { ZoneRecord } from './record.ts'

/** `name` moved from below `from` to below `to` (names outside `from` are returned as they are). */
export function renameUnder (name: WireName, from: WireName, to: WireName): WireName {
  if (!isSubdomain(name, from)) return name
  const prefix = name.subarray(0, name.length - from.length)
  const out = new Uint8Array(prefix.length + to.length)
  out.set(prefix)
  out.set(to, prefix.length)
  return out
}

/**
 * A record of zone `from` as a record of zone `to`: the owner and every domain name in the rdata
 * that lies in `from` are moved under `to` (alias zones, copies, unalias). Types whose layout
 * has no name fields, or that have a custom layout, keep their rdata.
 */
export function renameRecord (record: ZoneRecord, from: WireName, to: WireName): ZoneRecord {
  const owner = renameUnder(record.owner, from, to)
  const t = rdataType(record.type)
  if (t === undefined || t.parse !== undefined || t.check !== undefined || !t.fields.some(f => f.name !== undefined)) {
    return { ...record, owner }
  }
  const r = new ByteReader(record.rdata)
  const w = new ByteWriter(record.rdata.length + 32)
  for (const f of t.fields) {
    const start = r.pos
    f.skip(r)
    const bytes = record.rdata.subarray(start, r.pos)
    w.bytes(f.name !== undefined ? renameUnder(bytes, from, to) : bytes)
  }
  return { ...record, owner, rdata: w.finish() }
}
