import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ROOT } from './helpers/cli.ts'
import { BIND_REQUIRED } from './helpers/named.ts'
import { runProcess } from './helpers/process.ts'
import { startTestService, type TestService } from './helpers/service.ts'

/**
 * The README's "Try it" commands run as written (STYLE.md §5: README examples must run), with
 * curl, jq and dig against a service started on free ports (the only substitutions).
 */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

/** The first `sh` block after `heading`. */
function shBlock (heading: string): string {
  const at = README.indexOf(heading)
  assert.ok(at >= 0, `README has no "${heading}"`)
  const m = /```sh\n([\s\S]*?)```/.exec(README.slice(at))
  assert.ok(m, `no sh block after "${heading}"`)
  return m[1]!
}

const missing = ['curl', 'jq', 'dig'].filter(t => spawnSync(t, ['--version']).error !== undefined)
const skip = missing.length === 0 ? undefined : `${missing.join(', ')} not installed`
if (skip !== undefined) {
  if (BIND_REQUIRED) throw new Error(`README examples need ${skip}`)
  console.log(`# README examples SKIPPED: ${skip}`)
}

describe('README: Try it', { skip }, () => {
  let running: TestService
  let dir: string
  let output: string

  before(async () => {
    if (skip !== undefined) return
    running = await startTestService('readme password')
    const service = running.service
    dir = mkdtempSync(join(tmpdir(), 'zonal-readme-'))
    writeFileSync(join(dir, 'example.net.zone'), [
      '$ORIGIN example.net.',
      '$TTL 3600',
      '@ IN SOA ns1.zonal.test. hostmaster.example.net. 1 7200 3600 1209600 300',
      '@ IN NS ns1.zonal.test.',
      '@ IN NS ns2.zonal.test.',
      'www IN A 192.0.2.80',
      ''
    ].join('\n'))
    const script = shBlock('### Try it: a first zone')
      .replace('API=http://127.0.0.1:8080', `API=http://127.0.0.1:${service.httpPort}`)
      .replace(/-p 1053/g, `-p ${service.dns.port}`)
    const { code, stdout, stderr } = await runProcess('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env: { ...process.env, PASSWORD: 'readme password' } })
    assert.equal(code, 0, `the README commands failed:\n${stderr}\n${stdout}`)
    output = stdout
  })

  after(async () => {
    await running?.stop()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('answers every call without an error', () => {
    assert.doesNotMatch(output, /errorCode/)
  })

  it('creates the zone and its records, and DNS answers the DMARC text whole', () => {
    assert.ok(output.split('{"message":"Successful"}').length - 1 >= 12, output)
    assert.match(output, /"v=DMARC1; p=reject; rua=mailto:d@example\.org"\n/)
  })

  it('uploads the BIND file and exports the zone', () => {
    assert.match(output, /^\$ORIGIN example\.org\.$/m)
    assert.match(output, /"v=spf1 include:_spf\.example\.net ~all"/)
  })
})
