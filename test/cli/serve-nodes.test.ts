/**
 * Two nodes on one PostgreSQL database: a zone created on one node, then changed on it, is
 * answered as it stands by the other (its zone sync hears of the change through LISTEN/NOTIFY),
 * by DNS worker threads on one node and in-process DNS on the other.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeMessage, type Message } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { udpExchange } from '../helpers/dns-clients.ts'
import { postgresUnavailable } from '../helpers/engines.ts'
import { startTestService, type TestService } from '../helpers/service.ts'
import { sampleZone, storeZone } from '../helpers/stored-zones.ts'

const A = 1; const SOA = 6
const NOERROR = 0
const PASSWORD = 'nodes password'
/** How long a node may take to serve what another node committed (far more than it needs). */
const DEADLINE_MS = 20_000

function query (name: string, type: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: 7, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  return w.finish()
}

/** What `node` answers now, as `rcode` and the answer section's rdata (dotted IPv4 for A). */
async function ask (node: TestService, name: string, type: number): Promise<{ rcode: number, answers: string[] }> {
  const reply: Message = decodeMessage((await udpExchange('127.0.0.1', node.service.dns.port, query(name, type))).reply)
  return { rcode: reply.rcode, answers: reply.answers.map(r => type === A ? [...r.rdata].join('.') : `${r.type}`) }
}

/** Ask until `node` gives the expected answer; fails with the last answer after the deadline. */
async function answers (node: TestService, label: string, name: string, type: number, expected: { rcode: number, answers: string[] }): Promise<void> {
  const until = Date.now() + DEADLINE_MS
  for (;;) {
    const got = await ask(node, name, type)
    if (got.rcode === expected.rcode && JSON.stringify(got.answers) === JSON.stringify(expected.answers)) return
    if (Date.now() > until) assert.deepEqual(got, expected, `${name} ${type} as answered by ${label}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

/** An HTTP client of a node, signed in as `admin`. */
async function api (node: TestService) {
  const base = `http://127.0.0.1:${node.service.httpPort}`
  const login = await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: PASSWORD }) })
  assert.equal(login.status, 200)
  const { accessToken } = await login.json() as { accessToken: string }
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }
  return async (method: string, path: string, body?: unknown): Promise<void> => {
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${await res.text()}`)
  }
}

const noPostgres = await postgresUnavailable()
if (noPostgres !== undefined) console.log(`# PostgreSQL suite SKIPPED: ${noPostgres}`)

describe('postgres: two nodes on one database serve each other\'s zones', { skip: noPostgres }, () => {
  let ams: TestService
  let lax: TestService
  before(async () => {
    // DNS worker threads on one node, in-process DNS on the other.
    ams = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_NODE_NAME: 'ams', ZONAL_DNS_RRL: '0' }, 'postgres')
    lax = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '0', ZONAL_NODE_NAME: 'lax', ZONAL_DNS_RRL: '0', ZONAL_DATABASE_URL: ams.db.url })
  })
  after(async () => {
    await lax?.stop()
    await ams?.stop()
  })

  for (const [from, to] of [['ams', 'lax'], ['lax', 'ams']] as const) {
    const node = (name: 'ams' | 'lax'): TestService => name === 'ams' ? ams : lax
    const nameOf = (n: TestService): string => n === ams ? 'ams' : 'lax'

    it(`a zone stored on ${from} with its records, then changed through ${from}'s API, is answered by ${to}`, async () => {
      const zone = `stored-${from}.test.`
      // Enough records that writing them takes a while: another node must never serve the zone
      // without them (its row and its records are one commit). www keeps its AAAA: NODATA for A.
      await storeZone(node(from).service.store, 'default', zone, sampleZone(zone, 3000))
      for (const n of [ams, lax]) {
        await answers(n, nameOf(n), zone, SOA, { rcode: NOERROR, answers: [`${SOA}`] })
        await answers(n, nameOf(n), `host2999.${zone}`, A, { rcode: NOERROR, answers: ['198.51.100.249'] })
      }
      const call = await api(node(from))
      await call('POST', `/zones/${zone}/rrsets/A/added`, { ttl: 300, rdata: ['192.0.2.99'] })
      await call('DELETE', `/zones/${zone}/rrsets/A/www`)
      for (const n of [node(to), node(from)]) {
        await answers(n, nameOf(n), `added.${zone}`, A, { rcode: NOERROR, answers: ['192.0.2.99'] })
        await answers(n, nameOf(n), `www.${zone}`, A, { rcode: NOERROR, answers: [] })
      }
    })

    it(`a zone created through ${from}'s API, then changed through it, is answered by ${to}`, async () => {
      const zone = `created-${from}.test.`
      const call = await api(node(from))
      await call('POST', '/zones', { properties: { name: zone, accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
      await answers(node(to), to, zone, SOA, { rcode: NOERROR, answers: [`${SOA}`] })
      await call('POST', `/zones/${zone}/rrsets/A/www`, { ttl: 300, rdata: ['192.0.2.80'] })
      await answers(node(to), to, `www.${zone}`, A, { rcode: NOERROR, answers: ['192.0.2.80'] })
      await call('PUT', `/zones/${zone}/rrsets/A/www`, { ttl: 300, rdata: ['192.0.2.81'] })
      await answers(node(to), to, `www.${zone}`, A, { rcode: NOERROR, answers: ['192.0.2.81'] })
      await call('POST', `/zones/${zone}/rrsets/A/mail`, { ttl: 300, rdata: ['192.0.2.25'] })
      for (const n of [node(to), node(from)]) {
        await answers(n, nameOf(n), `mail.${zone}`, A, { rcode: NOERROR, answers: ['192.0.2.25'] })
        await answers(n, nameOf(n), `www.${zone}`, A, { rcode: NOERROR, answers: ['192.0.2.81'] })
      }
    })
  }
})
