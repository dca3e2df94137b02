import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import { handleQuery, type Client } from '../../../src/dns/server/handle-query.ts'
import { decodeMessage, type WireRecord } from '../../../src/dns/wire/message.ts'
import { MessageWriter } from '../../../src/dns/wire/writer.ts'
import { nameToString, parseName, wireKey } from '../../../src/zone/name.ts'
import { formatRdata, parseTypeName, typeName } from '../../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'

const UDP: Client = { transport: 'udp', address: '127.0.0.1', port: 5300, family: 'IPv4' }
const TCP: Client = { ...UDP, transport: 'tcp' }

/** A DNAME target of 196 octets: a name of 63 octets in front of it does not fit in 255. */
const LONG = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}`
const OVERFLOW = `${'e'.repeat(63)}.long.example.org.`

/** A shared zone fixture (CoreDNS `lookup_test.go` style). */
const ZONE = `$ORIGIN example.org.
$TTL 3600
@            IN SOA   ns1 hostmaster 2024010101 7200 3600 1209600 300
@            IN NS    ns1
@            IN NS    ns2.example.net.
@            IN MX    10 mail
@            IN A     192.0.2.1
ns1          IN A     192.0.2.53
mail         IN A     192.0.2.25
mail         IN AAAA  2001:db8::25
www          IN CNAME web
web          IN A     192.0.2.80
a.b.c        IN A     192.0.2.9
loop1        IN CNAME loop2
loop2        IN CNAME loop1
out          IN CNAME www.example.net.
*.wild       IN A     192.0.2.99
*.wild       IN TXT   "wildcard"
sub.wild     IN A     192.0.2.98
*.cwild      IN CNAME web
sub          IN NS    ns.sub
sub          IN NS    ns.elsewhere.example.net.
ns.sub       IN A     192.0.2.200
_sip._tcp    IN SRV   10 5 5060 mail
old          IN DNAME new.example.org.
x.new        IN A     192.0.2.77
self         IN CNAME self
x.*.went     IN TXT   "under a wildcard"
long         IN DNAME ${LONG}.example.org.
`

function index (): ZoneIndex {
  const origin = parseName('example.org.')
  const { records, problems } = parseZoneText(ZONE, { origin, includes: 'refuse' })
  assert.deepEqual(problems, [])
  const idx = new ZoneIndex()
  idx.set(ZoneData.from(origin, 2024010101, 1, records))
  return idx
}

function query (name: string, type: string, edns = true): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: 42, qr: false, opcode: 0, aa: false, tc: false, rd: true, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type: parseTypeName(type)!, class: 1 })
  if (edns) w.opt({ udpSize: 4096, extendedRcode: 0, version: 0, dnssecOk: false, options: [] })
  return w.finish()
}

const show = (r: WireRecord) => `${nameToString(r.name)} ${r.ttl} ${typeName(r.type)} ${formatRdata(r.type, r.rdata)}`

interface Case {
  q: [string, string]
  rcode: number
  aa?: boolean
  answer?: string[]
  authority?: string[]
  additional?: string[]
}

const SOA = 'example.org. 300 SOA ns1.example.org. hostmaster.example.org. 2024010101 7200 3600 1209600 300'

const cases: Case[] = [
  { q: ['example.org.', 'SOA'], rcode: 0, answer: ['example.org. 3600 SOA ns1.example.org. hostmaster.example.org. 2024010101 7200 3600 1209600 300'] },
  { q: ['example.org.', 'NS'], rcode: 0, answer: ['example.org. 3600 NS ns1.example.org.', 'example.org. 3600 NS ns2.example.net.'], additional: ['ns1.example.org. 3600 A 192.0.2.53'] },
  // The owner as the zone spells it, whatever the question's case (RFC 4343 §4.1; BIND alike).
  { q: ['EXAMPLE.org.', 'A'], rcode: 0, answer: ['example.org. 3600 A 192.0.2.1'] },
  { q: ['example.org.', 'MX'], rcode: 0, answer: ['example.org. 3600 MX 10 mail.example.org.'], additional: ['mail.example.org. 3600 A 192.0.2.25', 'mail.example.org. 3600 AAAA 2001:db8::25'] },
  { q: ['example.org.', 'TXT'], rcode: 0, answer: [], authority: [SOA] },
  { q: ['nothing.example.org.', 'A'], rcode: 3, answer: [], authority: [SOA] },
  { q: ['b.c.example.org.', 'A'], rcode: 0, answer: [], authority: [SOA] },
  { q: ['c.example.org.', 'A'], rcode: 0, answer: [], authority: [SOA] },
  { q: ['www.example.org.', 'A'], rcode: 0, answer: ['www.example.org. 3600 CNAME web.example.org.', 'web.example.org. 3600 A 192.0.2.80'] },
  { q: ['www.example.org.', 'CNAME'], rcode: 0, answer: ['www.example.org. 3600 CNAME web.example.org.'] },
  { q: ['www.example.org.', 'AAAA'], rcode: 0, answer: ['www.example.org. 3600 CNAME web.example.org.'], authority: [SOA] },
  { q: ['out.example.org.', 'A'], rcode: 0, answer: ['out.example.org. 3600 CNAME www.example.net.'] },
  { q: ['loop1.example.org.', 'A'], rcode: 2, aa: false },
  { q: ['host.wild.example.org.', 'A'], rcode: 0, answer: ['host.wild.example.org. 3600 A 192.0.2.99'] },
  { q: ['a.b.wild.example.org.', 'TXT'], rcode: 0, answer: ['a.b.wild.example.org. 3600 TXT "wildcard"'] },
  { q: ['host.wild.example.org.', 'MX'], rcode: 0, answer: [], authority: [SOA] },
  // RFC 4592 §2.2.1: an existing name blocks the wildcard.
  { q: ['sub.wild.example.org.', 'TXT'], rcode: 0, answer: [], authority: [SOA] },
  { q: ['x.sub.wild.example.org.', 'A'], rcode: 3, answer: [], authority: [SOA] },
  { q: ['wild.example.org.', 'A'], rcode: 0, answer: [], authority: [SOA] },
  { q: ['any.cwild.example.org.', 'A'], rcode: 0, answer: ['any.cwild.example.org. 3600 CNAME web.example.org.', 'web.example.org. 3600 A 192.0.2.80'] },
  { q: ['sub.example.org.', 'A'], rcode: 0, aa: false, answer: [], authority: ['sub.example.org. 3600 NS ns.sub.example.org.', 'sub.example.org. 3600 NS ns.elsewhere.example.net.'], additional: ['ns.sub.example.org. 3600 A 192.0.2.200'] },
  { q: ['deep.in.sub.example.org.', 'MX'], rcode: 0, aa: false, answer: [], authority: ['sub.example.org. 3600 NS ns.sub.example.org.', 'sub.example.org. 3600 NS ns.elsewhere.example.net.'], additional: ['ns.sub.example.org. 3600 A 192.0.2.200'] },
  { q: ['_sip._tcp.example.org.', 'SRV'], rcode: 0, answer: ['_sip._tcp.example.org. 3600 SRV 10 5 5060 mail.example.org.'], additional: ['mail.example.org. 3600 A 192.0.2.25', 'mail.example.org. 3600 AAAA 2001:db8::25'] },
  { q: ['x.old.example.org.', 'A'], rcode: 0, answer: ['old.example.org. 3600 DNAME new.example.org.', 'x.old.example.org. 3600 CNAME x.new.example.org.', 'x.new.example.org. 3600 A 192.0.2.77'] },
  { q: ['old.example.org.', 'DNAME'], rcode: 0, answer: ['old.example.org. 3600 DNAME new.example.org.'] },
  { q: ['example.org.', 'ANY'], rcode: 0, answer: ['example.org. 3600 A 192.0.2.1'] },
  // RFC 1034 §4.3.2 step 3a: ANY matches the CNAME, which is not followed.
  { q: ['www.example.org.', 'ANY'], rcode: 0, answer: ['www.example.org. 3600 CNAME web.example.org.'] },
  // A synthesized CNAME answers CNAME and ANY itself (RFC 6672 §3.2 with RFC 1034 §4.3.2 step 3a).
  { q: ['x.old.example.org.', 'CNAME'], rcode: 0, answer: ['old.example.org. 3600 DNAME new.example.org.', 'x.old.example.org. 3600 CNAME x.new.example.org.'] },
  { q: ['y.old.example.org.', 'ANY'], rcode: 0, answer: ['old.example.org. 3600 DNAME new.example.org.', 'y.old.example.org. 3600 CNAME y.new.example.org.'] },
  { q: ['y.old.example.org.', 'A'], rcode: 3, answer: ['old.example.org. 3600 DNAME new.example.org.', 'y.old.example.org. 3600 CNAME y.new.example.org.'], authority: [SOA] },
  // RFC 6672 §2.2: a substitution longer than 255 octets is YXDOMAIN, the DNAME its proof.
  { q: [OVERFLOW, 'A'], rcode: 6, answer: [`long.example.org. 3600 DNAME ${LONG}.example.org.`] },
  // RFC 4592 §2.2.2: `*.went` exists as an empty non-terminal, so it matches with no data.
  { q: ['y.went.example.org.', 'A'], rcode: 0, answer: [], authority: [SOA] },
  { q: ['x.*.went.example.org.', 'TXT'], rcode: 0, answer: ['x.*.went.example.org. 3600 TXT "under a wildcard"'] },
  { q: ['z.x.*.went.example.org.', 'A'], rcode: 3, answer: [], authority: [SOA] },
  // A CNAME to itself is a loop (RFC 1034 §3.6.2).
  { q: ['self.example.org.', 'A'], rcode: 2, aa: false },
  { q: ['self.example.org.', 'CNAME'], rcode: 0, answer: ['self.example.org. 3600 CNAME self.example.org.'] },
  { q: ['example.com.', 'A'], rcode: 5, aa: false },
  { q: ['org.', 'SOA'], rcode: 5, aa: false }
]

describe('dns answers (RFC 1034 §4.3.2 table)', () => {
  const idx = index()
  for (const c of cases) {
    it(`${c.q[0]} ${c.q[1]} → rcode ${c.rcode}`, () => {
      const res = decodeMessage(handleQuery(query(c.q[0], c.q[1]), UDP, { index: idx })!)
      assert.equal(res.rcode, c.rcode)
      assert.equal(res.qr, true)
      assert.equal(res.id, 42)
      assert.equal(res.aa, c.aa ?? true)
      assert.equal(nameToString(res.questions[0]!.name), c.q[0], 'question case preserved')
      if (c.answer !== undefined) assert.deepEqual(res.answers.map(show), c.answer)
      assert.deepEqual(res.authority.map(show), c.authority ?? [])
      if (c.additional !== undefined) assert.deepEqual(res.additional.map(show), c.additional)
    })
  }
})

describe('dns protocol rules', () => {
  const idx = index()
  it('answers FORMERR to malformed queries, NOTIMP to other opcodes, BADVERS to EDNS version 1, nothing to responses', () => {
    const bad = query('example.org.', 'A')
    const truncated = bad.slice(0, bad.length - 3)
    assert.equal(decodeMessage(handleQuery(truncated, UDP, { index: idx })!).rcode, 1)
    const update = query('example.org.', 'SOA')
    update[2] = (update[2]! & 0x87) | (5 << 3) // UPDATE (RFC 2136) is not implemented
    assert.equal(decodeMessage(handleQuery(update, UDP, { index: idx })!).rcode, 4)
    const v1 = query('example.org.', 'A')
    v1[v1.length - 5] = 1 // OPT TTL: the version octet
    const badvers = decodeMessage(handleQuery(v1, UDP, { index: idx })!)
    assert.equal(badvers.rcode, 16)
    const response = query('example.org.', 'A')
    response[2]! |= 0x80
    assert.equal(handleQuery(response, UDP, { index: idx }), undefined)
  })

  it('answers a repeated question from its cached reply with the new id, RD bit and spelling', () => {
    const first = query('www.example.org.', 'A')
    const again = query('WWW.Example.ORG.', 'A')
    again[0] = 0x77
    again[1] = 0x01
    again[2]! &= 0xfe
    const a = decodeMessage(handleQuery(first, UDP, { index: idx })!)
    const b = decodeMessage(handleQuery(again, UDP, { index: idx })!)
    assert.equal(b.id, 0x7701)
    assert.equal(b.rd, false)
    assert.equal(a.rd, true)
    assert.equal(nameToString(b.questions[0]!.name), 'WWW.Example.ORG.')
    assert.ok(idx.replies.size > 0)
    // The cached reply is byte for byte what a fresh lookup gives for the same request.
    assert.deepEqual(Uint8Array.from(handleQuery(again, UDP, { index: idx })!), Uint8Array.from(handleQuery(again, UDP, { index: index() })!))
  })

  it('serves RD pools in their order: ROUND_ROBIN rotates, RANDOM shuffles, FIXED stays; such answers are not cached', () => {
    const origin = parseName('pool.test.')
    const text = '$TTL 60\n@ IN SOA ns h 1 1 1 1 1\n@ IN NS ns\nns IN A 192.0.2.1\nrr IN A 10.0.0.1\nrr IN A 10.0.0.2\nrr IN A 10.0.0.3\nfx IN A 10.0.1.1\nfx IN A 10.0.1.2\n'
    const records = parseZoneText(text, { origin, includes: 'refuse' }).records
    const orders = new Map([[`${wireKey(parseName('rr.pool.test.'))}/1`, 'ROUND_ROBIN' as const], [`${wireKey(parseName('fx.pool.test.'))}/1`, 'FIXED' as const]])
    const pools = new ZoneIndex()
    pools.set(ZoneData.from(origin, 1, 1, records, orders))
    const firsts = [0, 1, 2, 3].map(() => formatRdata(1, decodeMessage(handleQuery(query('rr.pool.test.', 'A'), UDP, { index: pools })!).answers[0]!.rdata))
    assert.deepEqual(firsts, ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.1'])
    const fixed = [0, 1].map(() => decodeMessage(handleQuery(query('fx.pool.test.', 'A'), UDP, { index: pools })!).answers.map(show))
    assert.deepEqual(fixed[0], fixed[1])
    assert.ok([...pools.replies.keys()].some(k => k.includes('fx')), 'fixed answers are cached')
    assert.ok(![...pools.replies.keys()].some(k => k.includes('rr')), 'rotating answers are not cached')
  })

  it('answers SERVFAIL for a zone with no data yet (a secondary never transferred)', () => {
    const empty = new ZoneIndex()
    empty.set(new ZoneData(parseName('second.test.'), 0, 1))
    for (const name of ['second.test.', 'www.second.test.']) {
      const res = decodeMessage(handleQuery(query(name, 'A'), UDP, { index: empty })!)
      assert.equal(res.rcode, 2)
      assert.equal(res.aa, false)
    }
    assert.equal(empty.replies.size, 0, 'not cached: the transfer may arrive any moment')
  })

  it('answers SERVFAIL for an expired secondary zone', () => {
    const idx = index()
    const zone = idx.find(parseName('example.org.'))!
    assert.equal(decodeMessage(handleQuery(query('www.example.org.', 'A'), UDP, { index: idx })!).rcode, 0)
    zone.expired = true
    zone.epoch++
    assert.equal(decodeMessage(handleQuery(query('www.example.org.', 'A'), UDP, { index: idx })!).rcode, 2)
  })

  it('truncates over UDP without EDNS and answers in full over TCP', () => {
    const origin = parseName('big.test.')
    let text = '$TTL 60\n@ IN SOA ns h 1 1 1 1 1\n@ IN NS ns\nns IN A 192.0.2.1\n'
    for (let i = 0; i < 60; i++) text += `many IN A 10.0.0.${i}\n`
    const big = new ZoneIndex()
    big.set(ZoneData.from(origin, 1, 1, parseZoneText(text, { origin, includes: 'refuse' }).records))
    const udp = decodeMessage(handleQuery(query('many.big.test.', 'A', false), UDP, { index: big })!)
    assert.equal(udp.tc, true)
    const tcp = decodeMessage(handleQuery(query('many.big.test.', 'A', false), TCP, { index: big })!)
    assert.equal(tcp.tc, false)
    assert.equal(tcp.answers.length, 60)
  })

  it('never throws on random and mutated packets', () => {
    let seed = 7
    const rand = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed }
    const base = query('host.wild.example.org.', 'A')
    for (let i = 0; i < 5000; i++) {
      const msg = Uint8Array.from(base)
      for (let k = 0; k < 1 + rand() % 6; k++) msg[rand() % msg.length] = rand() & 0xff
      const out = handleQuery(i % 3 === 0 ? msg.subarray(0, rand() % msg.length) : msg, UDP, { index: idx })
      if (out !== undefined) decodeMessage(out)
    }
  })
})
