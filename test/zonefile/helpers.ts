import { readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nameToString, parseName } from '../../src/zone/name.ts'
import type { ZoneProblem, ZoneRecord } from '../../src/zone/record.ts'
import { formatRdata, typeName } from '../../src/zone/rdata/index.ts'
import type { ZoneFileOptions } from '../../src/zonefile/parser.ts'
export { prng } from '../helpers/generated.ts'

/** The golden cases folder. */
export const CASES = join(dirname(fileURLToPath(import.meta.url)), 'cases')

/** Every golden case, by name without `.zone`, sorted. */
export function caseNames (): string[] {
  return readdirSync(CASES).filter(f => f.endsWith('.zone')).map(f => f.slice(0, -5)).sort()
}

/** Parse options of a case: origin example.org. and includes refused unless said otherwise. */
export function caseOptions (name: string): ZoneFileOptions {
  const file = join(CASES, `${name}.zone`)
  const origin = parseName(name === '12_reference' ? 'example.com.' : 'example.org.')
  const includes = name === '10_include' ? { root: CASES } : 'refuse' as const
  return { origin, file, includes }
}

/** One record in the canonical dump: `owner TTL IN TYPE rdata`. */
export function recordLine (r: ZoneRecord): string {
  return `${nameToString(r.owner)} ${r.ttl} IN ${typeName(r.type)} ${formatRdata(r.type, r.rdata)}`
}

/**
 * The canonical dump of a parse: one line per record, then one line per problem,
 * `PROBLEM line CODE` (with `file:line` for problems in other files, relative to the cases folder).
 */
export function dump (mainFile: string, records: readonly ZoneRecord[], problems: readonly ZoneProblem[]): string {
  const lines = records.map(recordLine)
  for (const p of problems) {
    const where = p.file === undefined || p.file === mainFile ? `${p.line}` : `${relative(CASES, p.file)}:${p.line}`
    lines.push(`PROBLEM ${where} ${p.code}`)
  }
  return lines.join('\n') + '\n'
}

/**
 * The section (`OK`, `KO`, or `''` before the first marker) of each 1-based line of a case file.
 * A section starts at a line `; OK` or `; KO` and runs to the next one. A file without markers
 * (the reference fixture) is all OK.
 */
export function sections (text: string): string[] {
  const out = ['']
  let current = /^; (OK|KO)\s*$/m.test(text) ? '' : 'OK'
  for (const line of text.split(/\r?\n/)) {
    const m = /^; (OK|KO)\s*$/.exec(line)
    if (m !== null) current = m[1]!
    out.push(current)
  }
  return out
}

/**
 * The text of the OK sections only, other lines blanked (so line numbers are kept), and lines
 * marked `BIND-DIFFERS` (a deliberate difference from BIND) blanked too: what BIND must accept.
 */
export function okText (text: string): string {
  const section = sections(text)
  return text.split('\n').map((line, i) => section[i + 1] === 'OK' && !line.includes('BIND-DIFFERS') ? line : '').join('\n')
}
