import { crc32, deflateRawSync } from 'node:zlib'

/** One file of a zip archive. */
export interface ZipEntry {
  /** Path inside the archive, `/`-separated; stored as UTF-8. */
  name: string
  data: Uint8Array
}

export interface ZipOptions {
  /** Modification time of every entry (MS-DOS time has 2-second steps and no zone: UTC is used). */
  modified?: Date
  /** Deflate entries (kept only when smaller than the original). Default true. */
  compress?: boolean
}

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_RECORD = 0x06054b50
/** Version 2.0: deflate, folders. */
const VERSION = 20
/** General-purpose flag bit 11: names are UTF-8. */
const UTF8_NAMES = 0x0800
const STORE = 0
const DEFLATE = 8
const MAX_16 = 0xffff
const MAX_32 = 0xffffffff

/** MS-DOS date and time fields (APPNOTE 4.4.6), from the UTC fields of `d` (1980 at the earliest). */
function dosDateTime (d: Date): { date: number, time: number } {
  const year = Math.max(1980, d.getUTCFullYear())
  return {
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2)
  }
}

/** An entry's data as the archive holds it: CRC-32 and size of the original, the body stored or deflated. */
export interface ZipBody {
  crc: number
  size: number
  method: typeof STORE | typeof DEFLATE
  body: Uint8Array
}

/**
 * The CPU-heavy part of a zip entry (CRC-32 and deflate), apart from the archive around it, so it
 * can run in another thread. A deflated body is kept only when smaller than the original.
 */
export function zipBody (data: Uint8Array, compress = true): ZipBody {
  const crc = crc32(data)
  const deflated = compress ? deflateRawSync(data) : undefined
  const useDeflate = deflated !== undefined && deflated.length < data.length
  return { crc, size: data.length, method: useDeflate ? DEFLATE : STORE, body: useDeflate ? deflated : data }
}

/**
 * A zip archive (PKWARE APPNOTE 6.3: local file headers, central directory, end of central
 * directory record) holding `entries`, each stored or deflated with its CRC-32. Written in
 * memory; no Zip64, so at most 65,535 entries and 4 GiB — far above an export's 250 zones.
 *
 * @param entries files in archive order; names must be unique and non-empty.
 * @returns the archive bytes.
 * @throws RangeError when the archive would need Zip64 or a name is empty or too long.
 */
export function createZip (entries: readonly ZipEntry[], options: ZipOptions = {}): Buffer {
  return assembleZip(entries.map(e => ({ name: e.name, body: zipBody(e.data, options.compress !== false) })), options)
}

/**
 * The archive of {@link createZip} from bodies already made by {@link zipBody} (headers and
 * directory only: cheap, whatever the entries' size).
 *
 * @throws RangeError as {@link createZip}.
 */
export function assembleZip (entries: ReadonlyArray<{ name: string, body: ZipBody }>, options: Pick<ZipOptions, 'modified'> = {}): Buffer {
  if (entries.length > MAX_16) throw new RangeError(`a zip without Zip64 holds at most ${MAX_16} entries`)
  const { date, time } = dosDateTime(options.modified ?? new Date())
  const parts: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0

  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    if (name.length === 0 || name.length > MAX_16) throw new RangeError(`bad zip entry name "${entry.name}"`)
    const { crc, size, method, body } = entry.body
    if (size > MAX_32 || offset > MAX_32) throw new RangeError('a zip without Zip64 holds at most 4 GiB')

    const local = Buffer.alloc(30)
    local.writeUInt32LE(LOCAL_HEADER, 0)
    local.writeUInt16LE(VERSION, 4)
    local.writeUInt16LE(UTF8_NAMES, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt16LE(time, 10)
    local.writeUInt16LE(date, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28)
    const dir = Buffer.alloc(46)
    dir.writeUInt32LE(CENTRAL_HEADER, 0)
    dir.writeUInt16LE(VERSION, 4) // made by: MS-DOS attributes (none set)
    dir.writeUInt16LE(VERSION, 6)
    local.copy(dir, 8, 6, 30) // flags … extra length are the same fields as the local header's
    dir.writeUInt16LE(0, 32) // comment length
    dir.writeUInt16LE(0, 34) // disk number
    dir.writeUInt16LE(0, 36) // internal attributes
    dir.writeUInt32LE(0, 38) // external attributes
    dir.writeUInt32LE(offset, 42)

    parts.push(local, name, Buffer.from(body.buffer, body.byteOffset, body.length))
    central.push(dir, name)
    offset += local.length + name.length + body.length
  }

  const centralSize = central.reduce((n, b) => n + b.length, 0)
  if (offset + centralSize > MAX_32) throw new RangeError('a zip without Zip64 holds at most 4 GiB')
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END_RECORD, 0)
  end.writeUInt16LE(0, 4) // this disk
  end.writeUInt16LE(0, 6) // disk where the central directory starts
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(centralSize, 12)
  end.writeUInt32LE(offset, 16)
  end.writeUInt16LE(0, 20) // comment length
  return Buffer.concat([...parts, ...central, end])
}
