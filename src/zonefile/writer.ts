import { sortRecords } from '../zone/checks/sort.ts'
import { nameEquals, nameToString, relativeName, type WireName } from '../zone/name.ts'
import { formatRdata, typeName } from '../zone/rdata/index.ts'
import type { ZoneRecord } from '../zone/record.ts'

const SOA = 6
const NS = 2

export interface WriteOptions {
  origin: WireName
  /** Written in the header comment; the same input and time give the same text. */
  createdAt: Date
  /** The records are already in canonical order (as `normalizeZone` returns them). */
  sorted?: boolean
  /** A comment naming the pool an rrset belongs to, written on the line before it. */
  poolComment?: (owner: WireName, type: number) => string | undefined
  /** Lines per yielded chunk (streaming writers). */
  chunkLines?: number
}

/**
 * The zone as deterministic BIND text, in chunks: header comments (creation time and record
 * count), `$ORIGIN`, the apex SOA, the apex NS records, then every other record in canonical
 * order (owners label-wise from the right, then type number, then rdata octets); one record per
 * line with owner (relative to the origin), TTL, class, type and rdata. Writing what the parser
 * reads from this text gives the same text again.
 */
export function * writeZoneChunks (records: readonly ZoneRecord[], opts: WriteOptions): Generator<string> {
  const sorted = opts.sorted === true ? records : sortRecords(records).records
  const { origin } = opts
  const chunkLines = opts.chunkLines ?? 4096
  const originText = nameToString(origin)
  let out = `; Zone ${originText}\n; Created ${opts.createdAt.toISOString()}\n; Records ${sorted.length}\n$ORIGIN ${originText}\n`
  let lines = 0
  let prevOwner: WireName | undefined
  let prevOwnerText = ''
  let prevType = -1

  const isApexHead = (r: ZoneRecord): boolean => (r.type === SOA || r.type === NS) && nameEquals(r.owner, origin)
  const apexHead = sorted.filter(r => r.type === SOA && nameEquals(r.owner, origin))
    .concat(sorted.filter(r => r.type === NS && nameEquals(r.owner, origin)))

  function line (r: ZoneRecord): void {
    const sameOwner = prevOwner !== undefined && (prevOwner === r.owner || nameEquals(prevOwner, r.owner))
    if (!sameOwner) {
      prevOwner = r.owner
      prevOwnerText = relativeName(r.owner, origin)
    }
    if (opts.poolComment !== undefined && (!sameOwner || prevType !== r.type)) {
      const comment = opts.poolComment(r.owner, r.type)
      if (comment !== undefined) out += `; ${comment.replace(/[\r\n]+/g, ' ')}\n`
    }
    prevType = r.type
    out += `${prevOwnerText}\t${r.ttl}\tIN\t${typeName(r.type)}\t${formatRdata(r.type, r.rdata)}\n`
    lines++
  }

  for (const r of apexHead) line(r)
  for (const r of sorted) {
    if (isApexHead(r)) continue
    line(r)
    if (lines >= chunkLines) {
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
