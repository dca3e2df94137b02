/**
 * The running service counts the responses it sends per client and place: real queries over UDP
 * and TCP from 127.0.0.2, 127.0.0.3 and ::1, with and without an EDNS Client Subnet option
 * (placed by the subnet, in the shipped DB-IP database; loopback clients are placed nowhere);
 * what is left at a graceful stop is written too.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeMessage } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { openStore } from '../../src/store/open-store.ts'
import type { Store } from '../../src/store/store.ts'
import { parseName } from '../../src/zone/name.ts'
import { ipv6Unavailable, tcpExchange, udpExchange, ZONE } from '../helpers/dns-clients.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

/** An EDNS Client Subnet option (RFC 7871 §6): family, source prefix, scope 0, the prefix's bytes. */
function ecsOption (address: string, prefix: number): { code: number, data: Uint8Array } {
  const v6 = address.includes(':')
  const bytes = new Uint8Array(Math.ceil(prefix / 8))
  if (v6) {
    const [head = '', tail = ''] = address.split('::')
    const groups = [...head.split(':').filter(g => g !== ''), ...new Array(8 - head.split(':').filter(g => g !== '').length - tail.split(':').filter(g => g !== '').length).fill('0'), ...tail.split(':').filter(g => g !== '')]
    for (let i = 0; i < bytes.length; i++) bytes[i] = (parseInt(groups[i >> 1]!, 16) >> (i % 2 === 0 ? 8 : 0)) & 0xff
  } else {
    address.split('.').slice(0, bytes.length).forEach((o, i) => { bytes[i] = Number(o) })
  }
  const data = new Uint8Array(4 + bytes.length)
  data[1] = v6 ? 2 : 1
  data[2] = prefix
  data.set(bytes, 4)
  return { code: 8, data }
}

function query (name: string, type: number, ecs?: { address: string, prefix: number }): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: 7, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  if (ecs !== undefined) w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: false, options: [ecsOption(ecs.address, ecs.prefix)] })
  return w.finish()
}

/** Every stored row without its day (asserted to be one of `days`), responses summed over days. */
async function read (store: Store, days: string[]): Promise<Map<string, number>> {
  const rows = await (store as any).engineImpl.db.selectFrom('client_responses').selectAll().execute() as Array<Record<string, unknown>>
  const out = new Map<string, number>()
  for (const r of rows) {
    assert.ok(days.includes(r.day as string), `day ${String(r.day)}`)
    const key = [r.zone, r.client_ip, r.class_c, r.node, r.country, r.region, r.city].join(' | ')
    out.set(key, (out.get(key) ?? 0) + Number(r.responses))
  }
  return out
}

const A = 1; const SOA = 6; const MX = 15

const noV6 = await ipv6Unavailable()

