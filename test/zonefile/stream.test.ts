// Streaming in bounded memory: a generated 200,000-record zone read through parseZoneStream from
// a Readable, records counted and not kept. No timing assertions (machines differ).
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { describe, it } from 'node:test'
import { parseName } from '../../src/zone/name.ts'
import { parseZoneStream } from '../../src/zonefile/parser.ts'

const RECORDS = 200_000

/** The zone, produced lazily in chunks of about 64 KiB: it never exists whole. */
function * zoneText (): Generator<string> {
  yield '$ORIGIN example.org.\n$TTL 3600\n@ IN SOA ns1.example.net. hostmaster 1 7200 3600 1209600 300\n  IN NS ns1.example.net.\n'
  let chunk = ''
  for (let i = 2; i < RECORDS; i++) {
    switch (i % 5) {
      case 0: chunk += `h${i} IN A 192.0.${(i >> 8) & 255}.${i & 255}\n`; break
      case 1: chunk += `h${i} 300 IN AAAA 2001:db8::${(i & 0xffff).toString(16)}\n`; break
      case 2: chunk += `h${i} IN MX 10 mx${i % 10}\n`; break
      case 3: chunk += `h${i} IN TXT "v=spf1 -all" "id ${i}"\n`; break
      default: chunk += `  IN CNAME ( www${i}.example.net. ) ; comment\n`
    }
    if (chunk.length > 65536) {
      yield chunk
      chunk = ''
    }
  }
  yield chunk
}

describe('parseZoneStream on a large zone', () => {
  it(`parses ${RECORDS} records from a Readable with bounded heap growth`, async () => {
    const before = process.memoryUsage().heapUsed
    let peak = before
    let count = 0
    let problems = 0
    await parseZoneStream(Readable.from(zoneText()), { origin: parseName('example.org.'), includes: 'refuse' }, () => {
      if (++count % 10000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed)
    }, () => { problems++ })
    assert.equal(count, RECORDS)
    assert.equal(problems, 0)
    const growth = peak - before
    assert.ok(growth < 64 * 1024 * 1024, `heap grew by ${(growth / 1048576).toFixed(1)} MiB`)
  })

  it('parses UTF-8 bytes from a Readable of Buffers the same as text', async () => {
    const text = [...zoneText()].join('').slice(0, 200_000)
    const bytes = Buffer.from(text, 'utf8')
    const chunks: Buffer[] = []
    for (let i = 0; i < bytes.length; i += 1000) chunks.push(bytes.subarray(i, i + 1000))
    const fromBytes: string[] = []
    const fromText: string[] = []
    const opts = { origin: parseName('example.org.'), includes: 'refuse' as const }
    await parseZoneStream(Readable.from(chunks), opts, (r) => fromBytes.push(`${r.line} ${r.type} ${Buffer.from(r.rdata).toString('hex')}`), () => {})
    await parseZoneStream(Readable.from([text]), opts, (r) => fromText.push(`${r.line} ${r.type} ${Buffer.from(r.rdata).toString('hex')}`), () => {})
    assert.ok(fromText.length > 1000)
    assert.deepEqual(fromBytes, fromText)
  })
})
