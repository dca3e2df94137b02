import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { countZoneFile } from '../../src/zonefile/count.ts'
import { parseName } from '../../src/zone/name.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'

describe('countZoneFile', () => {
  it('counts record entries and $GENERATE ranges without parsing them', () => {
    const text = '\ufeff$ORIGIN example.org.\n$TTL 60\n@ SOA ns hm ( 1 2\n 3 4 5 ) ; multi-line\n  NS ns ; blank owner\nns A 192.0.2.1\nq TXT "a ; b $x"\n' +
      '$GENERATE 1-10 h$ A 192.0.2.$\n$generate 0-255/2 p$ PTR h$\n$GENERATE bad h$ A 192.0.2.1\n; only a comment\n\n'
    assert.deepEqual(countZoneFile(text), { records: 4 + 10 + 128, generated: 138 })
    const parsed = parseZoneText(text, { origin: parseName('example.org.'), includes: 'refuse' })
    assert.equal(parsed.records.length, 4 + 10 + 128)
  })

  it('counts the finding\'s four lines as 262,144 records, at once', () => {
    const text = ['a', 'b', 'c', 'd'].map(p => `$GENERATE 1-65536 ${p}$ A 10.0.0.1\n`).join('')
    assert.deepEqual(countZoneFile(text), { records: 262144, generated: 262144 })
  })
})
