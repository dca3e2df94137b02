/**
 * The official Python client's advanced NXDOMAIN report (`create_advanced_nxdomain_report`,
 * `get_report_results`) against a running service that answered real DNS queries.
 */
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { MessageWriter } from '../../../src/dns/wire/writer.ts'
import { parseName } from '../../../src/zone/name.ts'
import { udpExchange, ZONE } from '../../helpers/dns-clients.ts'
import { pythonClients, runPython, ULTRA_REST_CLIENT } from '../../helpers/python-clients.ts'
import { startTestService, type TestService } from '../../helpers/service.ts'
import { storeZone } from '../../helpers/stored-zones.ts'

const SCRIPT = fileURLToPath(new URL('./fixtures/python_nxdomain_report.py', import.meta.url))
const clients = pythonClients(ULTRA_REST_CLIENT)

function query (name: string, type: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: 3, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  return w.finish()
}

describe('the official Python client: advanced NXDOMAIN report', { skip: 'skip' in clients ? clients.skip : undefined }, () => {
  let t: TestService
  before(async () => {
    t = await startTestService('python nxd password', { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0' })
    await storeZone(t.service.store, 'default', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
    await t.service.dns.loaded
    while (decodeMessage((await udpExchange('127.0.0.1', t.service.dns.port, query('example.org.', 6))).reply).rcode !== 0) {
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  })
  after(async () => await t?.stop())

  it('requests HQV_NXD and reads the hosts with NXDOMAIN answers, most first, as the client returns them', async () => {
    if ('skip' in clients) return
    const port = t.service.dns.port
    for (const [name, times] of [['nope.example.org.', 3], ['mail.example.org.', 2], ['other.example.org.', 1]] as const) {
      for (let i = 0; i < times; i++) await udpExchange('127.0.0.1', port, query(name, 1))
    }
    await t.service.queries!.flush()
    await t.service.hostCounts!.flush()
    const today = new Date().toISOString().slice(0, 10)
    const run = await runPython(clients, [SCRIPT, `127.0.0.1:${t.service.httpPort}`, 'admin', 'python nxd password', today, today, 'example.org', '10'])
    assert.equal(run.code, 0, `the client failed:\n${run.stderr}`)
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { requested: { requestId: string }, rows: unknown }
    assert.match(out.requested.requestId, /^HQV_NXD-[0-9a-f]{16}$/)
    assert.deepEqual(out.rows, [
      { zoneName: 'example.org.', hostName: 'nope.example.org.', accountName: 'default', startDate: today, endDate: today, nxdomainCount: 3, rspTotal: 3 },
      { zoneName: 'example.org.', hostName: 'other.example.org.', accountName: 'default', startDate: today, endDate: today, nxdomainCount: 1, rspTotal: 1 }
    ])
  })
})
