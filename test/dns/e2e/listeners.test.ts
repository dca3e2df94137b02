/**
 * The service as `npm start` runs it, configured through `ZONAL_DNS_*`: a stored zone served on
 * IPv4 and IPv6 loopback (one port, UDP and TCP); response rate limiting from configuration
 * (loopback exempt by default, limited once the exemptions are `none`).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startService, type RunningService } from '../../../src/cli/serve.ts'
import { loadConfig } from '../../../src/config/config.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { frame, ipv6Unavailable, query, TcpClient, UdpClient, ZONE } from '../../helpers/dns-clients.ts'
import { parseName } from '../../../src/zone/name.ts'
import { freshDatabase, type TestDatabase } from '../../helpers/engines.ts'
import { storeZone } from '../../helpers/stored-zones.ts'

const noIpv6 = await ipv6Unavailable()
if (noIpv6 !== false) process.stdout.write(`# IPv6 service tests SKIPPED: ${noIpv6}\n`)

async function serve (db: TestDatabase, env: Record<string, string>): Promise<RunningService> {
  const service = await startService(loadConfig({ ZONAL_DATABASE_URL: db.url, ZONAL_HTTP_PORT: '0', ZONAL_FORWARD_HTTP_PORT: '0', ZONAL_DNS_PORT: '0', ZONAL_ADMIN_PASSWORD: 'admin password', ZONAL_LOG_LEVEL: 'silent', ...env }))
  await storeZone(service.store, 'default', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
  return service
}

/** Wait until the zone is in the DNS index (the sync polls the store). */
async function whenServed (service: RunningService): Promise<void> {
  for (let i = 0; i < 100 && service.dns.index.find(parseName('example.org.')) === undefined; i++) {
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  assert.ok(service.dns.index.find(parseName('example.org.')), 'the zone is served')
  // … and served by every DNS worker thread.
  await service.dns.settled()
}

async function burst (port: number, n: number): Promise<Array<ReturnType<typeof decodeMessage>>> {
  const client = await UdpClient.open()
  try {
    for (let i = 0; i < n; i++) client.send(query(1000 + i, 'example.org.', 'SOA'), port)
    client.send(query(9999, 'mail.example.org.', 'A'), port)
    await client.replyTo(9999)
    return client.replies.map(r => decodeMessage(r)).filter(m => m.id !== 9999)
  } finally {
    client.close()
  }
}

describe('sqlite: DNS on IPv4 and IPv6 from ZONAL_DNS_HOST', { skip: noIpv6 }, () => {
  let db: TestDatabase
  let service: RunningService
  before(async () => {
    db = await freshDatabase('sqlite')
    service = await serve(db, { ZONAL_DNS_HOST: '127.0.0.1,::1', ZONAL_DNS_TCP_IDLE_SECONDS: '1' })
    await whenServed(service)
  })
  after(async () => {
    await service?.close()
    await db?.drop()
  })

  it('reports both addresses on one port', () => {
    assert.deepEqual(service.dns.addresses.map(a => [a.address, a.family, a.port]), [
      ['127.0.0.1', 'IPv4', service.dns.port],
      ['::1', 'IPv6', service.dns.port]
    ])
  })

  it('answers over UDP and TCP on ::1', async () => {
    const udp = await UdpClient.open(6)
    try {
      const reply = await udp.ask(query(5, 'mail.example.org.', 'A'), service.dns.port, '::1')
      assert.equal(reply.aa, true)
      assert.deepEqual([...reply.answers[0]!.rdata], [192, 0, 2, 25])
    } finally {
      udp.close()
    }
    const tcp = await TcpClient.open('::1', service.dns.port)
    try {
      tcp.write(frame(query(6, 'example.org.', 'NS')))
      assert.equal(decodeMessage((await tcp.next())!).answers.length, 1)
      // ZONAL_DNS_TCP_IDLE_SECONDS=1: the idle connection is then closed.
      await tcp.waitClosed()
    } finally {
      tcp.close()
    }
  })

  it('leaves loopback clients unlimited by default', async () => {
    const replies = await burst(service.dns.port, 60)
    assert.equal(replies.length, 60)
    assert.ok(replies.every(m => !m.tc))
  })
})

describe('sqlite: DNS response rate limiting from configuration', () => {
  let db: TestDatabase
  let service: RunningService
  before(async () => {
    db = await freshDatabase('sqlite')
    service = await serve(db, { ZONAL_DNS_RRL: '2', ZONAL_DNS_RRL_EXEMPT: 'none' })
    await whenServed(service)
  })
  after(async () => {
    await service?.close()
    await db?.drop()
  })

  it('limits a burst from 127.0.0.1 once loopback is not exempt', async () => {
    const replies = await burst(service.dns.port, 40)
    assert.ok(replies.length < 40, `some dropped, got ${replies.length}`)
    assert.ok(replies.some(m => m.tc), 'some truncated (slip 2 by default)')
    assert.ok(replies.some(m => !m.tc && m.answers.length === 1), 'some answered')
  })
})
