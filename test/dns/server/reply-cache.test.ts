/**
 * The reply cache through `handleQuery`: one entry per question whatever its case ("0x20"
 * resolvers), every reply byte for byte what a fresh lookup gives for that spelling, zones
 * invalidated one at a time, EDNS and size variants kept apart.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import { handleQuery, type Client } from '../../../src/dns/server/handle-query.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { MessageWriter } from '../../../src/dns/wire/writer.ts'
import { parseName } from '../../../src/zone/name.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { formatRdata, parseTypeName } from '../../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { mixedCaseZone } from '../../helpers/dns-clients.ts'

const UDP: Client = { transport: 'udp', address: '127.0.0.1', port: 5300, family: 'IPv4' }
const TCP: Client = { ...UDP, transport: 'tcp' }

/** Owners and rdata names in mixed case, wildcards, a DNAME, a delegation: every place a name can be. */
const ZONE_A = mixedCaseZone(true)
const ZONE_B = `$ORIGIN example.net.
$TTL 3600
@            IN SOA   ns1 hostmaster 1 7200 3600 1209600 300
@            IN NS    ns1
ns1          IN A     192.0.2.1
www          IN A     192.0.2.2
`

function records (text: string, origin: string): ZoneRecord[] {
  const { records, problems } = parseZoneText(text, { origin: parseName(origin), includes: 'refuse' })
  assert.deepEqual(problems.filter(p => p.severity === 'error'), [])
  return records
}

function zoneA (): ZoneData {
  return ZoneData.from(parseName('example.org.'), 2024010101, 1, records(ZONE_A, 'example.org.'))
}

function zoneB (): ZoneData {
  return ZoneData.from(parseName('example.net.'), 1, 1, records(ZONE_B, 'example.net.'))
}

function fresh (): ZoneIndex {
  const index = new ZoneIndex()
  index.set(zoneA())
  index.set(zoneB())
  return index
}

function query (name: string, type: string, opts: { edns?: boolean, udpSize?: number, dnssecOk?: boolean, id?: number } = {}): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: opts.id ?? 42, qr: false, opcode: 0, aa: false, tc: false, rd: true, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type: parseTypeName(type)!, class: 1 })
  if (opts.edns !== false) w.opt({ udpSize: opts.udpSize ?? 1232, extendedRcode: 0, version: 0, dnssecOk: opts.dnssecOk === true, options: [] })
  return w.finish()
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/** A seeded PRNG (the same spellings every run). */
function prng (seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x80000000
  }
}

function randomCase (name: string, rand: () => number): string {
  return [...name].map(ch => rand() < 0.5 ? ch.toUpperCase() : ch.toLowerCase()).join('')
}

