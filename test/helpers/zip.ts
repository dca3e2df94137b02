import { spawnSync } from 'node:child_process'

export interface UnzippedEntry {
  name: string
  data: Buffer
  compressType: number
  dateTime: number[]
}

const SCRIPT = `
import base64, io, json, sys, zipfile
z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))
bad = z.testzip()
if bad is not None:
    sys.exit('bad CRC in ' + bad)
print(json.dumps([{'name': i.filename, 'data': base64.b64encode(z.read(i)).decode(), 'compressType': i.compress_type, 'dateTime': list(i.date_time)} for i in z.infolist()]))
`

/** The entries of a zip archive as Python's zipfile reads them (CRCs checked): an independent reader. */
export function unzipWithPython (zip: Uint8Array): UnzippedEntry[] {
  const r = spawnSync('python3', ['-c', SCRIPT], { input: zip, encoding: 'buffer', maxBuffer: 1 << 28 })
  if (r.status !== 0) throw new Error(`python3 zipfile failed: ${r.stderr.toString()}`)
  const rows = JSON.parse(r.stdout.toString()) as (Omit<UnzippedEntry, 'data'> & { data: string })[]
  return rows.map(e => ({ ...e, data: Buffer.from(e.data, 'base64') }))
}
