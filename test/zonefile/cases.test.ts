// Golden files (STYLE.md §5, as Knot's tests/libzscanner): each cases/NN_topic.zone is parsed and
// its canonical dump compared with cases/NN_topic.expected. UPDATE_GOLDEN=1 rewrites the
// .expected files; review the diff by hand, they must be right, not just what the code prints.
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { parseZoneFile } from '../../src/zonefile/parser.ts'
import { CASES, caseNames, caseOptions, dump, sections } from './helpers.ts'

const update = process.env.UPDATE_GOLDEN === '1'

describe('zone-file golden cases', () => {
  const names = caseNames()

  it('has the topics of STYLE.md §5', () => {
    for (const topic of ['01_basic', '02_origin', '03_ttl', '04_owner', '05_quotes-escapes', '06_parentheses',
      '07_comments-whitespace', '08_types', '09_generate', '10_include', '11_errors', '12_reference']) {
      assert.ok(names.includes(topic), topic)
    }
  })

  for (const name of names) {
    it(name, async () => {
      const opts = caseOptions(name)
      const file = opts.file!
      const { records, problems } = await parseZoneFile(file, opts)
      const actual = dump(file, records, problems)
      const expectedFile = join(CASES, `${name}.expected`)
      if (update) writeFileSync(expectedFile, actual)
      assert.ok(existsSync(expectedFile), `${name}.expected is missing (run with UPDATE_GOLDEN=1, then review it)`)
      assert.equal(actual, readFileSync(expectedFile, 'utf8'))

      // Errors belong in KO sections; OK sections may only warn.
      const section = sections(readFileSync(file, 'utf8'))
      for (const p of problems) {
        if (p.severity === 'error' && p.file === file) assert.notEqual(section[p.line!], 'OK', `error in an OK section: ${JSON.stringify(p)}`)
      }
    })
  }

  it('comments every line of every case (Knot style), the reference fixture excepted', () => {
    for (const name of names.filter(n => n !== '12_reference')) {
      const lines = readFileSync(join(CASES, `${name}.zone`), 'utf8').split(/\r?\n/)
      lines.forEach((line, i) => {
        if (line.trim() === '' || line.endsWith('\\')) return
        assert.ok(line.includes(';'), `${name}.zone:${i + 1} has no comment`)
      })
    }
  })
})
