// Differential test against BIND (libraries.md §3): the OK sections of every golden case, and the
// reference fixture, parsed by us and by `named-compilezone`, must give the same records.
// Compared as sets of (owner lower-cased, TTL, type, rdata text), the rdata of both sides
// written by our formatRdata (BIND's text is parsed back with parseRdata), so spelling
// differences do not count. Two things BIND does after parsing are done to our side too: it
// drops data outside the zone (a zone check for us) and gives an RRset one TTL, the smallest.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { isSubdomain, nameKey, ROOT } from '../../src/zone/name.ts'
import { formatRdata, parseRdata, parseTypeName, tokenize, typeName } from '../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import { CASES, caseNames, caseOptions, okText } from './helpers.ts'

interface Row {
  owner: string
  ttl: number
  type: number
  rdata: string
}

const probe = spawnSync('named-compilezone', ['-v'], { encoding: 'utf8' })
const available = probe.error === undefined
const skip = available ? false : 'named-compilezone is not on PATH (apt-get install bind9-utils)'
if (!available && process.env.CI === 'true') throw new Error('named-compilezone is required in CI: apt-get install -y bind9-utils')

/** Set each RRset's TTL to its smallest, as BIND does when it loads a zone; then dedupe and sort. */
function canonical (rows: Row[]): string[] {
  const min = new Map<string, number>()
  for (const r of rows) {
    const key = `${r.owner} ${r.type}`
    min.set(key, Math.min(min.get(key) ?? Infinity, r.ttl))
  }
  return [...new Set(rows.map(r => `${r.owner} ${min.get(`${r.owner} ${r.type}`)} ${typeName(r.type)} ${r.rdata}`))].sort()
}

function bindRows (text: string, origin: string, dir: string): Row[] {
  const file = join(dir, 'zone.db')
  writeFileSync(file, text)
  const res = spawnSync('named-compilezone', ['-o', '-', '-s', 'full', '-i', 'none', '-k', 'ignore', origin, file], { cwd: CASES, encoding: 'utf8' })
  assert.equal(res.status, 0, `BIND rejected the OK section:\n${res.stderr}${res.stdout}`)
  const rows: Row[] = []
  for (const line of res.stdout.split('\n')) {
    const m = /^(\S+)\s+(\d+)\s+IN\s+(\S+)\s+(.*)$/.exec(line)
    if (m === null) continue
    const type = parseTypeName(m[3]!)
    assert.ok(type !== undefined, `BIND type ${m[3]}`)
    const rdata = parseRdata(type, tokenize(m[4]!), { origin: ROOT })
    rows.push({ owner: m[1]!.toLowerCase(), ttl: Number(m[2]), type, rdata: formatRdata(type, rdata) })
  }
  return rows
}

describe('zone-file parser against BIND named-compilezone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zonal-bind-'))
  after(() => rmSync(dir, { recursive: true, force: true }))

  for (const name of caseNames()) {
    it(`${name} (OK sections)`, { skip }, () => {
      const opts = caseOptions(name)
      const text = okText(readFileSync(opts.file!, 'utf8'))
      const ours = parseZoneText(text, { ...opts, includes: { root: CASES } })
      assert.deepEqual(ours.problems.filter(p => p.severity === 'error'), [])
      const mine: Row[] = ours.records
        .filter(r => isSubdomain(r.owner, opts.origin))
        .map(r => ({ owner: nameKey(r.owner), ttl: r.ttl, type: r.type, rdata: formatRdata(r.type, r.rdata) }))
      const theirs = bindRows(text, nameKey(opts.origin), dir)
      assert.ok(theirs.length > 0)
      assert.deepEqual(canonical(mine), canonical(theirs))
    })
  }
})