describe('sqlite: client counts written by the running service', { skip: noV6 }, () => {
  let t: TestService
  before(async () => {
    // The shipped database: ZONAL_GEOIP_DB unset.
    t = await startTestService('admin password', { ZONAL_DNS_HOST: '127.0.0.1,::1', ZONAL_DNS_WORKERS: '1', ZONAL_NODE_NAME: 'edge-7', ZONAL_DNS_RRL: '0', ZONAL_GEOIP_DB: '' })
    await storeZone(t.service.store, 'default', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
    await t.service.dns.loaded
    while (decodeMessage((await udpExchange('127.0.0.1', t.service.dns.port, query('example.org.', SOA))).reply).rcode !== 0) {
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  })
  after(async () => await t?.stop())

  it('counts responses per client and place, ECS placed by its subnet, and writes the rest at stop', async () => {
    const day = (): string => new Date().toISOString().slice(0, 10)
    const days = [day()]
    // The polls above came from 127.0.0.1: written now, then left out.
    await t.service.queries!.flush()
    await t.service.clientCounts!.flush()
    const polls = await read(t.service.store, days)
    for (const [key] of polls) assert.match(key, /\| 127\.0\.0\.1 \|/)
    const port = t.service.dns.port
    const rcodes: number[] = []
    const ask = async (how: typeof udpExchange, host: '127.0.0.1' | '::1', from: string, name: string, type: number, ecs?: { address: string, prefix: number }): Promise<void> => {
      rcodes.push(decodeMessage((await how(host, port, query(name, type, ecs), 2000, from)).reply).rcode)
    }
    await ask(udpExchange, '127.0.0.1', '127.0.0.2', 'mail.example.org.', A)
    await ask(udpExchange, '127.0.0.1', '127.0.0.2', 'example.org.', MX)
    await ask(tcpExchange, '127.0.0.1', '127.0.0.2', 'example.org.', SOA)
    await ask(udpExchange, '127.0.0.1', '127.0.0.2', 'example.com.', A) // REFUSED: no zone
    await ask(udpExchange, '127.0.0.1', '127.0.0.3', 'example.org.', A, { address: '8.8.8.0', prefix: 24 })
    await ask(tcpExchange, '127.0.0.1', '127.0.0.3', 'missing.example.org.', A, { address: '8.8.8.0', prefix: 24 })
    await ask(udpExchange, '127.0.0.1', '127.0.0.3', 'example.org.', A, { address: '81.2.69.0', prefix: 24 })
    await ask(udpExchange, '127.0.0.1', '127.0.0.3', 'example.org.', A, { address: '0.0.0.0', prefix: 0 }) // opted out: the client's own address
    await ask(udpExchange, '::1', '::1', 'example.org.', A)
    await ask(tcpExchange, '::1', '::1', 'example.org.', A, { address: '2001:4860:4860::', prefix: 48 })
    assert.deepEqual(rcodes, [0, 0, 0, 5, 0, 3, 0, 0, 0, 0])

    await t.service.queries!.flush()
    await t.service.clientCounts!.flush()
    days.push(day())
    const grown = (now: Map<string, number>): Record<string, number> =>
      Object.fromEntries([...now].map(([k, v]) => [k, v - (polls.get(k) ?? 0)]).filter(([, v]) => v !== 0))
    const expected = {
      'example.org. | 127.0.0.2 | 127.0.0.0 | edge-7 |  |  | ': 3,
      ' | 127.0.0.2 | 127.0.0.0 | edge-7 |  |  | ': 1,
      'example.org. | 127.0.0.3 | 127.0.0.0 | edge-7 | united states | california | mountain view': 2,
      'example.org. | 127.0.0.3 | 127.0.0.0 | edge-7 | united kingdom | england | london': 1,
      'example.org. | 127.0.0.3 | 127.0.0.0 | edge-7 |  |  | ': 1,
      'example.org. | ::1 | :: | edge-7 |  |  | ': 1,
      'example.org. | ::1 | :: | edge-7 | canada | quebec | montreal': 1
    }
    assert.deepEqual(grown(await read(t.service.store, days)), expected)

    // The client IP directional report over HTTP: requested, polled, JSON and CSV.
    const base = `http://127.0.0.1:${t.service.httpPort}`
    const login = await fetch(`${base}/authorization/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' })
    })
    const headers = { authorization: `Bearer ${(await login.json() as { accessToken: string }).accessToken}`, 'content-type': 'application/json' }
    const report = async (filter: Record<string, string>, accept = 'application/json'): Promise<string> => {
      const posted = await fetch(`${base}/reports/dns_resolution/directional_response_counts/client_ip`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ clientIPDirectionalResponseCounts: { accountName: 'default', reportStartDate: days[0], reportEndDate: days.at(-1), ...filter } })
      })
      assert.equal(posted.status, 201)
      const { requestId } = await posted.json() as { requestId: string }
      assert.match(requestId, /^CIP-/)
      for (;;) {
        const res = await fetch(`${base}/requests/${requestId}`, { headers: { ...headers, accept } })
        if (res.status !== 202) {
          assert.equal(res.status, 200)
          return await res.text()
        }
        await new Promise(resolve => setTimeout(resolve, 50))
      }
    }
    const brief = (text: string): unknown[][] => (JSON.parse(text) as Array<Record<string, unknown>>).map(r => {
      assert.deepEqual([r.accountName, r.authNode, days.includes(r.reportStartDate as string), days.includes(r.reportEndDate as string)], ['default', 'edge-7', true, true])
      return [r.classCNetwork, r.clientIP, r.country, r.region, r.city, r.responseCount]
    })
    // The polls from 127.0.0.1 are in the network too; responses to 127.0.0.2 without a zone are not.
    assert.deepEqual(brief(await report({ classCNetwork: '127.0.0.0' })).filter(r => r[1] !== '127.0.0.1'), [
      ['127.0.0.0', '127.0.0.2', '', '', '', 3],
      ['127.0.0.0', '127.0.0.3', '', '', '', 1],
      ['127.0.0.0', '127.0.0.3', 'united kingdom', 'england', 'london', 1],
      ['127.0.0.0', '127.0.0.3', 'united states', 'california', 'mountain view', 2]
    ])
    assert.deepEqual(brief(await report({ classCNetwork: '::', country: 'CA' })), [['::', '::1', 'canada', 'quebec', 'montreal', 1]])
    assert.deepEqual(brief(await report({ classCNetwork: '127.0.0.0/24', clientIP: '127.0.0.3', city: 'London' })), [['127.0.0.0', '127.0.0.3', 'united kingdom', 'england', 'london', 1]])
    const csv = (await report({ classCNetwork: '127.0.0.9', clientIP: '127.0.0.3', zoneName: 'example.org' }, 'text/csv')).split('\r\n')
    assert.equal(csv[0], 'accountName,reportStartDate,reportEndDate,classCNetwork,clientIP,country,city,region,authNode,responseCount')
    assert.deepEqual(csv.slice(1).map(line => line.split(',').slice(3).join(',')), [
      '127.0.0.0,127.0.0.3,,,,edge-7,1',
      '127.0.0.0,127.0.0.3,united kingdom,london,england,edge-7,1',
      '127.0.0.0,127.0.0.3,united states,mountain view,california,edge-7,2',
      ''
    ])

    // A graceful stop writes what the last flush did not.
    await ask(tcpExchange, '127.0.0.1', '127.0.0.2', 'example.org.', SOA)
    await t.service.close()
    days.push(day())
    const store = await openStore(t.db.url)
    try {
      assert.deepEqual(grown(await read(store, days)), { ...expected, 'example.org. | 127.0.0.2 | 127.0.0.0 | edge-7 |  |  | ': 4 })
    } finally {
      await store.close()
    }
  })
})

describe('sqlite: more clients than ZONAL_ANALYTICS_MAX_CLIENTS', () => {
  let t: TestService
  before(async () => {
    t = await startTestService('admin password', { ZONAL_DNS_WORKERS: '1', ZONAL_NODE_NAME: 'edge-7', ZONAL_DNS_RRL: '0', ZONAL_ANALYTICS_MAX_CLIENTS: '1' })
    await storeZone(t.service.store, 'default', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
    await t.service.dns.loaded
    while (decodeMessage((await udpExchange('127.0.0.1', t.service.dns.port, query('example.org.', SOA))).reply).rcode !== 0) {
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  })
  after(async () => await t?.stop())

  it('counts the others in the overflow row of their day, zone and node, and at /metrics', async () => {
    await t.service.queries!.flush()
    await t.service.clientCounts!.flush()
    const days = [new Date().toISOString().slice(0, 10)]
    const polls = await read(t.service.store, days)
    const port = t.service.dns.port
    for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.2', '127.0.0.3']) {
      assert.equal(decodeMessage((await udpExchange('127.0.0.1', port, query('example.org.', A), 2000, from)).reply).rcode, 0)
    }
    await t.service.queries!.flush()
    const metrics = await (await fetch(`http://127.0.0.1:${t.service.httpPort}/metrics`)).text()
    assert.match(metrics, /^zonal_analytics_client_overflow_total 3$/m)
    await t.service.clientCounts!.flush()
    days.push(new Date().toISOString().slice(0, 10))
    const now = await read(t.service.store, days)
    const grown = Object.fromEntries([...now].map(([k, v]) => [k, v - (polls.get(k) ?? 0)]).filter(([, v]) => v !== 0))
    assert.deepEqual(grown, {
      'example.org. | 127.0.0.2 | 127.0.0.0 | edge-7 |  |  | ': 2,
      'example.org. |  |  | edge-7 |  |  | ': 3
    })
  })
})
