import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isZonalError } from '../../src/errors/catalog.ts'
import { parseName } from '../../src/zone/name.ts'
import { toStoredRrsets } from '../../src/zones/records.ts'
import { unpackRrsets } from '../../src/zones/packed-rrsets.ts'
import { packUpload, packUploadOffThread, uploadedRecords } from '../../src/zones/upload-records.ts'

const ZONE = `$TTL 300
@ IN SOA ns1 hostmaster 2024010101 3600 900 604800 300
@ IN NS ns1
ns1 IN A 192.0.2.1
www IN A 192.0.2.80
www IN A 192.0.2.81
www IN A 192.0.2.80
txt IN TXT "v=spf1 -all" "é"
Mixed.Case IN AAAA 2001:db8::1
`

describe('packUpload', () => {
  it('packs the rrsets uploadedRecords and toStoredRrsets give, with the SOA serial and the record count', () => {
    const expected = toStoredRrsets(uploadedRecords(ZONE, parseName('example.org.')))
    const packed = packUpload(ZONE, 'example.org.')
    assert.equal(packed.serial, 2024010101)
    assert.equal(packed.recordCount, 7) // the duplicate www A kept once
    assert.equal(packed.rrsetCount, expected.length)
    const chunks = [...unpackRrsets(packed.bytes, 2)]
    assert.deepEqual(chunks.map(c => c.length), [2, 2, 2])
    const got = chunks.flat().map(r => ({ ...r, rdata: r.rdata.map(b => [...b]) }))
    assert.deepEqual(got, expected.map(r => ({ ...r, rdata: r.rdata.map(b => [...b]) })))
  })

  it('runs in a worker thread and fails there as it does here: ZONE_FILE_INVALID with every problem by line', async () => {
    const bad = `${ZONE}bad IN A 300.1.1.1\nworse 99999999999 IN A 192.0.2.9\n`
    let here: unknown
    try {
      uploadedRecords(bad, parseName('example.org.'))
    } catch (err) {
      here = err
    }
    assert.ok(isZonalError(here, 'ZONE_FILE_INVALID'))
    const there = await packUploadOffThread(bad, 'example.org.').then(() => undefined, (err: unknown) => err)
    assert.ok(isZonalError(there, 'ZONE_FILE_INVALID'))
    assert.equal(there.message, here.message)
    assert.deepEqual(there.details, here.details)
    assert.equal(there.details?.length, 2)
    const packed = await packUploadOffThread(ZONE, 'example.org.')
    assert.deepEqual(packed, packUpload(ZONE, 'example.org.'))
  })
})
