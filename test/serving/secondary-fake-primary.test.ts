/**
 * A secondary zone against a small fake primary in the test (issue 7), through `npm start`'s
 * service: a good AXFR is served; a transfer cut off before its closing SOA fails with that
 * reason and leaves the previous copy served; with the primary gone past the SOA expire time
 * the zone answers SERVFAIL, and serves again after the next good transfer.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../src/config/config.ts'
import { startService, type RunningService } from '../../src/cli/serve.ts'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { MessageWriter, Section } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import { udpExchange } from '../helpers/dns-clients.ts'
import { freshDatabase, type TestDatabase } from '../helpers/engines.ts'

const ORIGIN = parseName('fake.test.')

/** The zone at `serial`, www at 192.0.2.`www`; SOA retry 1 s, expire 3 s. */
function zone (serial: number, www: number) {
  return parseZoneText(`$ORIGIN fake.test.\n$TTL 60\n@ IN SOA ns1 hostmaster ${serial} 600 1 3 60\n@ IN NS ns1\nns1 IN A 192.0.2.53\nwww IN A 192.0.2.${www}\n`, { origin: ORIGIN, includes: 'refuse' }).records
}

type Mode = { kind: 'good', serial: number, www: number } | { kind: 'cut', serial: number, www: number }

/** A primary that answers every transfer request with the zone of `mode` (whole, or cut off). */
async function fakePrimary (port: number, mode: () => Mode): Promise<Server> {
  const server = createServer((socket) => {
    socket.on('data', (chunk: Buffer) => {
      const request = decodeMessage(chunk.subarray(2))
      const m = mode()
      const records = zone(m.serial, m.www)
      const soa = records.find(r => r.type === 6)!
      const sent = m.kind === 'good' ? [soa, ...records.filter(r => r.type !== 6), soa] : [soa, ...records.filter(r => r.type !== 6)]
      const w = new MessageWriter(65535)
      w.header({ id: request.id, qr: true, opcode: 0, aa: true, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
      w.question(request.questions[0]!)
      for (const r of sent) w.record(Section.Answer, { name: r.owner, type: r.type, class: 1, ttl: r.ttl, rdata: r.rdata })
      const message = w.finish()
      const frame = Buffer.alloc(2 + message.length)
      frame.writeUInt16BE(message.length)
      frame.set(message, 2)
      socket.end(frame)
    })
    socket.on('error', () => {})
  })
  await new Promise<void>(resolve => server.listen(port, '127.0.0.1', resolve))
  return server
}

async function eventually (check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  assert.fail(`${what}: not within ${ms} ms`)
}

describe('a secondary zone and a fake primary', () => {
  let db: TestDatabase
  let service: RunningService
  let primary: Server | undefined
  let port = 0
  let mode: Mode = { kind: 'good', serial: 1, www: 80 }
  let base: string
  let headers: Record<string, string>

  const www = async (): Promise<{ rcode: number, address?: string }> => {
    const w = new MessageWriter(512)
    w.header({ id: 5, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
    w.question({ name: parseName('www.fake.test.'), type: 1, class: 1 })
    const m = decodeMessage((await udpExchange('127.0.0.1', service.dns.port, w.finish())).reply)
    return { rcode: m.rcode, ...(m.answers[0] === undefined ? {} : { address: [...m.answers[0].rdata].join('.') }) }
  }
  const status = async (): Promise<Record<string, string>> =>
    (await (await fetch(`${base}/zones/fake.test`, { headers })).json() as { transferStatusDetails: Record<string, string> }).transferStatusDetails

  before(async () => {
    db = await freshDatabase('sqlite')
    service = await startService(loadConfig({ ZONAL_DATABASE_URL: db.url, ZONAL_HTTP_PORT: '0', ZONAL_FORWARD_HTTP_PORT: '0', ZONAL_DNS_PORT: '0', ZONAL_ADMIN_PASSWORD: 'admin password', ZONAL_LOG_LEVEL: 'silent' }))
    primary = await fakePrimary(0, () => mode)
    port = (primary.address() as { port: number }).port
    base = `http://127.0.0.1:${service.httpPort}`
    const token = await (await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' }) })).json() as { accessToken: string }
    headers = { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' }
  })
  after(async () => {
    await service?.close()
    await new Promise(resolve => primary?.close(resolve) ?? resolve(undefined))
    await db?.drop()
  })

  it('serves the zone after a good transfer', async () => {
    const res = await fetch(`${base}/zones`, { method: 'POST', headers, body: JSON.stringify({ properties: { name: 'fake.test', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: `127.0.0.1:${port}` } } } } }) })
    assert.equal(res.status, 201, await res.text())
    await eventually(async () => (await www()).address === '192.0.2.80', 10_000, 'the zone served')
  })

  it('keeps serving the previous copy when a transfer is cut off', async () => {
    mode = { kind: 'cut', serial: 2, www: 81 }
    assert.equal((await fetch(`${base}/zones/fake.test/transfer`, { method: 'POST', headers })).status, 200)
    await eventually(async () => (await status()).lastRefreshStatus === 'FAILED', 10_000, 'the failure recorded')
    assert.match((await status()).lastRefreshStatusMessage!, /without the closing SOA/)
    assert.deepEqual(await www(), { rcode: 0, address: '192.0.2.80' })
  })

  it('answers SERVFAIL once the zone expired without a refresh, and serves again after a good one', async () => {
    // Retry every second, expire 3 s after the last success: the cut transfers keep failing.
    await eventually(async () => (await www()).rcode === 2, 15_000, 'SERVFAIL after expiry')
    mode = { kind: 'good', serial: 3, www: 82 }
    await eventually(async () => (await www()).address === '192.0.2.82', 10_000, 'served again')
  })
})
