/**
 * DNS in worker threads (`ZONAL_DNS_WORKERS`), as `npm start` runs it: every worker answers on
 * the shared port, a change made through the API reaches every worker within a second, a worker
 * that dies is started again with the current zones while the others keep answering, and the
 * queries every worker answers reach the main thread's capture.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { parseName } from '../../src/zone/name.ts'
import { query, UdpClient, ZONE } from '../helpers/dns-clients.ts'
import { eventually } from '../helpers/named.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const WORKERS = 3
/** Client sockets, each from its own port: the kernel spreads them over the workers. */
const CLIENTS = 48

let nextId = 1
/** Questions sent so far (with the ones asked again). */
let sent = 0

/** One question from each client; resolves with each client's answer records (as text of A rdata). */
async function askAll (clients: UdpClient[], port: number, name: string): Promise<string[][]> {
  return await Promise.all(clients.map(async (client) => {
    const id = nextId++ & 0xffff
    // A datagram sent to a worker's socket as it closes is lost: ask again until answered.
    for (let attempt = 0; ; attempt++) {
      client.send(query(id, name, 'A'), port)
      sent++
      const reply = await Promise.race([client.replyTo(id), new Promise<undefined>(resolve => setTimeout(() => resolve(undefined), 500))])
      if (reply !== undefined) return decodeMessage(reply).answers.map(a => [...a.rdata].join('.'))
      if (attempt === 20) throw new Error(`no answer to ${name} after ${attempt} tries`)
    }
  }))
}

describe('DNS worker threads', () => {
  let t: TestService
  let clients: UdpClient[]
  let token: string
  before(async () => {
    t = await startTestService('admin password', { ZONAL_DNS_WORKERS: String(WORKERS) })
    await storeZone(t.service.store, 'default', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
    await eventually(async () => t.service.dns.index.find(parseName('example.org.')) !== undefined, 10_000, 'zone loaded')
    await t.service.dns.settled()
    clients = await Promise.all(Array.from({ length: CLIENTS }, async () => await UdpClient.open()))
    const login = await t.service.app.inject({ method: 'POST', url: '/v1/authorization/token', payload: 'grant_type=password&username=admin&password=admin%20password', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    token = (JSON.parse(login.body) as { accessToken: string }).accessToken
  })
  after(async () => {
    for (const c of clients ?? []) c.close()
    await t?.stop()
  })

  const api = async (method: 'POST' | 'PUT', url: string, body: unknown) =>
    await t.service.app.inject({ method, url, payload: body as object, headers: { authorization: `Bearer ${token}` } })

  it('starts the configured number of workers, all listening on one port', () => {
    const workers = t.service.dns.workers
    assert.ok(workers, 'DNS runs in worker threads')
    assert.equal(workers.listening(), WORKERS)
    assert.equal(new Set(workers.threadIds()).size, WORKERS)
  })

  it('answers a change made through the API from every worker within 1 s', async () => {
    const res = await api('POST', '/v1/zones/example.org./rrsets/A/fresh', { ttl: 300, rdata: ['192.0.2.77'] })
    assert.equal(res.statusCode, 201, res.body)
    const start = Date.now()
    // Every worker has applied the change once the feed is acknowledged by all of them.
    await t.service.dns.settled()
    const elapsed = Date.now() - start
    assert.ok(elapsed <= 1000, `every worker applied the change after ${elapsed} ms`)
    const answers = await askAll(clients, t.service.dns.port, 'fresh.example.org.')
    for (const a of answers) assert.deepEqual(a, ['192.0.2.77'])
  })

  it('starts a worker that dies again, with the current zones, while the others keep answering', async () => {
    const workers = t.service.dns.workers!
    const before = workers.threadIds()
    await workers.terminate(0)
    // The others answer at once (the kernel sends nothing to a closed socket).
    for (const a of await askAll(clients, t.service.dns.port, 'fresh.example.org.')) assert.deepEqual(a, ['192.0.2.77'])
    // A change while worker 0 is down or coming back.
    const res = await api('PUT', '/v1/zones/example.org./rrsets/A/fresh', { ttl: 300, rdata: ['192.0.2.78'] })
    assert.equal(res.statusCode, 200, res.body)
    await eventually(async () => workers.listening() === WORKERS && workers.threadIds()[0] !== before[0], 20_000, 'worker 0 restarted')
    await t.service.dns.settled()
    // The restarted worker alone (until the others are back): every answer has the change.
    await Promise.all(Array.from({ length: WORKERS - 1 }, async (_, i) => await workers.terminate(i + 1)))
    for (const a of await askAll(clients, t.service.dns.port, 'fresh.example.org.')) assert.deepEqual(a, ['192.0.2.78'])
    await eventually(async () => workers.listening() === WORKERS, 20_000, 'the others restarted')
  })

  it('counts the queries every worker answers on the main thread (each worker hands its counts over)', async () => {
    const { counts } = t.service.queries!
    const from = counts.total
    await askAll(clients, t.service.dns.port, 'www.example.org.')
    await eventually(async () => counts.total - from >= CLIENTS, 10_000, 'counted queries')
  })

  it('hands the counts of every query the workers answered over when the service closes', async () => {
    const { collector, counts } = t.service.queries!
    await t.service.queries!.flush()
    const from = counts.total
    const sentBefore = sent
    await askAll(clients, t.service.dns.port, 'mail.example.org.')
    // No flush: closing hands over what the workers hold (every question sent was answered).
    await t.service.close()
    assert.equal(counts.total - from, sent - sentBefore)
    assert.equal(collector.counts().dropped, 0)
  })
})
