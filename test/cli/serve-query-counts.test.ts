/**
 * The running service adds the DNS queries it answers to the query volume and response code
 * tables, and per host to host_volume: real queries over UDP and TCP, from 127.0.0.1 and ::1,
 * hits, NXDOMAIN and REFUSED; what is left at a graceful stop is written too.
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

function query (name: string, type: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: 7, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  return w.finish()
}

type Counts = Map<string, Record<string, number>>

/**
 * Every row of a counts table by zone (one node, one day here), or by "zone host" for
 * host_volume, counters as numbers.
 */
async function read (store: Store, table: 'query_volume' | 'response_codes' | 'host_volume'): Promise<Counts> {
  const rows = await (store as any).engineImpl.db.selectFrom(table).selectAll().execute() as Array<Record<string, unknown>>
  const out: Counts = new Map()
  for (const r of rows) {
    const { day: _day, zone, host, node, ...counts } = r
    assert.equal(node, 'edge-7')
    const key = host === undefined ? zone as string : `${zone as string} ${host as string}`
    const prev = out.get(key) ?? {}
    for (const [k, v] of Object.entries(counts)) prev[k] = (prev[k] ?? 0) + Number(v)
    out.set(key, prev)
  }
  return out
}

/** The counters that grew from `before` to `now`, by zone. */
function grown (before: Counts, now: Counts): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {}
  for (const [zone, counts] of now) {
    for (const [k, v] of Object.entries(counts)) {
      const d = v - (before.get(zone)?.[k] ?? 0)
      if (d !== 0) (out[zone] ??= {})[k] = d
    }
  }
  return out
}

const A = 1; const NS = 2; const SOA = 6; const MX = 15; const TXT = 16; const AAAA = 28

const noV6 = await ipv6Unavailable()