describe('reply cache (0x20 case, per-zone invalidation, variants)', () => {
  it('keeps one entry for one name asked in 200 spellings, each reply echoing its own question byte for byte', () => {
    const index = fresh()
    const rand = prng(3)
    const seen = new Set<string>()
    for (let i = 0; i < 200; i++) {
      const name = i === 0 ? 'www.example.org.' : randomCase('www.example.org.', rand)
      seen.add(name)
      const request = query(name, 'A', { id: i })
      const reply = handleQuery(request, UDP, { index })!
      // The question section is the request's, octet for octet.
      assert.equal(hex(reply.subarray(12, request.length - 11)), hex(request.subarray(12, request.length - 11)), name)
      assert.equal(hex(reply), hex(handleQuery(request, UDP, { index: fresh() })!), `${name}: the reply a fresh lookup gives`)
    }
    assert.ok(seen.size > 150)
    assert.equal(index.replies.size, 1, 'one entry for every spelling')
    assert.ok(index.replies.hits >= 190, `nearly all answered from the cache (${index.replies.hits} hits)`)
  })

  it('gives every spelling of every name and type the bytes a fresh lookup gives (answers, CNAME chains, wildcards, DNAME, referrals, negative answers)', () => {
    const names = ['example.org.', 'www.example.org.', 'web.example.org.', 'mixed.example.org.', 'c1.example.org.', 'x.old.example.org.', 'y.old.example.org.',
      'a.wild.example.org.', 'web.wild.example.org.', 'b.wild2.example.org.', 'foo.sub.example.org.', 'nothing.example.org.', 'mail.example.org.',
      '_sip._tcp.example.org.', 'org.example.org.', 'www.example.net.']
    const types = ['A', 'MX', 'NS', 'SOA', 'SRV', 'TXT', 'CNAME', 'DNAME']
    const index = fresh()
    const rand = prng(11)
    for (let round = 0; round < 12; round++) {
      for (const name of names) {
        for (const type of types) {
          // Lower case, upper case, the zone's spellings, and random ones.
          const spelled = round === 0 ? name : round === 1 ? name.toUpperCase() : randomCase(name, rand)
          const request = query(spelled, type, { id: round })
          assert.equal(hex(handleQuery(request, UDP, { index })!), hex(handleQuery(request, UDP, { index: fresh() })!), `${spelled} ${type}`)
        }
      }
    }
    assert.ok(index.replies.size <= names.length * types.length, 'no more entries than questions')
    assert.ok(index.replies.hits > names.length * types.length * 6, `answered from the cache (${index.replies.hits} hits)`)
  })

  it('keeps the zone\'s spelling where the question is spelled the same but for case; compression decides which spellings share a reply', () => {
    const index = fresh()
    handleQuery(query('MIXED.EXAMPLE.ORG.', 'A'), UDP, { index })
    // No suffix of either spelling is the zone's `MiXeD.example.org`: the same reply.
    const reply = decodeMessage(handleQuery(query('mixed.EXAMPLE.ORG.', 'A'), UDP, { index })!)
    assert.equal(index.replies.hits, 1)
    assert.equal(Buffer.from(reply.questions[0]!.name).toString('latin1'), Buffer.from(parseName('mixed.EXAMPLE.ORG.')).toString('latin1'))
    assert.equal(Buffer.from(reply.answers[0]!.name).toString('latin1'), Buffer.from(parseName('MiXeD.example.org.')).toString('latin1'))
    // `example.org` spelled as the zone does: the owner points into the question, another reply.
    const other = handleQuery(query('mixed.example.org.', 'A'), UDP, { index })!
    assert.equal(index.replies.hits, 1)
    assert.ok(other.length < handleQuery(query('mixed.EXAMPLE.ORG.', 'A'), UDP, { index })!.length, 'compressed onto the question')
    assert.equal(index.replies.size, 1)
  })

  it('answers a wildcard under the name as asked, from the cache too', () => {
    const index = fresh()
    handleQuery(query('a.wild.example.org.', 'A'), UDP, { index })
    const reply = decodeMessage(handleQuery(query('A.WiLd.Example.ORG.', 'A'), UDP, { index })!)
    assert.equal(index.replies.hits, 1)
    assert.equal(Buffer.from(reply.answers[0]!.name).toString('latin1'), Buffer.from(parseName('A.WiLd.Example.ORG.')).toString('latin1'))
  })

  it('answers a DNAME\'s synthesized CNAME with the question\'s spelling (such replies fit their own spelling only)', () => {
    const index = fresh()
    handleQuery(query('x.old.example.org.', 'A'), UDP, { index })
    const reply = decodeMessage(handleQuery(query('X.Old.example.org.', 'A'), UDP, { index })!)
    assert.equal(index.replies.hits, 0, 'another spelling is made afresh')
    const cname = reply.answers.find(r => r.type === 5)!
    assert.equal(Buffer.from(cname.name).toString('latin1'), Buffer.from(parseName('X.Old.example.org.')).toString('latin1'))
    assert.equal(formatRdata(5, cname.rdata), 'X.New.example.org.')
    handleQuery(query('X.Old.example.org.', 'A'), UDP, { index })
    assert.equal(index.replies.hits, 1, 'the same spelling again is a hit')
    assert.equal(index.replies.size, 1)
  })

  it('keeps zone B\'s replies when zone A changes in place, is replaced or removed, and never serves A\'s stale answers', () => {
    const index = fresh()
    const b = index.find(parseName('example.net.'))!
    const a = index.find(parseName('example.org.'))!
    const askB = (): string => hex(handleQuery(query('www.example.net.', 'A'), UDP, { index })!.subarray(2))
    const askA = () => decodeMessage(handleQuery(query('web.example.org.', 'A'), UDP, { index })!)
    const first = askB()
    assert.equal(askA().answers.length, 1)
    assert.equal(index.replies.entriesOf(b), 1)
    assert.equal(index.replies.entriesOf(a), 1)

    // A change applied in place (a record added): A's reply is stale, B's stays.
    const [added] = records('$ORIGIN example.org.\nweb 3600 IN A 192.0.2.81\n', 'example.org.')
    a.apply({ serialFrom: 2024010101, serialTo: 2024010102, removed: [], added: [added!] }, 2)
    assert.equal(index.replies.entriesOf(a), 0)
    assert.equal(index.replies.entriesOf(b), 1)
    assert.equal(askA().answers.length, 2, 'the new record is answered')
    let hits = index.replies.hits
    assert.equal(askB(), first)
    assert.equal(index.replies.hits, hits + 1, 'B answered from the cache')

    // A replaced by a reload: B stays.
    const reloaded = ZoneData.from(parseName('example.org.'), 2024010103, 3, records(ZONE_A.replace('192.0.2.80', '192.0.2.99'), 'example.org.'))
    index.set(reloaded)
    assert.equal(index.replies.entriesOf(b), 1)
    assert.deepEqual(askA().answers.map(r => formatRdata(1, r.rdata)), ['192.0.2.99'])
    hits = index.replies.hits
    askB()
    assert.equal(index.replies.hits, hits + 1)

    // A removed: REFUSED, not the cached answer; B stays.
    index.delete(parseName('example.org.'))
    assert.equal(askA().rcode, 5)
    assert.equal(index.replies.entriesOf(b), 1)
  })

  it('forgets the replies of the zone a new zone is cut from (its names change zone)', () => {
    const index = fresh()
    const a = index.find(parseName('example.org.'))!
    const b = index.find(parseName('example.net.'))!
    handleQuery(query('www.example.net.', 'A'), UDP, { index })
    assert.equal(decodeMessage(handleQuery(query('foo.sub.example.org.', 'A'), UDP, { index })!).aa, false, 'a referral')
    const child = ZoneData.from(parseName('sub.example.org.'), 1, 1, records('$ORIGIN sub.example.org.\n$TTL 60\n@ IN SOA ns h 1 1 1 1 1\n@ IN NS ns\nns IN A 192.0.2.200\nfoo IN A 192.0.2.201\n', 'sub.example.org.'))
    index.set(child)
    assert.equal(index.replies.entriesOf(a), 0)
    assert.equal(index.replies.entriesOf(b), 1)
    const answer = decodeMessage(handleQuery(query('foo.sub.example.org.', 'A'), UDP, { index })!)
    assert.equal(answer.aa, true)
    assert.deepEqual(answer.answers.map(r => formatRdata(1, r.rdata)), ['192.0.2.201'])
  })

  it('keeps apart replies by EDNS, DO bit, UDP size and transport; a truncated reply is not cached', () => {
    const origin = parseName('big.test.')
    let text = '$TTL 60\n@ IN SOA ns h 1 1 1 1 1\n@ IN NS ns\nns IN A 192.0.2.1\n'
    for (let i = 0; i < 40; i++) text += `many IN A 10.0.0.${i}\n`
    const index = new ZoneIndex()
    index.set(ZoneData.from(origin, 1, 1, records(text, 'big.test.')))
    const ask = (opts: Parameters<typeof query>[2], client = UDP) => decodeMessage(handleQuery(query('many.big.test.', 'A', opts), client, { index })!)
    for (let round = 0; round < 2; round++) {
      const plain = ask({ edns: false })
      assert.equal(plain.tc, true, 'no EDNS: 512 octets, truncated')
      assert.equal(plain.edns, undefined)
      const edns = ask({ udpSize: 1232 })
      assert.equal(edns.tc, false)
      assert.equal(edns.answers.length, 40)
      assert.equal(edns.edns?.dnssecOk, false)
      const withDo = ask({ udpSize: 1232, dnssecOk: true })
      assert.equal(withDo.edns?.dnssecOk, true)
      const tcp = ask({ edns: false }, TCP)
      assert.equal(tcp.tc, false)
      assert.equal(tcp.edns, undefined)
      const small = decodeMessage(handleQuery(query('ns.big.test.', 'A', { edns: false }), UDP, { index })!)
      assert.equal(small.edns, undefined)
      const big = decodeMessage(handleQuery(query('ns.big.test.', 'A', { udpSize: 4096 }), UDP, { index })!)
      assert.equal(big.edns?.udpSize, 1232)
    }
    // EDNS, EDNS+DO, TCP for many; no EDNS and 4096 for ns: five entries, the truncated reply none.
    assert.equal(index.replies.size, 5)
    assert.equal(index.replies.hits, 5)
  })
})
