import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { nameEquals, parseName } from '../../src/zone/name.ts'
import { sortRecords } from '../../src/zone/checks/sort.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import { writeZone, zoneHeader, ZoneTextWriter } from '../../src/zonefile/writer.ts'

const origin = parseName('example.org.')
const createdAt = new Date('2026-01-02T03:04:05.000Z')

const SOURCE = `$ORIGIN example.org.
$TTL 3600
zz        IN A     192.0.2.9
@         IN NS    ns2.example.net.
www       IN A     192.0.2.81
@         IN SOA   ns1 hostmaster 2024010101 3600 900 604800 300
@         IN MX    10 mail
@         IN NS    ns1
pool      IN A     192.0.2.1
pool      IN A     192.0.2.2
other.example.net. IN A 192.0.2.3
`

describe('ZoneTextWriter', () => {
  const records = sortRecords(parseZoneText(SOURCE, { origin, includes: 'refuse' }).records).records
  const poolComment = (owner: Uint8Array, type: number) =>
    type === 1 && nameEquals(owner, parseName('pool.example.org.')) ? 'RDPool: pool.example.org.' : undefined
  const whole = writeZone(records, { origin, createdAt, sorted: true, poolComment })

  it('writes the same text as writeZone for records pushed a page at a time, whatever the page size', () => {
    for (let size = 1; size <= records.length; size++) {
      const writer = new ZoneTextWriter({ origin, poolComment })
      let body = ''
      for (let i = 0; i < records.length; i += size) body += writer.push(records.slice(i, i + size))
      body += writer.end()
      assert.equal(zoneHeader(origin, createdAt, writer.count) + body, whole, `page size ${size}`)
    }
  })

  it('writes a zone that ends at its apex on end()', () => {
    const apexOnly = records.filter(r => nameEquals(r.owner, origin))
    const writer = new ZoneTextWriter({ origin })
    assert.equal(writer.push(apexOnly), '')
    const text = zoneHeader(origin, createdAt, writer.count) + writer.end()
    assert.equal(text, writeZone(apexOnly, { origin, createdAt, sorted: true }))
    assert.match(text, /^; Zone example\.org\.\n; Created 2026-01-02T03:04:05\.000Z\n; Records 4\n\$ORIGIN example\.org\.\n@\t3600\tIN\tSOA\t/)
  })
})
