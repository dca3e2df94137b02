import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { after, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { parseName } from '../../src/zone/name.ts'
import type { ZoneProblem, ZoneRecord } from '../../src/zone/record.ts'
import { LOC } from '../../src/zone/rdata/loc.ts'
import { PROBLEMS } from '../../src/zonefile/problems.ts'
import { parseZoneFile, parseZoneStream, parseZoneText, ZoneFileParser, type ZoneFileOptions } from '../../src/zonefile/parser.ts'
import { recordLine } from './helpers.ts'

const origin = parseName('example.org.')
const opts: ZoneFileOptions = { origin, includes: 'refuse' }

/** Records as dump lines and problems as `line CODE`. */
function parse (text: string, o: Partial<ZoneFileOptions> = {}): { records: string[], problems: string[] } {
  const r = parseZoneText(text, { ...opts, ...o })
  return { records: r.records.map(recordLine), problems: r.problems.map(p => `${p.line} ${p.code}`) }
}

describe('ZoneFileParser', () => {
  describe('TTLs without $TTL (checked with BIND 9.18)', () => {
    it('uses the last TTL given (RFC 1035), warning once', () => {
      const r = parse('a 60 A 192.0.2.1\nb A 192.0.2.2\nc A 192.0.2.3\n')
      assert.deepEqual(r.records.map(l => l.split(' ')[1]), ['60', '60', '60'])
      assert.deepEqual(r.problems, ['2 ZONEFILE_TTL_FROM_PREVIOUS'])
    })

    it('gives an SOA without TTL the last TTL given, when there is one', () => {
      const r = parse('x 99 A 192.0.2.1\n@ SOA ns hm 1 2 3 4 500\n@ NS ns.example.net.\n')
      assert.deepEqual(r.records.map(l => l.split(' ')[1]), ['99', '99', '99'])
      assert.deepEqual(r.problems, ['2 ZONEFILE_TTL_FROM_PREVIOUS'])
    })

    it('reports a record with no TTL to use, and skips it', () => {
      const r = parse('x A 192.0.2.1\n@ 5 SOA ns hm 1 2 3 4 500\n@ NS ns.example.net.\n')
      assert.deepEqual(r.records.map(l => l.split(' ')[1]), ['5', '5'])
      assert.deepEqual(r.problems, ['1 ZONEFILE_NO_TTL', '3 ZONEFILE_TTL_FROM_PREVIOUS'])
    })

    it('takes defaultTtl as if the file began with $TTL', () => {
      const r = parse('a A 192.0.2.1\n$TTL 7\nb A 192.0.2.2\n', { defaultTtl: 42 })
      assert.deepEqual(r.records.map(l => l.split(' ')[1]), ['42', '7'])
      assert.deepEqual(r.problems, [])
    })
  })

  it('reports problems with code, severity, table message, file and line', () => {
    const problems: ZoneProblem[] = []
    const parser = new ZoneFileParser({ ...opts, file: 'zones/x.zone' }, () => {}, (p) => problems.push(p))
    parser.push('$TTL 60\n@ SOA ns hm 1 2 3 4 5\nwww A 300.1.1.1\n')
    parser.end()
    assert.deepEqual(problems, [{
      code: 'ZONEFILE_BAD_RDATA',
      severity: 'error',
      message: 'bad rdata: A: address must be an IPv4 address, got "300.1.1.1"',
      file: 'zones/x.zone',
      line: 3
    }])
    assert.equal(parser.recordCount, 1)
  })

  it('has a message and a severity for every code, and codes named ZONEFILE_*', () => {
    for (const [code, entry] of Object.entries(PROBLEMS)) {
      assert.match(code, /^ZONEFILE_[A-Z_]+$/)
      assert.ok(entry.message.length > 0)
      assert.ok(entry.severity === 'error' || entry.severity === 'warning')
    }
  })

  it('gives each record its line', () => {
    const r = parseZoneText('$TTL 60\n\n@ SOA ns hm (\n1 2 3 4 5 )\nwww A 192.0.2.1\n', opts)
    assert.deepEqual(r.records.map(x => x.line), [3, 5])
  })

  it('stops at maxRecords with one problem', () => {
    const text = '$TTL 60\n' + Array.from({ length: 10 }, (_, i) => `h${i} A 192.0.2.${i}\n`).join('')
    const r = parse(text, { maxRecords: 4 })
    assert.equal(r.records.length, 4)
    assert.deepEqual(r.problems, ['6 ZONEFILE_TOO_MANY_RECORDS'])
    const g = parse('$TTL 60\n$GENERATE 1-100 h$ A 192.0.2.$\n', { maxRecords: 10 })
    assert.equal(g.records.length, 10)
    assert.deepEqual(g.problems, ['2 ZONEFILE_TOO_MANY_RECORDS'])
  })

  it('refuses a $GENERATE line that would take the file over maxGenerated, before expanding it', () => {
    const text = '$TTL 60\n$GENERATE 1-6 a$ A 192.0.2.$\n$GENERATE 1-5 b$ A 192.0.2.$\n$GENERATE 1-4 c$ A 192.0.2.$\n'
    const r = parseZoneText(text, { ...opts, maxGenerated: 10 })
    assert.deepEqual(r.records.map(x => x.line), [2, 2, 2, 2, 2, 2, 4, 4, 4, 4])
    assert.deepEqual(r.problems.map(p => `${p.line} ${p.code} ${p.message}`), [
      '3 ZONEFILE_BAD_GENERATE bad $GENERATE: range "1-5" would bring the records made by $GENERATE to 11, over the limit of 10 per file'
    ])
    // The default is 65,536 for all the lines of a file together, not for each line.
    const d = parse('$TTL 60\n$GENERATE 1-65536 a$ A 192.0.2.1\n$GENERATE 1-1 b$ A 192.0.2.1\n')
    assert.deepEqual(d.problems, ['3 ZONEFILE_BAD_GENERATE'])
    assert.equal(d.records.length, 65536)
  })

  it('stops at maxProblems with one problem', () => {
    const r = parse('bad\n'.repeat(50), { maxProblems: 5 })
    assert.equal(r.problems.length, 6)
    assert.equal(r.problems.at(-1), '6 ZONEFILE_TOO_MANY_PROBLEMS')
  })

  it('drops a leading byte-order mark', () => {
    assert.deepEqual(parse('\ufeffwww 60 A 192.0.2.1\n').records, ['www.example.org. 60 IN A 192.0.2.1'])
  })

  it('shares the owner array between a record and the blank-owner records after it', () => {
    const r = parseZoneText('www 60 A 192.0.2.1\n  60 A 192.0.2.2\n', opts)
    assert.equal(r.records[0]!.owner, r.records[1]!.owner)
  })

  it('reports anything a type module throws as bad rdata, and goes on', (t) => {
    t.mock.method(LOC as Required<typeof LOC>, 'parse', () => { throw new TypeError('oops') })
    const r = parseZoneText('a 60 LOC x\nb 60 A 192.0.2.1\n', opts)
    assert.equal(r.records.length, 1)
    assert.equal(r.problems[0]!.code, 'ZONEFILE_BAD_RDATA')
    assert.match(r.problems[0]!.message, /internal error in the LOC parser: TypeError: oops/)
  })

  it('never imports from api/, store/ or tasks/ (STYLE.md §1)', () => {
    const dir = fileURLToPath(new URL('../../src/zonefile/', import.meta.url))
    for (const f of readdirSync(dir).filter(n => n.endsWith('.ts'))) {
      const src = readFileSync(join(dir, f), 'utf8')
      assert.doesNotMatch(src, /from '\.\.\/(api|store|tasks)\//, f)
    }
  })
})

describe('parseZoneStream', () => {
  it('decodes UTF-8 split across byte chunks', async () => {
    const bytes = Buffer.from('t 60 TXT "café ☃"\n', 'utf8')
    const chunks = Array.from(bytes, (b) => Uint8Array.of(b))
    const records: ZoneRecord[] = []
    const problems: ZoneProblem[] = []
    await parseZoneStream(Readable.from(chunks), opts, (r) => records.push(r), (p) => problems.push(p))
    assert.deepEqual(records.map(recordLine), ['t.example.org. 60 IN TXT "caf\\195\\169 \\226\\152\\131"'])
    assert.deepEqual(problems, [])
  })

  it('takes string chunks', async () => {
    const records: ZoneRecord[] = []
    await parseZoneStream(Readable.from(['www 60 A 19', '2.0.2.1\nx 60 A 192.0.2.2']), opts, (r) => records.push(r), () => {})
    assert.deepEqual(records.map(recordLine), ['www.example.org. 60 IN A 192.0.2.1', 'x.example.org. 60 IN A 192.0.2.2'])
  })
})

describe('$INCLUDE on disk', () => {
  const root = mkdtempSync(join(tmpdir(), 'zonal-include-'))
  const outside = mkdtempSync(join(tmpdir(), 'zonal-outside-'))
  after(() => {
    rmSync(root, { recursive: true, force: true })
    rmSync(outside, { recursive: true, force: true })
  })
  mkdirSync(join(root, 'zones', 'parts'), { recursive: true })
  writeFileSync(join(outside, 'secret.zone'), 'secret 60 A 192.0.2.99\n')
  writeFileSync(join(root, 'zones', 'parts', 'a.inc'), 'a 60 A 192.0.2.1\n$INCLUDE b.inc\n')
  writeFileSync(join(root, 'zones', 'parts', 'b.inc'), 'b 60 A 192.0.2.2\n')
  writeFileSync(join(root, 'zones', 'main.zone'), '$INCLUDE parts/a.inc\n')
  writeFileSync(join(root, 'zones', 'self.zone'), 'x 60 A 192.0.2.3\n$INCLUDE self.zone\n')
  symlinkSync(join(outside, 'secret.zone'), join(root, 'zones', 'link.inc'))
  symlinkSync(join(root, 'zones', 'parts', 'b.inc'), join(root, 'zones', 'inner-link.inc'))
  const includes = { root }

  it('resolves names from the including file\'s folder, level by level', async () => {
    const r = await parseZoneFile(join(root, 'zones', 'main.zone'), { origin, includes })
    assert.deepEqual(r.records.map(recordLine), ['a.example.org. 60 IN A 192.0.2.1', 'b.example.org. 60 IN A 192.0.2.2'])
    assert.deepEqual(r.problems, [])
  })

  it('resolves names from the root for text that is not a file', () => {
    const r = parseZoneText('$INCLUDE zones/parts/b.inc\n', { origin, includes })
    assert.deepEqual(r.records.map(recordLine), ['b.example.org. 60 IN A 192.0.2.2'])
  })

  it('refuses a symbolic link that leads outside the root, and follows one inside it', () => {
    const file = join(root, 'zones', 'x.zone')
    const r = parseZoneText('$INCLUDE link.inc\n$INCLUDE inner-link.inc\n', { origin, includes, file })
    assert.deepEqual(r.records.map(recordLine), ['b.example.org. 60 IN A 192.0.2.2'])
    assert.deepEqual(r.problems.map(p => `${p.line} ${p.code}`), ['1 ZONEFILE_INCLUDE_OUTSIDE_ROOT'])
    assert.ok(!JSON.stringify(r.problems).includes('secret'), 'nothing of the target is revealed')
  })

  it('detects a file that includes itself', async () => {
    const file = join(root, 'zones', 'self.zone')
    const r = await parseZoneFile(file, { origin, includes })
    assert.equal(r.records.length, 1)
    assert.deepEqual(r.problems.map(p => `${p.file}:${p.line} ${p.code}`), [`${file}:2 ZONEFILE_INCLUDE_LOOP`])
  })

  it('reports a missing root as a missing file', () => {
    const r = parseZoneText('$INCLUDE a.inc\n', { origin, includes: { root: join(root, 'nope') } })
    assert.deepEqual(r.problems.map(p => p.code), ['ZONEFILE_INCLUDE_NOT_FOUND'])
  })

  it('rejects when the zone file itself cannot be read', async () => {
    await assert.rejects(parseZoneFile(join(root, 'missing.zone'), { origin, includes }), { code: 'ENOENT' })
  })
})
