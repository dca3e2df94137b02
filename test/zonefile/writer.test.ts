import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseName } from '../../src/zone/name.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import { writeZone, writeZoneChunks } from '../../src/zonefile/writer.ts'

const origin = parseName('example.org.')
const createdAt = new Date('2026-01-02T03:04:05.000Z')

const SOURCE = `$ORIGIN example.org.
$TTL 3600
zz        IN A     192.0.2.9
@         IN NS    ns2.example.net.
www       IN A     192.0.2.81
WWW       IN A     192.0.2.80
@         IN SOA   ns1 hostmaster 2024010101 3600 900 604800 300
a.b       IN TXT   "two" "strings"
@         IN MX    10 mail
@         IN NS    ns1
ns1       IN A     192.0.2.53
\\001.z    IN A     192.0.2.1
*.z       IN A     192.0.2.2
z         IN AAAA  2001:db8::1
other.example.net. IN A 192.0.2.3
`

describe('zone file writer', () => {
  const records = parseZoneText(SOURCE, { origin, includes: 'refuse' }).records

  it('writes the header, $ORIGIN, SOA, apex NS, then records in canonical order', () => {
    assert.equal(writeZone(records, { origin, createdAt }), [
      '; Zone example.org.',
      '; Created 2026-01-02T03:04:05.000Z',
      '; Records 13',
      '$ORIGIN example.org.',
      '@\t3600\tIN\tSOA\tns1.example.org. hostmaster.example.org. 2024010101 3600 900 604800 300',
      '@\t3600\tIN\tNS\tns1.example.org.',
      '@\t3600\tIN\tNS\tns2.example.net.',
      // Canonical order is by name from the right: example.net. sorts before example.org.
      'other.example.net.\t3600\tIN\tA\t192.0.2.3',
      '@\t3600\tIN\tMX\t10 mail.example.org.',
      'a.b\t3600\tIN\tTXT\t"two" "strings"',
      'ns1\t3600\tIN\tA\t192.0.2.53',
      'WWW\t3600\tIN\tA\t192.0.2.80',
      'WWW\t3600\tIN\tA\t192.0.2.81',
      'z\t3600\tIN\tAAAA\t2001:db8::1',
      '\\001.z\t3600\tIN\tA\t192.0.2.1',
      '*.z\t3600\tIN\tA\t192.0.2.2',
      'zz\t3600\tIN\tA\t192.0.2.9',
      ''
    ].join('\n'))
  })

  it('gives identical text when its output is parsed and written again', () => {
    const first = writeZone(records, { origin, createdAt })
    const again = parseZoneText(first, { origin, includes: 'refuse' })
    assert.deepEqual(again.problems, [])
    assert.equal(writeZone(again.records, { origin, createdAt }), first)
  })

  it('writes a pool comment before the rrset that belongs to a pool', () => {
    const text = writeZone(records, {
      origin,
      createdAt,
      poolComment: (owner, type) => type === 1 && (owner[1] === 0x77 || owner[1] === 0x57) ? 'RD pool (order ROUND_ROBIN)' : undefined
    })
    assert.match(text, /\n; RD pool \(order ROUND_ROBIN\)\nWWW\t3600\tIN\tA\t192\.0\.2\.80\nWWW\t3600\tIN\tA\t192\.0\.2\.81\n/)
    assert.equal(text.match(/; RD pool/g)?.length, 1)
  })

  it('yields the same text in chunks', () => {
    assert.equal([...writeZoneChunks(records, { origin, createdAt, chunkLines: 3 })].join(''), writeZone(records, { origin, createdAt }))
  })
})
