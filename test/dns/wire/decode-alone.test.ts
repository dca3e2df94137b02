import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { parseName } from '../../../src/zone/name.ts'
import { parseRdata, tokenize } from '../../../src/zone/rdata/index.ts'
import { RRType } from '../../../src/zone/rrtype.ts'

const origin = parseName('example.org.')
const hexOf = (type: number, text: string): string => Buffer.from(parseRdata(type, tokenize(text), { origin })).toString('hex')

describe('dns wire: decoding with nothing else loaded', () => {
  it('decompresses MX, NS and SOA rdata names when only the decoder is imported (the registry is complete on its own)', () => {
    const fixture = fileURLToPath(new URL('./fixtures/decode-alone.ts', import.meta.url))
    const out = execFileSync(process.execPath, [fixture], { encoding: 'utf8' })
    assert.deepEqual(JSON.parse(out), [
      [RRType.MX, hexOf(RRType.MX, '10 mail.example.org.')],
      [RRType.NS, hexOf(RRType.NS, 'ns1.example.org.')],
      [RRType.SOA, hexOf(RRType.SOA, 'ns1.example.org. hostmaster.example.org. 2024010101 7200 3600 1209600 300')]
    ])
  })
})
