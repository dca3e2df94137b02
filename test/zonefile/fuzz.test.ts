// Fuzz-style tests (STYLE.md §7, Knot tests-fuzz, CoreDNS plugin/file/fuzz.go): seeded random
// and mutated zone text must never make the parser throw or hang, only report problems; and
// the same text fed in chunks of any size must give exactly the same records and problems.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import type { ZoneProblem, ZoneRecord } from '../../src/zone/record.ts'
import { PROBLEMS } from '../../src/zonefile/problems.ts'
import { parseZoneText, ZoneFileParser, type ZoneFileOptions } from '../../src/zonefile/parser.ts'
import { CASES, caseNames, caseOptions, prng, recordLine } from './helpers.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20240101)
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 40)
/** Generous per input (a slow CI machine); inputs are a few KiB. */
const TIME_LIMIT_MS = 2000

// eslint-disable-next-line no-template-curly-in-string -- a BIND $GENERATE modifier
const SPECIAL = ['"', '(', ')', '\\', ';', '\n', '\r\n', ' ', '\t', '$', '@', '.', '*', '\\#', '$INCLUDE ', '$GENERATE 1-9 ', '$ORIGIN ', '$TTL ', '${0,3,n}', '\\0', '\ufeff', '\u0000', 'é', '\ud83d\ude00', '\ud800']

function mutate (text: string, rnd: () => number): string {
  let s = text
  const ops = 1 + Math.floor(rnd() * 8)
  for (let k = 0; k < ops; k++) {
    const at = Math.floor(rnd() * (s.length + 1))
    switch (Math.floor(rnd() * 6)) {
      case 0: s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rnd() * 20)); break
      case 1: s = s.slice(0, at) + SPECIAL[Math.floor(rnd() * SPECIAL.length)] + s.slice(at); break
      case 2: s = s.slice(0, at) + String.fromCharCode(Math.floor(rnd() * 256)) + s.slice(at); break
      case 3: {
        const len = Math.floor(rnd() * 40)
        s = s.slice(0, at) + s.slice(at, at + len) + s.slice(at)
        break
      }
      case 4: {
        const from = Math.floor(rnd() * s.length)
        s = s.slice(0, at) + s.slice(from, from + Math.floor(rnd() * 60)) + s.slice(at)
        break
      }
      default: s = s.slice(0, at) + s[at]?.toUpperCase() + s.slice(at + 1)
    }
  }
  return s
}

function randomText (rnd: () => number): string {
  let s = ''
  const len = Math.floor(rnd() * 2000)
  for (let i = 0; i < len; i++) s += rnd() < 0.3 ? SPECIAL[Math.floor(rnd() * SPECIAL.length)] : String.fromCharCode(Math.floor(rnd() * 256))
  return s
}

/** Parse and check the invariants; returns the dump for comparisons. */
function check (text: string, opts: ZoneFileOptions, label: string): void {
  const start = performance.now()
  let result
  try {
    result = parseZoneText(text, opts)
  } catch (err) {
    assert.fail(`${label}: threw ${String(err)}\n--- input ---\n${JSON.stringify(text)}`)
  }
  const ms = performance.now() - start
  assert.ok(ms < TIME_LIMIT_MS, `${label}: took ${ms.toFixed(0)} ms`)
  for (const p of result.problems) {
    assert.ok(p.code in PROBLEMS, `${label}: unknown code ${p.code}`)
    assert.ok(p.line !== undefined && p.line >= 1, `${label}: no line in ${JSON.stringify(p)}`)
    assert.doesNotMatch(p.message, /internal error/, `${label}: ${p.message}\n--- input ---\n${JSON.stringify(text)}`)
  }
  for (const r of result.records) recordLine(r)
}

function inChunks (text: string, size: number, opts: ZoneFileOptions): { records: string[], problems: ZoneProblem[] } {
  const records: ZoneRecord[] = []
  const problems: ZoneProblem[] = []
  const parser = new ZoneFileParser(opts, (r) => records.push(r), (p) => problems.push(p))
  for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size))
  parser.end()
  return { records: records.map(r => `${r.line} ${recordLine(r)}`), problems }
}

const inputs = caseNames().map(name => ({ name, text: readFileSync(join(CASES, `${name}.zone`), 'utf8'), opts: caseOptions(name) }))
for (const f of readdirSync(join(CASES, '10_include'))) {
  inputs.push({ name: `10_include/${f}`, text: readFileSync(join(CASES, '10_include', f), 'utf8'), opts: caseOptions('10_include') })
}

describe(`zone-file fuzz (seed ${SEED}, FUZZ_SEED and FUZZ_ROUNDS to change)`, () => {
  it('survives mutated case files', () => {
    const rnd = prng(SEED)
    for (const input of inputs) {
      for (let round = 0; round < ROUNDS; round++) check(mutate(input.text, rnd), input.opts, `${input.name} round ${round}`)
    }
  })

  it('survives random text', () => {
    const rnd = prng(SEED + 1)
    for (let round = 0; round < 200; round++) check(randomText(rnd), caseOptions('01_basic'), `random round ${round}`)
  })

  it('gives the same records and problems in chunks of 1, 7 and 4096 characters as in one', () => {
    const rnd = prng(SEED + 2)
    for (const input of inputs) {
      const texts = [input.text, mutate(input.text, rnd), mutate(input.text, rnd), randomText(rnd)]
      for (const text of texts) {
        const whole = inChunks(text, Infinity, input.opts)
        for (const size of [1, 7, 4096]) assert.deepEqual(inChunks(text, size, input.opts), whole, `${input.name} in chunks of ${size}`)
      }
    }
  })
})
