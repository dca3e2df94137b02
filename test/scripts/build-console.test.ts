/**
 * scripts/build-console.mjs, as `npm install` and `npm start` run it (`--if-stale`): it builds
 * the console when the build is missing, leaves a current build alone, and builds again when the
 * sources are newer than the build. Built into a temporary folder (`--out`), not dist/console.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'build-console.mjs')

function run (out: string): string {
  const res = spawnSync(process.execPath, [SCRIPT, '--if-stale', '--out', out], { encoding: 'utf8' })
  assert.equal(res.status, 0, res.stderr)
  return res.stdout
}

describe('scripts/build-console.mjs --if-stale', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'zonal-console-build-')), 'console')
  after(() => rmSync(join(out, '..'), { recursive: true, force: true }))

  it('builds a missing console: a page whose script and stylesheet are hashed files, no inline script', () => {
    assert.match(run(out), /build-console: built/)
    const html = readFileSync(join(out, 'index.html'), 'utf8')
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(m => m[0])
    assert.ok(scripts.length > 0)
    for (const tag of scripts) assert.match(tag, /src="\/console\/assets\/[\w-]+\.js"/, 'every script is a file')
    assert.doesNotMatch(html, /<script\b[^>]*>[^<]+<\/script>/, 'no inline script')
    assert.doesNotMatch(html, /<style\b|style="/, 'no inline style')
    const assets = readdirSync(join(out, 'assets'))
    assert.ok(assets.some(f => /^index-[\w-]{8}\.js$/.test(f)), assets.join(', '))
    assert.ok(assets.some(f => /\.css$/.test(f)), assets.join(', '))
  })

  it('leaves a current build alone', () => {
    const stamp = statSync(join(out, '.built')).mtimeMs
    assert.equal(run(out), '')
    assert.equal(statSync(join(out, '.built')).mtimeMs, stamp)
  })

  it('builds again when the sources are newer than the build', () => {
    utimesSync(join(out, '.built'), new Date('2000-01-01'), new Date('2000-01-01'))
    assert.match(run(out), /build-console: built/)
    assert.ok(statSync(join(out, '.built')).mtimeMs > Date.parse('2001-01-01'))
    assert.ok(existsSync(join(out, 'index.html')))
  })
})
