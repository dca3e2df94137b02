import { sortRecords } from '../zone/checks/sort.ts'
import { compareNames, nameEquals, nameToString, relativeName, type WireName } from '../zone/name.ts'
import { formatRdata, typeName } from '../zone/rdata/index.ts'
import type { ZoneRecord } from '../zone/record.ts'
import { RRType } from '../zone/rrtype.ts'

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

/** The header of a zone file: comments naming the zone, creation time and record count, then `$ORIGIN`. */
export function zoneHeader (origin: WireName, createdAt: Date, recordCount: number): string {
  const originText = nameToString(origin)
  return `; Zone ${originText}\n; Created ${createdAt.toISOString()}\n; Records ${recordCount}\n$ORIGIN ${originText}\n`
}

/** Record lines: owner relative to the origin, TTL, class, type, rdata; pool comments before an rrset. */
class LineFormatter {
  private prevOwner: WireName | undefined
  private prevOwnerText = ''
  private prevType = -1

  private readonly origin: WireName
  private readonly poolComment: WriteOptions['poolComment']

  constructor (origin: WireName, poolComment: WriteOptions['poolComment']) {
    this.origin = origin
    this.poolComment = poolComment
  }

  line (r: ZoneRecord): string {
    let out = ''
    const sameOwner = this.prevOwner !== undefined && (this.prevOwner === r.owner || nameEquals(this.prevOwner, r.owner))
    if (!sameOwner) {
      this.prevOwner = r.owner
      this.prevOwnerText = relativeName(r.owner, this.origin)
    }
    if (this.poolComment !== undefined && (!sameOwner || this.prevType !== r.type)) {
      const comment = this.poolComment(r.owner, r.type)
      if (comment !== undefined) out += `; ${comment.replace(/[\r\n]+/g, ' ')}\n`
    }
    this.prevType = r.type
    return out + `${this.prevOwnerText}\t${r.ttl}\tIN\t${typeName(r.type)}\t${formatRdata(r.type, r.rdata)}\n`
  }
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
  const formatter = new LineFormatter(origin, opts.poolComment)
  let out = zoneHeader(origin, opts.createdAt, sorted.length)
  let lines = 0

  const isApexHead = (r: ZoneRecord): boolean => (r.type === RRType.SOA || r.type === RRType.NS) && nameEquals(r.owner, origin)
  const apexHead = sorted.filter(r => r.type === RRType.SOA && nameEquals(r.owner, origin))
    .concat(sorted.filter(r => r.type === RRType.NS && nameEquals(r.owner, origin)))

  for (const r of apexHead) {
    out += formatter.line(r)
    lines++
  }
  for (const r of sorted) {
    if (isApexHead(r)) continue
    out += formatter.line(r)
    lines++
    if (lines >= chunkLines) {
      yield out
      out = ''
      lines = 0
    }
  }
  if (out !== '') yield out
}

/**
 * The record lines of {@link writeZoneChunks} for records that arrive a page at a time, already
 * in canonical order (as the store lists them), so a zone of any size is written without holding
 * its records. The header needs the record count, known only at the end: write
 * `zoneHeader(origin, createdAt, writer.count)` before the lines.
 *
 * @remarks Records up to the apex are held back until the apex has passed, so the apex SOA and
 * NS lines come first exactly as in {@link writeZoneChunks}; the same records give the same text.
 */
export class ZoneTextWriter {
  /** Records written so far. */
  count = 0
  private readonly formatter: LineFormatter
  private held: ZoneRecord[] | undefined = []

  private readonly opts: Pick<WriteOptions, 'origin' | 'poolComment'>

  constructor (opts: Pick<WriteOptions, 'origin' | 'poolComment'>) {
    this.opts = opts
    this.formatter = new LineFormatter(opts.origin, opts.poolComment)
  }

  /** Lines for the next records in canonical order (possibly '' while the apex is held back). */
  push (records: readonly ZoneRecord[]): string {
    this.count += records.length
    let i = 0
    let out = ''
    if (this.held !== undefined) {
      while (i < records.length && compareNames(records[i]!.owner, this.opts.origin) <= 0) this.held.push(records[i++]!)
      if (i === records.length) return ''
      out = this.release()
    }
    for (; i < records.length; i++) out += this.formatter.line(records[i]!)
    return out
  }

  /** The lines still held back (a zone that ends at its apex). */
  end (): string {
    return this.held === undefined ? '' : this.release()
  }

  private release (): string {
    const held = this.held ?? []
    this.held = undefined
    const origin = this.opts.origin
    const isHead = (r: ZoneRecord, type: number): boolean => r.type === type && nameEquals(r.owner, origin)
    let out = ''
    for (const r of held) if (isHead(r, RRType.SOA)) out += this.formatter.line(r)
    for (const r of held) if (isHead(r, RRType.NS)) out += this.formatter.line(r)
    for (const r of held) if (!isHead(r, RRType.SOA) && !isHead(r, RRType.NS)) out += this.formatter.line(r)
    return out
  }
}

/** The whole zone text at once (small zones, tests). */
export function writeZone (records: readonly ZoneRecord[], opts: WriteOptions): string {
  let s = ''
  for (const chunk of writeZoneChunks(records, opts)) s += chunk
  return s
}
