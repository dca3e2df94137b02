import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { createZip } from '../../src/tasks/zip.ts'
import { unzipWithPython } from '../helpers/zip.ts'

const haveUnzip = spawnSync('unzip', ['-v']).status === 0
const dir = mkdtempSync(join(tmpdir(), 'zonal-zip-'))
after(() => rmSync(dir, { recursive: true, force: true }))

const entries = [
  { name: 'example.org.zone', data: Buffer.from('$ORIGIN example.org.\n' + '@ 3600 IN A 192.0.2.1\n'.repeat(200)) },
  { name: '0_24.2.0.192.in-addr.arpa.zone', data: Buffer.from('x') },
  { name: 'empty.zone', data: new Uint8Array(0) },
  { name: 'bücher.zone', data: Buffer.from([0, 1, 2, 255]) }
]

describe('createZip', () => {
  it('writes an archive Python\'s zipfile reads back entry for entry, deflated when smaller', () => {
    const zip = createZip(entries, { modified: new Date('2026-03-04T05:06:08Z') })
    const read = unzipWithPython(zip)
    assert.deepEqual(read.map(e => e.name), entries.map(e => e.name))
    for (const [i, e] of read.entries()) assert.deepEqual(e.data, Buffer.from(entries[i]!.data), e.name)
    assert.equal(read[0]!.compressType, 8)
    assert.equal(read[1]!.compressType, 0)
    assert.deepEqual(read[0]!.dateTime, [2026, 3, 4, 5, 6, 8])
  })

  it('stores every entry when compression is off', () => {
    const read = unzipWithPython(createZip(entries, { compress: false }))
    assert.ok(read.every(e => e.compressType === 0))
    assert.deepEqual(read[0]!.data, entries[0]!.data)
  })

  it('writes an empty archive', () => {
    assert.deepEqual(unzipWithPython(createZip([])), [])
  })

  it('passes unzip -t', { skip: haveUnzip ? false : 'unzip is not installed' }, () => {
    const path = join(dir, 'test.zip')
    writeFileSync(path, createZip(entries))
    const r = spawnSync('unzip', ['-t', path], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /No errors detected/)
  })

  it('refuses an empty name', () => {
    assert.throws(() => createZip([{ name: '', data: new Uint8Array(1) }]), RangeError)
  })
})
