import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import type { RunningService } from '../../../src/cli/serve.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { query, tcpExchange } from '../../helpers/dns-clients.ts'
import type { ProcessResult } from '../../helpers/process.ts'
import { OCTODNS_ULTRA, pythonClients, runPython } from '../../helpers/python-clients.ts'
import { startTestService, type TestService } from '../../helpers/service.ts'

/**
 * octoDNS with octodns-ultra (the UltraDNS provider) against a running service: a sync creates the
 * zone and its records, a second plan finds nothing to change, a dump reads back the exact values,
 * and DNS answers the exact TXT strings. TXT values carry what real configurations carry: spaces,
 * `;` (octoDNS writes `\;` in its files and sends `;`), quotes, a backslash and a DKIM key longer
 * than one 255-octet string.
 */
const FIXTURES = fileURLToPath(new URL('./fixtures/octodns/', import.meta.url))
const clients = pythonClients(OCTODNS_ULTRA)

const DKIM_KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' + Array.from({ length: 256 }, (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[(i * 7) % 64]).join('')
/** Each TXT record's text as served (octoDNS's `\;` is a plain `;` on the wire). */
const TXT: Record<string, string[]> = {
  'octo.test.': ['another value', 'v=spf1 include:_spf.example.net ~all'],
  '_dmarc.octo.test.': ['v=DMARC1; p=reject; rua=mailto:d@example.org'],
  'quotes.octo.test.': ['say "hello" and \\ then'],
  'selector._domainkey.octo.test.': [`v=DKIM1; k=rsa; p=${DKIM_KEY}`]
}

/** A YAML double-quoted scalar: octoDNS's text, `;` escaped as octoDNS files write it. */
function yamlText (text: string): string {
  return JSON.stringify(text.replace(/;/g, '\\;'))
}

const ZONE_YAML = `---
'':
  - type: NS
    values:
      - ns1.zonal.test.
      - ns2.zonal.test.
  - type: TXT
    values:
${TXT['octo.test.']!.map(t => `      - ${yamlText(t)}`).join('\n')}
  - type: MX
    values:
      - exchange: mail.octo.test.
        preference: 10
  - type: CAA
    values:
      - flags: 0
        tag: issue
        value: letsencrypt.org
_dmarc:
  type: TXT
  value: ${yamlText(TXT['_dmarc.octo.test.']![0]!)}
quotes:
  type: TXT
  value: ${yamlText(TXT['quotes.octo.test.']![0]!)}
selector._domainkey:
  type: TXT
  value: ${yamlText(TXT['selector._domainkey.octo.test.']![0]!)}
www:
  type: A
  values:
    - 192.0.2.1
    - 192.0.2.2
mail:
  type: AAAA
  value: 2001:db8::25
_sip._tcp:
  type: SRV
  value:
    port: 5060
    priority: 10
    target: sip.octo.test.
    weight: 20
alias:
  type: CNAME
  value: www.octo.test.
`

describe('octoDNS with octodns-ultra', { skip: 'skip' in clients ? clients.skip : undefined }, () => {
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

  async function yamlAsJson (file: string): Promise<any> {
    const run = await octodns('-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))', file)
    return JSON.parse(run.stdout)
  }

  before(async () => {
    if ('skip' in clients) return
    running = await startTestService('octodns password')
    service = running.service
    dir = mkdtempSync(join(tmpdir(), 'zonal-octodns-'))
    cpSync(FIXTURES, dir, { recursive: true })
    mkdirSync(join(dir, 'zones'))
    writeFileSync(join(dir, 'zones', 'octo.test.yaml'), ZONE_YAML)
  })

  after(async () => {
    await running?.stop()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('syncs the zone, then plans no changes', async () => {
    await octodns('-m', 'octodns.cmds.sync', '--config-file', 'config.yaml', '--doit')
    const plan = await octodns('-m', 'octodns.cmds.sync', '--config-file', 'config.yaml')
    assert.match(plan.stdout + plan.stderr, /No changes were planned/, plan.stdout + plan.stderr)
  })

  it('dumps the exact values it wrote', async () => {
    await octodns('-m', 'octodns.cmds.dump', '--config-file', 'config.yaml', '--output-dir', 'dump', 'octo.test.', 'ultra')
    const dumped = await yamlAsJson(join(dir, 'dump', 'octo.test.yaml'))
    const written = await yamlAsJson(join(dir, 'zones', 'octo.test.yaml'))
    const txtOf = (zone: any, name: string): unknown => {
      const records = ([] as any[]).concat(zone[name])
      const txt = records.find(r => r.type === 'TXT')
      return txt.values ?? [txt.value]
    }
    for (const name of ['', '_dmarc', 'quotes', 'selector._domainkey']) {
      assert.deepEqual(txtOf(dumped, name), txtOf(written, name), `TXT at "${name}"`)
    }
    assert.deepEqual(([] as any[]).concat(dumped['']).find(r => r.type === 'CAA').value ?? ([] as any[]).concat(dumped['']).find(r => r.type === 'CAA').values[0],
      { flags: 0, tag: 'issue', value: 'letsencrypt.org' })
  })

  it('serves the exact TXT strings in DNS, long text as 255-octet strings', async () => {
    for (const [owner, texts] of Object.entries(TXT)) {
      const { reply } = await tcpExchange('127.0.0.1', service.dns.port, query(1, owner, 'TXT', true))
      const answers = decodeMessage(reply).answers.filter(rr => rr.type === 16)
      const served = answers.map(rr => txtStrings(rr.rdata))
      const expected = texts.map(t => chunks(Buffer.from(t, 'utf8')))
      assert.deepEqual(served.map(s => s.map(b => b.toString('utf8'))).sort(), expected.map(s => s.map(b => b.toString('utf8'))).sort(), owner)
    }
  })
})

/** The character-strings of TXT rdata. */
function txtStrings (rdata: Uint8Array): Buffer[] {
  const out: Buffer[] = []
  for (let i = 0; i < rdata.length; i += 1 + rdata[i]!) out.push(Buffer.from(rdata.subarray(i + 1, i + 1 + rdata[i]!)))
  return out
}

/** Text split into the 255-octet strings it must be served as. */
function chunks (bytes: Buffer): Buffer[] {
  const out: Buffer[] = []
  for (let i = 0; i < bytes.length; i += 255) out.push(bytes.subarray(i, i + 255))
  return out.length === 0 ? [Buffer.alloc(0)] : out
}