describe('sqlite: query counts written by the running service', { skip: noV6 }, () => {
  let t: TestService
  before(async () => {
    t = await startTestService('admin password', { ZONAL_DNS_HOST: '127.0.0.1,::1', ZONAL_DNS_WORKERS: '1', ZONAL_NODE_NAME: 'edge-7', ZONAL_DNS_RRL: '0' })
    await storeZone(t.service.store, 'default', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
    await t.service.dns.loaded
    // A zone stored after start is loaded by the next version poll.
    while (decodeMessage((await udpExchange('127.0.0.1', t.service.dns.port, query('example.org.', SOA))).reply).rcode !== 0) {
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  })
  after(async () => await t?.stop())

  it('counts every query by zone, transport, IP version, type and rcode, and writes the rest at stop', async () => {
    await t.service.queries!.flush()
    await t.service.queryCounts!.flush()
    await t.service.hostCounts!.flush()
    const volumeBefore = await read(t.service.store, 'query_volume')
    const rcodesBefore = await read(t.service.store, 'response_codes')
    const hostsBefore = await read(t.service.store, 'host_volume')
    const port = t.service.dns.port
    const rcodes: number[] = []
    const ask = async (how: typeof udpExchange, host: '127.0.0.1' | '::1', name: string, type: number): Promise<void> => {
      rcodes.push(decodeMessage((await how(host, port, query(name, type))).reply).rcode)
    }
    await ask(udpExchange, '127.0.0.1', 'mail.example.org.', A)
    await ask(udpExchange, '127.0.0.1', 'missing.example.org.', A)
    await ask(udpExchange, '127.0.0.1', 'example.org.', MX)
    await ask(udpExchange, '127.0.0.1', 'example.org.', 999) // no column of its own: the total only
    await ask(udpExchange, '127.0.0.1', 'example.com.', A)
    await ask(tcpExchange, '127.0.0.1', 'example.org.', NS)
    await ask(tcpExchange, '127.0.0.1', 'example.org.', SOA)
    await ask(udpExchange, '::1', 'mail.example.org.', AAAA)
    await ask(udpExchange, '::1', 'example.org.', TXT)
    await ask(tcpExchange, '::1', 'missing.example.org.', TXT)
    await ask(tcpExchange, '::1', 'example.net.', A)
    assert.deepEqual(rcodes, [0, 3, 0, 0, 5, 0, 0, 0, 0, 3, 5])

    // A graceful stop writes what the last flush did not.
    await t.service.close()
    const store = await openStore(t.db.url)
    try {
      assert.deepEqual(grown(volumeBefore, await read(store, 'query_volume')), {
        'example.org.': { rsp_total: 9, tcp: 3, udp: 6, ipv4: 6, ipv6: 3, ipv4_tcp: 2, ipv4_udp: 4, ipv6_tcp: 1, ipv6_udp: 2, type_a: 2, type_mx: 1, type_ns: 1, type_soa: 1, type_aaaa: 1, type_txt: 2 },
        '': { rsp_total: 2, tcp: 1, udp: 1, ipv4: 1, ipv6: 1, ipv4_udp: 1, ipv6_tcp: 1, type_a: 2 }
      })
      assert.deepEqual(grown(rcodesBefore, await read(store, 'response_codes')), {
        'example.org.': { noerror: 7, nxdomain: 2 },
        '': { refused: 2 }
      })
      // Per host: the same counters and the rcodes in one row; queries no zone answered are not kept.
      assert.deepEqual(grown(hostsBefore, await read(store, 'host_volume')), {
        'example.org. mail.example.org.': { rsp_total: 2, udp: 2, ipv4: 1, ipv6: 1, ipv4_udp: 1, ipv6_udp: 1, type_a: 1, type_aaaa: 1, noerror: 2 },
        'example.org. missing.example.org.': { rsp_total: 2, udp: 1, tcp: 1, ipv4: 1, ipv6: 1, ipv4_udp: 1, ipv6_tcp: 1, type_a: 1, type_txt: 1, nxdomain: 2 },
        'example.org. example.org.': { rsp_total: 5, udp: 3, tcp: 2, ipv4: 4, ipv6: 1, ipv4_udp: 2, ipv4_tcp: 2, ipv6_udp: 1, type_mx: 1, type_ns: 1, type_soa: 1, type_txt: 1, noerror: 5 }
      })
    } finally {
      await store.close()
    }
  })
})

describe('sqlite: ZONAL_ANALYTICS=off', () => {
  let t: TestService
  before(async () => {
    t = await startTestService('admin password', { ZONAL_ANALYTICS: 'off', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0' })
    await storeZone(t.service.store, 'default', 'example.org.', ZONE.replace(/^\$ORIGIN.*\n/, ''))
    await t.service.dns.loaded
    while (decodeMessage((await udpExchange('127.0.0.1', t.service.dns.port, query('example.org.', SOA))).reply).rcode !== 0) {
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  })
  after(async () => await t?.stop())

  it('answers queries without capturing them: no counts at /metrics, no analytics rows even after a graceful stop', async () => {
    assert.equal(t.service.queries!, undefined)
    assert.equal(t.service.queryCounts!, undefined)
    assert.equal(t.service.hostCounts!, undefined)
    assert.equal(t.service.rawSamples, undefined)
    assert.equal(t.service.clientCounts, undefined)
    const port = t.service.dns.port
    const answers = [
      decodeMessage((await udpExchange('127.0.0.1', port, query('mail.example.org.', A))).reply),
      decodeMessage((await udpExchange('127.0.0.1', port, query('missing.example.org.', A))).reply),
      decodeMessage((await tcpExchange('127.0.0.1', port, query('example.org.', NS))).reply),
      decodeMessage((await udpExchange('127.0.0.1', port, query('example.com.', A))).reply)
    ]
    assert.deepEqual(answers.map(m => m.rcode), [0, 3, 0, 5])
    assert.ok(answers[0]!.answers.length > 0)
    const metrics = await (await fetch(`http://127.0.0.1:${t.service.httpPort}/metrics`)).text()
    assert.match(metrics, /zonal_http_requests_total/)
    assert.doesNotMatch(metrics, /zonal_dns_(queries_total|responses_by_rcode_total|capture_lost_total)/)

    await t.service.close()
    const store = await openStore(t.db.url)
    try {
      for (const table of ['query_volume', 'response_codes', 'host_volume', 'raw_queries', 'client_responses'] as const) {
        const rows = await (store as any).engineImpl.db.selectFrom(table).selectAll().execute() as unknown[]
        assert.deepEqual(rows, [], table)
      }
    } finally {
      await store.close()
    }
  })
})
