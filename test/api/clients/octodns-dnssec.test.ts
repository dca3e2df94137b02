import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import type { RunningService } from '../../../src/cli/serve.ts'
import type { ProcessResult } from '../../helpers/process.ts'
import { OCTODNS_ULTRA, pythonClients, runPython } from '../../helpers/python-clients.ts'
import { startTestService, type TestService } from '../../helpers/service.ts'

/**
 * octoDNS with octodns-ultra's DNSSEC toggle (`dnssec: true`, which POSTs `/zones/{z}/dnssec`
 * with `{}`; `false` DELETEs it) against a running service: a sync creates and signs the zone,
 * a second plan finds nothing to change (the DNSSEC records are not among the rrsets it reads),
 * and turning the toggle off unsigns the zone, after which a plan again finds nothing.
 */
const FIXTURES = fileURLToPath(new URL('./fixtures/octodns/', import.meta.url))
const clients = pythonClients(OCTODNS_ULTRA)

const ZONE_YAML = `---
'':
  - type: NS
    values:
      - ns1.zonal.test.
      - ns2.zonal.test.
www:
  type: A
  values:
    - 192.0.2.1
    - 192.0.2.2
mail:
  type: AAAA
  value: 2001:db8::25
`

function config (dnssec: boolean): string {
  return `---
providers:
  config:
    class: octodns.provider.yaml.YamlProvider
    directory: ./zones
    default_ttl: 3600
    enforce_order: false
  ultra:
    class: local_ultra.LocalUltraProvider
    account: env/ZONAL_ACCOUNT
    username: env/ZONAL_USERNAME
    password: env/ZONAL_PASSWORD
    dnssec: ${String(dnssec)}
zones:
  signed.test.:
    sources:
      - config
    targets:
      - ultra
`
}

describe('octoDNS with octodns-ultra: DNSSEC', { skip: 'skip' in clients ? clients.skip : undefined }, () => {
  let running: TestService
  let service: RunningService
  let dir: string

  async function octodns (...args: string[]): Promise<ProcessResult> {
    if ('skip' in clients) throw new Error('unreachable')
    const run = await runPython(clients, args, {
      cwd: dir,
      env: {
        PYTHONPATH: `${dir}:${clients.pythonPath}`,
        ZONAL_URL: `http://127.0.0.1:${service.httpPort}`,
        ZONAL_ACCOUNT: 'default',
        ZONAL_USERNAME: 'admin',
        ZONAL_PASSWORD: 'octodns password'
      }
    })
    assert.equal(run.code, 0, `octodns ${args.join(' ')} failed:\n${run.stderr}`)
    return run
  }

  async function status (): Promise<string> {
    const zone = await service.store.zones.findByName('signed.test.', { accountIds: (await service.store.accounts.list()).map(a => a.id) })
    return zone!.dnssec_status
  }

  before(async () => {
    if ('skip' in clients) return
    running = await startTestService('octodns password')
    service = running.service
    dir = mkdtempSync(join(tmpdir(), 'zonal-octodns-dnssec-'))
    cpSync(FIXTURES, dir, { recursive: true })
    mkdirSync(join(dir, 'zones'))
    writeFileSync(join(dir, 'zones', 'signed.test.yaml'), ZONE_YAML)
    writeFileSync(join(dir, 'signed.yaml'), config(true))
    writeFileSync(join(dir, 'unsigned.yaml'), config(false))
  })

  after(async () => {
    await running?.stop()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('creates and signs the zone, then plans no changes', async () => {
    await octodns('-m', 'octodns.cmds.sync', '--config-file', 'signed.yaml', '--doit')
    assert.equal(await status(), 'SIGNED')
    const plan = await octodns('-m', 'octodns.cmds.sync', '--config-file', 'signed.yaml')
    assert.match(plan.stdout + plan.stderr, /No changes were planned/, plan.stdout + plan.stderr)
  })

  it('unsigns the zone when the toggle is off, then plans no changes', async () => {
    await octodns('-m', 'octodns.cmds.sync', '--config-file', 'unsigned.yaml', '--doit')
    assert.equal(await status(), 'UNSIGNED')
    const plan = await octodns('-m', 'octodns.cmds.sync', '--config-file', 'unsigned.yaml')
    assert.match(plan.stdout + plan.stderr, /No changes were planned/, plan.stdout + plan.stderr)
  })
})
