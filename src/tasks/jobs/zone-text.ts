import { ZonalError } from '../../errors/catalog.ts'
import { poolComment } from '../../zone/pools/index.ts'
import type { Store, WireRrset, ZoneWithAccount } from '../../store/store.ts'
import { compareBytes } from '../../zone/checks/sort.ts'
import { nameToString, parseName, wireKey, type WireName } from '../../zone/name.ts'
import { renameRecord, renameUnder } from '../../zone/rename.ts'
import type { ZoneRecord } from '../../zone/record.ts'
import { zoneHeader, ZoneTextWriter } from '../../zonefile/writer.ts'
import { ByteReader, ByteWriter } from '../../util/byte-pack.ts'
import { offloaded } from '../../util/worker-pool.ts'
import { zipBody, type ZipBody } from '../zip.ts'
import { isDnssecType } from '../../zones/dnssec/types.ts'
import { yieldToLoop } from '../../util/yield.ts'

/** Rrsets read per query: a zone of any size is read in pages, never in one query. */
export const EXPORT_PAGE_SIZE = 1000

/** A zone's stored rrsets packed for the thread that writes its text ({@link writeZoneFile}). */
export interface ZoneFileInput {
  /** The zone written (an alias's own name). */
  zoneName: string
  /** The zone whose records these are (an alias's primary; else `zoneName`). */
  sourceName: string
  /** ISO time written in the header. */
  createdAt: string
  /** Per rrset: owner name, type, TTL, pool comment ('' for none), then its rdata. */
  rrsets: Uint8Array
  /** Also make the zip entry body (CRC-32, deflate) of the text. */
  zip: boolean
}

/** A zone's BIND text as UTF-8, and its zip entry body when asked for. */
export interface ZoneFile {
  text: Uint8Array
  zip?: ZipBody
}

/** A byte array with a buffer of its own (so it is transferred whole, never a larger buffer copied). */
function own (b: Uint8Array): Uint8Array {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : b.slice()
}

/**
 * The CPU-heavy part of an export, made to run in a worker thread: the zonefile writer's text of
 * the packed rrsets (header comments with creation time and record count, `$ORIGIN`, SOA, apex
 * NS, then the other records in canonical order, pool rrsets preceded by their comment), with an
 * alias's owners and rdata names moved under the alias name; and, with `zip`, its zip body.
 */
export function writeZoneFile (input: ZoneFileInput): ZoneFile {
  const origin = parseName(input.zoneName)
  const sourceOrigin = parseName(input.sourceName)
  const aliased = input.sourceName !== input.zoneName
  const comments = new Map<string, string>()
  const writer = new ZoneTextWriter({ origin, poolComment: (owner, type) => comments.get(`${wireKey(owner)}/${type}`) })
  const body: string[] = []
  const r = new ByteReader(input.rrsets)
  let records: ZoneRecord[] = []
  while (!r.done) {
    const stored = parseName(r.string())
    const type = r.u16()
    const ttl = r.u32()
    const comment = r.string()
    const n = r.u32()
    // An alias exports its primary's data moved under the alias name, rdata names included.
    if (comment !== '') comments.set(`${wireKey(aliased ? renameUnder(stored, sourceOrigin, origin) : stored)}/${type}`, comment)
    const rdata: Uint8Array[] = []
    for (let i = 0; i < n; i++) rdata.push(r.bytes())
    // The records of one rrset in canonical (octet) order.
    for (const one of rdata.sort(compareBytes)) {
      const record: ZoneRecord = { owner: stored, type, ttl, rdata: one }
      records.push(aliased ? renameRecord(record, sourceOrigin, origin) : record)
    }
    if (records.length >= EXPORT_PAGE_SIZE) {
      body.push(writer.push(records))
      records = []
    }
  }
  body.push(writer.push(records), writer.end())
  const text = Buffer.from(zoneHeader(origin, new Date(input.createdAt), writer.count) + body.join(''), 'utf8')
  return { text: own(text), ...(input.zip ? { zip: ownBody(zipBody(text)) } : {}) }
}

function ownBody (z: ZipBody): ZipBody {
  return { ...z, body: own(z.body) }
}

const writeOffThread = offloaded<typeof writeZoneFile>(new URL(import.meta.url), 'writeZoneFile')

/** Pack one page of rrsets for {@link writeZoneFile}. */
function packPage (w: ByteWriter, page: readonly WireRrset[], poolOwner: (stored: WireName) => string): void {
  for (const rrset of page) {
    w.string(rrset.ownerName)
    w.u16(rrset.type)
    w.u32(rrset.ttl)
    w.string(rrset.profile === null ? '' : poolComment(rrset.profile, poolOwner(parseName(rrset.ownerName))))
    w.u32(rrset.rdata.length)
    for (const rdata of rrset.rdata) w.bytes(rdata)
  }
}

/**
 * A stored zone as BIND text ({@link writeZoneFile}), and its zip body with `zip`. The rrsets are
 * read `EXPORT_PAGE_SIZE` at a time in canonical order, letting the event loop run between pages;
 * the text is written in a worker thread. An alias zone is written as its primary's records with
 * the owners moved under the alias name (names inside rdata are kept as they are).
 *
 * @param signal checked between pages; an aborted export stops with its reason.
 * @throws ZonalError ZONE_NOT_FOUND when an alias's primary no longer exists.
 */
export async function storedZoneFile (store: Store, zone: ZoneWithAccount, createdAt: Date, options: { zip: boolean }, signal?: AbortSignal): Promise<ZoneFile> {
  let source: { id: string, name: string, dnssec_status: string } = zone
  if (zone.zone_type === 'ALIAS' && zone.original_zone_id !== null) {
    const primary = await store.zones.findById(zone.original_zone_id)
    if (primary === undefined) throw new ZonalError('ZONE_NOT_FOUND')
    source = primary
  }
  const origin = parseName(zone.name)
  const sourceOrigin = parseName(source.name)
  const poolOwner = (stored: WireName): string => nameToString(source === zone ? stored : renameUnder(stored, sourceOrigin, origin))
  const w = new ByteWriter()
  let after: { ownerKey: string, type: number } | undefined
  for (;;) {
    signal?.throwIfAborted()
    const page = await store.rrsets.listWire(source.id, EXPORT_PAGE_SIZE, after)
    // A signed zone's DNSSEC records are the service's, not the zone's data: not exported.
    packPage(w, source.dnssec_status === 'SIGNED' ? page.filter(r => !isDnssecType(r.type)) : page, poolOwner)
    if (page.length < EXPORT_PAGE_SIZE) break
    const last = page[page.length - 1]!
    after = { ownerKey: last.ownerKey, type: last.type }
    await yieldToLoop()
  }
  return await writeOffThread({ zoneName: zone.name, sourceName: source.name, createdAt: createdAt.toISOString(), rrsets: w.finish(), zip: options.zip })
}

/**
 * A stored zone as BIND text: {@link storedZoneFile}'s text as a string.
 *
 * @throws ZonalError ZONE_NOT_FOUND when an alias's primary no longer exists.
 */
export async function storedZoneText (store: Store, zone: ZoneWithAccount, createdAt: Date, signal?: AbortSignal): Promise<string> {
  const { text } = await storedZoneFile(store, zone, createdAt, { zip: false }, signal)
  return Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8')
}
