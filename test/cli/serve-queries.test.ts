/**
 * The running service captures the DNS queries it answers: the counts reach `/metrics`, under
 * the node name of `ZONAL_NODE_NAME`.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startService, type RunningService } from '../../src/cli/serve.ts'
import { loadConfig } from '../../src/config/config.ts'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { tcpExchange, udpExchange } from '../helpers/dns-clients.ts'
import { freshDatabase, type TestDatabase } from '../helpers/engines.ts'

function query (name: string, type: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: 1, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  return w.finish()
}

/** The value of one sample line of the Prometheus text, or undefined. */
function sample (text: string, line: string): number | undefined {
  const found = text.split('\n').find(l => l.startsWith(line + ' '))
  return found === undefined ? undefined : Number(found.slice(line.length + 1))
}

describe('sqlite: DNS query capture in the running service', () => {
  let db: TestDatabase
  let service: RunningService

  before(async () => {
    db = await freshDatabase('sqlite')
    service = await startService(loadConfig({ ZONAL_DATABASE_URL: db.url, ZONAL_HTTP_PORT: '0', ZONAL_FORWARD_HTTP_PORT: '0', ZONAL_DNS_PORT: '0', ZONAL_ADMIN_PASSWORD: 'admin password', ZONAL_LOG_LEVEL: 'silent', ZONAL_NODE_NAME: 'edge-test-3' }))
    const base = `http://127.0.0.1:${service.httpPort}`
    const token = await (await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' }) })).json() as { accessToken: string }
    const res = await fetch(`${base}/zones`, { method: 'POST', headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ properties: { name: 'example.org', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } }) })
    assert.equal(res.status, 201)
    await service.dns.loaded
    // A zone created after start is loaded by the next version poll.
    for (let i = 0; i < 100 && decodeMessage((await udpExchange('127.0.0.1', service.dns.port, query('example.org.', 6))).reply).rcode !== 0; i++) {
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  })
  after(async () => {
    await service?.close()
    await db?.drop()
  })

  it('counts the queries it answers by transport, rcode and qtype at /metrics, as node ZONAL_NODE_NAME', async () => {
    assert.equal(service.queries!.collector.node, 'edge-test-3')
    await service.queries!.flush()
    const before = { ...service.queries!.counts.byTransport, nx: service.queries!.counts.byRcode().get(3) ?? 0, refused: service.queries!.counts.byRcode().get(5) ?? 0 }
    await udpExchange('127.0.0.1', service.dns.port, query('missing.example.org.', 1))
    await udpExchange('127.0.0.1', service.dns.port, query('example.com.', 1))
    await tcpExchange('127.0.0.1', service.dns.port, query('example.org.', 2))
    await service.queries!.flush()
    const counts = service.queries!.counts
    assert.equal(counts.byTransport.udp - before.udp, 2)
    assert.equal(counts.byTransport.tcp - before.tcp, 1)
    assert.equal((counts.byRcode().get(3) ?? 0) - before.nx, 1)
    assert.equal((counts.byRcode().get(5) ?? 0) - before.refused, 1)
    const text = await (await fetch(`http://127.0.0.1:${service.httpPort}/metrics`)).text()
    assert.equal(sample(text, 'zonal_dns_queries_total{transport="udp"}'), counts.byTransport.udp)
    assert.equal(sample(text, 'zonal_dns_queries_total{transport="tcp"}'), 1)
    assert.equal(sample(text, 'zonal_dns_responses_by_rcode_total{rcode="NXDOMAIN"}'), 1)
    assert.equal(sample(text, 'zonal_dns_responses_by_rcode_total{rcode="REFUSED"}'), counts.byRcode().get(5))
    assert.equal(sample(text, 'zonal_dns_queries_by_qtype_total{qtype="NS"}'), 1)
    assert.equal(sample(text, 'zonal_dns_capture_lost_total{reason="dropped"}'), 0)
    assert.match(text, /zonal_http_requests_total/, 'the HTTP metrics are still there')
  })
})
