import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { CHECKS, checkZone, normalizeZone } from '../../../src/zone/checks/index.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { formatRdata } from '../../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'

const dir = new URL('./fixtures/', import.meta.url)
const origin = parseName('example.org.')

function load (file: string) {
  const text = readFileSync(new URL(file, dir), 'utf8')
  const parsed = parseZoneText(text, { origin, file, includes: 'refuse' })
  assert.deepEqual(parsed.problems, [], `${file} must parse cleanly`)
  const expect = /^; expect: (.*)$/m.exec(text)![1]!.trim()
  const messages = [...text.matchAll(/^; message: (.*)$/gm)].map(m => m[1]!).sort()
  return { records: parsed.records, expected: expect === '(none)' ? [] : expect.split(/\s+/).sort(), messages }
}

describe('zone checks', () => {
  // Fixture names state the defect and the verdict (STYLE.md §5): valid, warning or invalid.
  for (const file of readdirSync(dir).filter(f => f.endsWith('.zone')).sort()) {
    it(file, () => {
      const { records, expected, messages } = load(file)
      const problems = checkZone(records, origin)
      assert.deepEqual([...new Set(problems.map(p => p.code))].sort(), expected)
      // Golden messages (`; message:` lines): types are named by mnemonic, never by number.
      assert.deepEqual(problems.map(p => p.message).sort(), messages)
      const verdict = file.split('.').at(-2)
      const severities = new Set(problems.map(p => p.severity))
      if (verdict === 'valid') assert.equal(problems.length, 0)
      if (verdict === 'warning') assert.deepEqual([...severities], ['warning'])
      if (verdict === 'invalid') assert.ok(severities.has('error'))
      for (const p of problems) {
        assert.equal(p.severity, CHECKS[p.code as keyof typeof CHECKS].severity)
        assert.ok(p.owner !== undefined && p.message.startsWith(p.owner))
      }
    })
  }

  it('reports the line of the offending record', () => {
    const { records } = load('cname-with-other-data.invalid.zone')
    const [p] = checkZone(records, origin)
    assert.equal(p?.line, 10)
    assert.equal(p?.owner, 'www.example.org.')
  })

  it('normalises: the lowest TTL applies, duplicates are kept once, out-of-zone data is dropped', () => {
    const ttl = normalizeZone(load('ttl-mismatch.warning.zone').records, origin)
    assert.deepEqual(ttl.records.filter(r => nameToString(r.owner) === 'www.example.org.').map(r => [r.ttl, formatRdata(r.type, r.rdata)]), [[300, '192.0.2.80'], [300, '192.0.2.81']])
    const dup = normalizeZone(load('duplicate-record.warning.zone').records, origin)
    assert.equal(dup.records.filter(r => nameToString(r.owner) === 'www.example.org.').length, 1)
    const out = normalizeZone(load('out-of-zone.warning.zone').records, origin)
    assert.ok(!out.records.some(r => nameToString(r.owner) === 'host.example.com.'))
    assert.deepEqual(out.problems.map(p => p.code), ['ZONE_OUT_OF_ZONE'])
  })

  it('compares owners case-insensitively', () => {
    const { records } = load('complete.valid.zone')
    const upper = parseName('WWW.Example.ORG.')
    const cname = { owner: upper, type: 5, ttl: 300, rdata: parseName('x.example.net.') }
    assert.deepEqual(checkZone([...records, cname], origin).map(p => p.code), ['ZONE_CNAME_WITH_OTHER_DATA'])
  })
})
