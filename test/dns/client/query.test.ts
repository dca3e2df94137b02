import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { query, QueryError, queryMessage, queryWithTcpFallback } from '../../../src/dns/client/query.ts'
import { Rcode } from '../../../src/dns/wire/constants.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { readSoa } from '../../../src/zone/rdata/soa.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { startHealthWorld, WORLD, type HealthWorld } from '../../helpers/health-world.ts'
import { bindSkip, freeDnsPort } from '../../helpers/named.ts'

describe('queryMessage', () => {
  it('writes one question with RD as asked and an OPT record', () => {
    const m = decodeMessage(queryMessage(4242, parseName('Example.ORG.'), RRType.MX, { recursionDesired: true }))
    assert.equal(m.id, 4242)
    assert.equal(m.rd, true)
    assert.equal(m.qr, false)
    assert.equal(nameToString(m.questions[0]!.name), 'Example.ORG.')
    assert.equal(m.questions[0]!.type, RRType.MX)
    assert.equal(m.edns?.udpSize, 1232)
    const plain = decodeMessage(queryMessage(1, parseName('example.org.'), RRType.A, { ednsUdpSize: 0 }))
    assert.equal(plain.rd, false)
    assert.equal(plain.edns, undefined)
  })
})

describe('query against BIND named', { skip: bindSkip('named') }, () => {
  let world: HealthWorld
  before(async () => { world = await startHealthWorld({ 'child.test.': ['ns.ext.test.'] }) })
  after(async () => { await world?.stop() })

  it('asks an authoritative server over UDP and TCP: AA, no RA, the SOA in the answer', async () => {
    for (const transport of ['udp', 'tcp'] as const) {
      const m = await query({ host: WORLD.root, port: world.port }, parseName('test.'), RRType.SOA, { transport })
      assert.equal(m.rcode, Rcode.NOERROR)
      assert.equal(m.aa, true, transport)
      assert.equal(m.ra, false)
      assert.equal(readSoa(m.answers[0]!.rdata).serial, 1)
    }
  })

  it('gets a referral (no AA, NS in authority) for a delegated child, and NXDOMAIN for a name that does not exist', async () => {
    const referral = await query({ host: WORLD.root, port: world.port }, parseName('child.test.'), RRType.NS)
    assert.equal(referral.aa, false)
    assert.deepEqual(referral.authority.map(r => r.type), [RRType.NS])
    const missing = await query({ host: WORLD.root, port: world.port }, parseName('nothing.test.'), RRType.A)
    assert.equal(missing.rcode, Rcode.NXDOMAIN)
    assert.equal(missing.aa, true)
  })

  it('asks the resolver with RD: RA set and the address resolved through the delegation', async () => {
    const m = await queryWithTcpFallback({ host: '127.0.0.1', port: Number(world.resolver.split(':')[1]) }, parseName('alias.ext.test.'), RRType.A, { recursionDesired: true })
    assert.equal(m.ra, true)
    assert.deepEqual(m.answers.map(r => r.type), [RRType.CNAME, RRType.A])
  })

  it('times out after its retries when nothing answers, and reports a refused TCP connection', async () => {
    const port = await freeDnsPort()
    await assert.rejects(query({ host: '127.0.0.1', port }, parseName('test.'), RRType.SOA, { timeoutMs: 100, retries: 1 }),
      (err: unknown) => err instanceof QueryError && (err.reason === 'timeout' || err.reason === 'network'))
    await assert.rejects(query({ host: '127.0.0.1', port }, parseName('test.'), RRType.SOA, { transport: 'tcp', timeoutMs: 500 }),
      (err: unknown) => err instanceof QueryError && err.reason === 'network')
  })
})
