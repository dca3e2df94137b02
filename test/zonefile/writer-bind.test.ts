import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { normalizeZone } from '../../src/zone/checks/index.ts'
import { parseName } from '../../src/zone/name.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import { writeZone } from '../../src/zonefile/writer.ts'

const haveBind = spawnSync('named-checkzone', ['-v']).status === 0
const skip = haveBind ? false : (process.env.CI === 'true' ? false : 'named-checkzone is not installed (bind9-utils)')
if (!haveBind && process.env.CI === 'true') throw new Error('CI requires named-checkzone (bind9-utils)')

/** Valid zones to write: the zone-check fixtures that BIND accepts too. */
const fixtures = new URL('../zone/checks/fixtures/', import.meta.url)

describe('zone file writer against BIND', { skip }, () => {
  let dir: string
  before(() => { dir = mkdtempSync(join(tmpdir(), 'zonal-writer-')) })
  after(() => rmSync(dir, { recursive: true, force: true }))

  for (const file of readdirSync(fixtures).filter(f => /\.(valid|warning)\.zone$/.test(f)).sort()) {
    it(`every file we write passes named-checkzone: ${file}`, () => {
      const origin = parseName('example.org.')
      const parsed = parseZoneText(readFileSync(new URL(file, fixtures), 'utf8'), { origin, includes: 'refuse' })
      const { records } = normalizeZone(parsed.records, origin)
      const out = join(dir, file)
      writeFileSync(out, writeZone(records, { origin, createdAt: new Date() }))
      const r = spawnSync('named-checkzone', ['-i', 'local', 'example.org', out], { encoding: 'utf8' })
      assert.equal(r.status, 0, r.stdout + r.stderr)
      assert.match(r.stdout, /OK/)
    })
  }
})
