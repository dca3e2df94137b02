import { nameEquals, nameToString, relativeName, type WireName } from '../zone/name.ts'
import { formatRdata, typeName } from '../zone/rdata/index.ts'
import type { ZoneRecord } from '../zone/record.ts'
import { sortRecords } from './order.ts'

export interface WriteOptions {
  origin: WireName
  /** Written in the header comment; the same input and time give the same text. */
  createdAt: Date
  /** A comment naming the pool an rrset belongs to, written on the line before it. */
  poolComment?: (owner: WireName, type: number) => string | undefined
  /** Lines per yielded chunk (streaming writers). */
  chunkLines?: number
}

/**
 * The zone as deterministic BIND text, in chunks: header comments (creation time and record
 * count), `$ORIGIN`, the SOA, the apex NS records, then the other records in the fixed order of
 * {@link sortRecords}; one record per line with owner (relative to the origin), TTL, class,
 * type and rdata. Writing what the parser reads from this text gives the same text again.
 */
export function * writeZoneChunks (records: readonly ZoneRecord[], opts: WriteOptions): Generator<string> {
  const sorted = sortRecords(records, opts.origin)
  const chunkLines = opts.chunkLines ?? 4096
  const origin = nameToString(opts.origin)
  let out = `; Zone ${origin}\n; Created ${opts.createdAt.toISOString()}\n; Records ${sorted.length}\n$ORIGIN ${origin}\n`
  let lines = 0
  let prevOwner: WireName | undefined
  let prevOwnerText = ''
  let prevType = -1
  for (const r of sorted) {
    const sameOwner = prevOwner !== undefined && nameEquals(prevOwner, r.owner)
    if (!sameOwner) {
      prevOwner = r.owner
      prevOwnerText = relativeName(r.owner, opts.origin)
    }
    if (opts.poolComment !== undefined && (!sameOwner || prevType !== r.type)) {
      const comment = opts.poolComment(r.owner, r.type)
      if (comment !== undefined) out += `; ${comment.replace(/[\r\n]+/g, ' ')}\n`
    }
    prevType = r.type
    out += `${prevOwnerText}\t${r.ttl}\tIN\t${typeName(r.type)}\t${formatRdata(r.type, r.rdata)}\n`
    if (++lines >= chunkLines) {
      yield out
      out = ''
      lines = 0
    }
  }
  if (out !== '') yield out
}

/** The whole zone text at once (small zones, tests). */
export function writeZone (records: readonly ZoneRecord[], opts: WriteOptions): string {
  let s = ''
  for (const chunk of writeZoneChunks(records, opts)) s += chunk
  return s
}
