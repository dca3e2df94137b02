/**
 * Differential test against BIND: the same zone text served by `named` (type primary,
 * `minimal-responses yes;`) and by our answer path, and a few hundred generated queries sent to
 * both over UDP. Compared per query: the rcode, the QR, AA, TC, RD and RA flags, and the answer
 * and authority sections as sorted lists of owner/type/TTL/rdata (order inside a section and the
 * additional section are not compared; a truncated answer is compared by rcode and flags only,
 * RFC 2181 §9).
 *
 * Ours is loaded the simplest faithful way: the zone text through our zone-file parser into a
 * `ZoneData` and a `ZoneIndex`, served by our UDP listener — exactly what the service builds
 * from the store, without the API's zone checks (which would refuse some of the odd data on
 * purpose: CNAME loops, a DNAME with records under it, data under a wildcard).
 *
 * The zone exercises hits, NXDOMAIN, NODATA, CNAME chains (in the zone, out of it, into a
 * delegation, a wildcard and a DNAME, to a missing name, loops), wildcards (closest encloser,
 * wildcard with children, empty non-terminals, wildcard CNAME), delegations (referral, glue in
 * and out of bailiwick, names below a cut, DS at a cut), DNAME (at and below its owner, out of
 * the zone, overflowing names), MX/SRV/NS targets, big rrsets (TC), case variations, ANY, and
 * names outside the zone. Queries are names × types from a seeded PRNG, with random case, RD
 * and EDNS.
 *
 * Names (owners and the names in rdata) compare with their case: both servers keep the zone's
 * spelling (RFC 4343 §4.1) and compress only onto the same spelling. One comparison rule: ANY,
 * which we answer with one rrset (RFC 8482 §4.2) and named with all, passes when ours is one
 * whole rrset of named's answer. Where we deliberately answer differently from named, the
 * difference is listed in `EXCEPTIONS` with its reason (CNAME loops, chains longer than BIND's
 * restart limit, the SOA TTL in negative answers to SOA questions, the spelling of a wildcard
 * answer's owner); any other difference fails the test, and so does an exception no query needs
 * any more.
 */
import assert from 'node:assert/strict'
import { createSocket, type Socket } from 'node:dgram'
import { after, before, describe, it } from 'node:test'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { decodeMessage, type Message, type WireRecord } from '../../../src/dns/wire/message.ts'
import { MessageWriter } from '../../../src/dns/wire/writer.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { formatRdata, parseTypeName, typeName } from '../../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { bindSkip, startNamed, type Named } from '../../helpers/named.ts'
import { serveInWorkers, type WorkerServer } from '../../helpers/dns-workers.ts'

const skip = bindSkip('named')

const ORIGIN = 'example.org.'
const LONG = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}`

const ZONE = `$ORIGIN example.org.
$TTL 3600
@            IN SOA   ns1 hostmaster 2024010101 7200 3600 1209600 300
@            IN NS    ns1
@            IN NS    ns2.example.net.
@            IN MX    10 mail
@            IN MX    20 mail.example.net.
@            IN A     192.0.2.1
@            IN TXT   "apex"
ns1          IN A     192.0.2.53
ns1          IN AAAA  2001:db8::53
mail         IN A     192.0.2.25
mail         IN AAAA  2001:db8::25
www          IN CNAME web
web     300  IN A     192.0.2.80
web          IN AAAA  2001:db8::80
MiXeD        IN A     192.0.2.44
multi        IN A     192.0.2.45
multi        IN AAAA  2001:db8::45
multi        IN TXT   "multi"
multi        IN MX    5 mail
host         IN HINFO "PC" "Unix"
1.2.0.192    IN PTR   host
; CNAME chains
c1           IN CNAME c2
c2      60   IN CNAME c3
c3           IN CNAME www
out          IN CNAME www.example.net.
dangling     IN CNAME nowhere
tosub        IN CNAME host.sub
towild       IN CNAME x.wild
todname      IN CNAME y.old
toapex       IN CNAME @
tocout       IN CNAME q.cout
${Array.from({ length: 12 }, (_, i) => `chain${i} IN CNAME chain${i + 1}`).join('\n')}
chain12      IN CNAME web
loop1        IN CNAME loop2
loop2        IN CNAME loop1
self         IN CNAME self
; empty non-terminals
a.b.c        IN A     192.0.2.9
; wildcards
*.wild       IN A     192.0.2.99
*.wild       IN TXT   "wildcard"
sub.wild     IN A     192.0.2.98
*.cwild      IN CNAME web
*.cout       IN CNAME www.example.net.
x.*.went     IN TXT   "under a wildcard"
*.deep.wc    IN A     192.0.2.66
y.z.wc       IN TXT   "z"
*.wc         IN MX    10 mail
; delegations
sub          IN NS    ns.sub
sub          IN NS    ns.elsewhere.example.net.
sub          IN DS    12345 8 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE3A4C5E4B5E4C9B8F0E5D4C3B
ns.sub       IN A     192.0.2.200
deleg2       IN NS    ns1
deleg2       IN NS    ns.deleg2.example.net.
; DNAME
old          IN DNAME new
x.new        IN A     192.0.2.77
y.new        IN A     192.0.2.78
ext          IN DNAME example.net.
dn2          IN DNAME new
dn2          IN A     192.0.2.5
long         IN DNAME ${LONG}.example.org.
; SRV
_sip._tcp    IN SRV   10 5 5060 mail
_sip._tcp    IN SRV   20 5 5060 sip.example.net.
; big rrsets
${Array.from({ length: 40 }, (_, i) => `many IN A 10.0.0.${i}`).join('\n')}
${Array.from({ length: 30 }, (_, i) => `big IN TXT "${String(i).padStart(2, '0')}${'x'.repeat(60)}"`).join('\n')}
`

/** Names asked about (relative to the origin unless they end in a dot). */
const NAMES = [
  '@', 'ns1', 'mail', 'www', 'web', 'mixed', 'MiXeD', 'multi', 'host', '1.2.0.192', 'nothing', 'x.nothing',
  'c1', 'c2', 'c3', 'out', 'dangling', 'tosub', 'towild', 'todname', 'toapex', 'tocout', 'loop1', 'loop2', 'self',
  'a.b.c', 'b.c', 'c', 'x.a.b.c', 'x.b.c',
  'host.wild', 'a.b.wild', 'wild', '*.wild', 'sub.wild', 'x.sub.wild', 'any.cwild', 'cwild', 'q.cout',
  'x.*.went', '*.went', 'y.went', 'went', 'deep.wc', 'q.deep.wc', 'z.wc', 'q.z.wc', 'y.z.wc', 'q.wc', 'wc',
  'sub', 'ns.sub', 'host.sub', 'a.b.sub', 'deleg2', 'x.deleg2',
  'old', 'x.old', 'y.old', 'z.old', 'a.x.old', 'new', 'x.new', 'ext', 'www.ext', 'dn2', 'q.dn2',
  'chain0', 'chain1', 'chain2', 'chain3', 'chain4', 'chain5',
  'q.long', `${'d'.repeat(50)}.long`, `${'e'.repeat(63)}.long`, 'long',
  '_sip._tcp', '_tcp', 'many', 'big',
  'example.com.', 'www.example.com.', 'org.', 'example.net.', 'zz.example.org.example.com.'
]

const TYPES = ['A', 'AAAA', 'NS', 'SOA', 'CNAME', 'DNAME', 'MX', 'TXT', 'SRV', 'DS', 'PTR', 'HINFO', 'ANY', 'CAA', 'TYPE65280']

/** Deterministic PRNG (mulberry32). */
function prng (seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Query { name: string, type: string, rd: boolean, edns: boolean }

/** Questions always asked, whatever the PRNG picks: one per behaviour named in the header. */
const FIXED: [string, string, boolean?][] = [
  ['@', 'SOA'], ['@', 'NS'], ['@', 'MX'], ['_sip._tcp', 'SRV'], ['1.2.0.192', 'PTR'], ['web', 'AAAA'],
  ['sub', 'NS'], ['sub', 'DS'], ['ns.sub', 'A'], ['x.sub', 'DS'], ['deleg2', 'DS'], ['deleg2', 'NS'],
  ['old', 'DNAME'], ['x.old', 'CNAME'], ['x.old', 'DNAME'], ['dn2', 'A'], ['www', 'CNAME'], ['self', 'CNAME'],
  ['*.wild', 'TXT'], ['host.wild', 'TXT'], ['q.wc', 'MX'], ['x.*.went', 'TXT'],
  ['many', 'A', false], ['many', 'A', true], ['big', 'TXT', true], ['big', 'TXT', false]
]

function queries (count: number, seed: number): Query[] {
  const rand = prng(seed)
  const out: Query[] = FIXED.map(([name, type, edns]) => ({ name, type, rd: false, edns: edns ?? true }))
  // Every name with A and ANY at least once, then random pairs.
  for (const name of NAMES) out.push({ name, type: 'A', rd: false, edns: true }, { name, type: 'ANY', rd: false, edns: true })
  while (out.length < count) {
    let name = NAMES[Math.floor(rand() * NAMES.length)]!
    // Random case (RFC 4343: names compare without case, the question's spelling is kept).
    if (rand() < 0.3) name = [...name].map(ch => rand() < 0.5 ? ch.toUpperCase() : ch.toLowerCase()).join('')
    out.push({ name, type: TYPES[Math.floor(rand() * TYPES.length)]!, rd: rand() < 0.5, edns: rand() < 0.7 })
  }
  return out
}

function absolute (name: string): string {
  if (name === '@') return ORIGIN
  return name.endsWith('.') ? name : `${name}.${ORIGIN}`
}

function encode (q: Query, id: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id, qr: false, opcode: 0, aa: false, tc: false, rd: q.rd, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(absolute(q.name)), type: parseTypeName(q.type)!, class: 1 })
  if (q.edns) w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: false, options: [] })
  return w.finish()
}

/** A UDP client that matches answers to questions by id. */
class Client {
  private readonly socket: Socket = createSocket('udp4')
  private readonly waiting = new Map<number, (m: Buffer) => void>()
  private next = 1

  constructor () {
    this.socket.on('message', (msg) => {
      const id = msg.readUInt16BE(0)
      this.waiting.get(id)?.(msg)
      this.waiting.delete(id)
    })
  }

  async ask (port: number, q: Query): Promise<Message> {
    const id = this.next++ & 0xffff
    const reply = new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id)
        reject(new Error(`no answer from port ${port} to ${q.name} ${q.type}`))
      }, 3000)
      this.waiting.set(id, (m) => {
        clearTimeout(timer)
        resolve(m)
      })
    })
    this.socket.send(encode(q, id), port, '127.0.0.1')
    return decodeMessage(await reply)
  }

  close (): void {
    this.socket.close()
  }
}

/** Types whose rdata is names and numbers only: lower-cased with the owner when case is ignored. */
const NAME_RDATA = new Set<number>([RRType.CNAME, RRType.DNAME, RRType.NS, RRType.MX, RRType.SRV, RRType.SOA, RRType.PTR])

/** A record as text, names spelled as sent (or in lower case, for the exception that needs it). */
function show (r: WireRecord, caseless = false): string {
  const rdata = formatRdata(r.type, r.rdata)
  if (!caseless) return `${nameToString(r.name)} ${r.ttl} ${typeName(r.type)} ${rdata}`
  return `${nameToString(r.name).toLowerCase()} ${r.ttl} ${typeName(r.type)} ${NAME_RDATA.has(r.type) ? rdata.toLowerCase() : rdata}`
}

interface Summary { rcode: number, flags: string, answer: string[], authority: string[] }

function summary (m: Message, caseless = false): Summary {
  const flags = [m.qr && 'qr', m.aa && 'aa', m.tc && 'tc', m.rd && 'rd', m.ra && 'ra'].filter(Boolean).join(' ')
  return { rcode: m.rcode, flags, answer: m.answers.map(r => show(r, caseless)).sort(), authority: m.authority.map(r => show(r, caseless)).sort() }
}

/** Why two answers to one query differ, or undefined when they agree (by the rules in the header). */
function difference (q: Query, ours: Message, theirs: Message, caseless = false): string | undefined {
  const a = summary(ours, caseless)
  const b = summary(theirs, caseless)
  if (a.rcode !== b.rcode || a.flags !== b.flags) return `rcode/flags: ours ${a.rcode} [${a.flags}], named ${b.rcode} [${b.flags}]`
  if (ours.tc) return undefined
  if (q.type.toUpperCase() === 'ANY' && a.rcode === 0 && a.answer.length > 0) {
    // RFC 8482 §4.2: we answer ANY with one whole rrset of the name (after any DNAME step); named
    // gives them all. Ours must be named's answer less the other rrsets of that last name.
    const extra = a.answer.find(r => !b.answer.includes(r))
    const missing = b.answer.filter(r => !a.answer.includes(r))
    const final = ours.answers[ours.answers.length - 1]!
    const finalKey = (r: string): string => r.split(' ')[0]!
    const finalOwner = nameToString(final.name).toLowerCase()
    if (extra !== undefined) return `ANY: ours has ${extra}, named has not (${b.answer.join(' | ')})`
    if (missing.some(r => finalKey(r) !== finalOwner || r.split(' ')[2] === typeName(final.type))) return `ANY: ours ${a.answer.join(' | ')} is not one whole rrset of named's ${b.answer.join(' | ')}`
  } else if (JSON.stringify(a.answer) !== JSON.stringify(b.answer)) {
    return `answer: ours ${a.answer.join(' | ') || '-'}; named ${b.answer.join(' | ') || '-'}`
  }
  if (JSON.stringify(a.authority) !== JSON.stringify(b.authority)) return `authority: ours ${a.authority.join(' | ') || '-'}; named ${b.authority.join(' | ') || '-'}`
  return undefined
}

/** What kind of answer a response is, to check that the generated queries reach them all. */
function kind (m: Message): string {
  if (m.tc) return 'TC'
  if (m.rcode !== 0) return ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN'][m.rcode] ?? String(m.rcode)
  if (!m.aa && m.authority.some(r => r.type === RRType.NS)) return 'referral'
  return m.answers.length === 0 ? 'NODATA' : 'NOERROR'
}

/** A deliberate difference from named: why, and which answers it covers. */
interface Exception {
  reason: string
  applies: (q: Query, ours: Message, named: Message) => boolean
}

/** Names answered from a wildcard of the zone (below `*.wild`, `*.cwild`, `*.cout`, `*.wc`, `*.deep.wc`). */
const WILDCARD_ANSWERED = /\.(wild|cwild|cout|wc)\.example\.org\.$/i

const EXCEPTIONS: Exception[] = [
  {
    reason: 'wildcard answer: we give the synthesized records the owner as the question spells it (RFC 4592 §3.3.1: their owner is QNAME); named re-cases that name letter by letter, position by position, from the wildcard owner\'s spelling (its stored owner case), here all lower case',
    applies: (q, ours, named) => difference(q, ours, named, true) === undefined &&
      JSON.stringify(summary(ours).authority) === JSON.stringify(summary(named).authority) &&
      ours.answers.filter(r => !named.answers.some(n => show(n) === show(r))).every(r =>
        nameToString(r.name) === absolute(q.name) && WILDCARD_ANSWERED.test(absolute(q.name)) && absolute(q.name) !== absolute(q.name).toLowerCase())
  },
  {
    reason: 'CNAME loop: both answer SERVFAIL; named also sets AA and lists the CNAMEs it followed until its restart limit, we claim no data for an answer we could not give',
    applies: (q, ours, named) => /^(loop1|loop2|self)\.example\.org\.$/i.test(absolute(q.name)) &&
      ours.rcode === 2 && named.rcode === 2 && !ours.aa && named.aa && ours.answers.length === 0 && ours.authority.length === 0
  },
  {
    reason: 'CNAME chain of 12 or more: named stops after 11 with SERVFAIL (its restart limit); we follow up to 16 (RFC 1034 §3.6.2 leaves the limit to the server)',
    applies: (_q, ours, named) => named.rcode === 2 && ours.rcode === 0 && ours.answers.filter(r => r.type === RRType.CNAME).length >= 12
  },
  {
    reason: 'negative answer to an SOA question: named gives the SOA the TTL 0 (a BIND choice); we give it the lesser of its TTL and MINIMUM, as for any negative answer (RFC 2308 §3)',
    applies: (q, ours, named) => q.type.toUpperCase() === 'SOA' && ours.answers.length === named.answers.length && named.authority.length === 1 &&
      named.authority[0]!.type === RRType.SOA && named.authority[0]!.ttl === 0 &&
      difference(q, ours, { ...named, authority: [{ ...named.authority[0]!, ttl: 300 }] }) === undefined
  }
]

describe('differential: our answers against BIND named on the same zone', { skip }, () => {
  let named: Named
  let server: WorkerServer | undefined
  let port: number
  let client: Client

  before(async () => {
    client = new Client()
    named = await startNamed({
      options: 'minimal-responses yes;',
      files: { 'zone.db': ZONE },
      body: `zone "${ORIGIN}" { type primary; file "$DIR/zone.db"; };`
    })
    await named.waitForLog(/zone example\.org\/IN: loaded serial 2024010101/, 5000)
  })

  after(async () => {
    client?.close()
    await server?.close()
    await named?.stop()
  })

  it('serves the same zone text from our parser, index and UDP listener', async () => {
    const origin = parseName(ORIGIN)
    const { records, problems } = parseZoneText(ZONE, { origin, includes: 'refuse' })
    assert.deepEqual(problems.filter(p => p.severity === 'error'), [])
    const index = new ZoneIndex()
    index.set(ZoneData.from(origin, 2024010101, 1, records))
    // Served as the service serves: by DNS worker threads.
    server = await serveInWorkers(index)
    port = server.port
    assert.ok(port > 0)
  })

  it('answers a few hundred generated queries as named does, apart from the listed exceptions', async (t) => {
    const unexpected: string[] = []
    const used = new Map<Exception, number>()
    let compared = 0
    const kinds = new Set<string>()
    for (const q of queries(600, 20240101)) {
      const ours = await client.ask(port, q)
      const theirs = await client.ask(named.port, q)
      compared++
      kinds.add(kind(ours))
      // RFC 1034 §4.1 (and RFC 4343 §4.1): the question comes back as it was asked.
      assert.equal(nameToString(ours.questions[0]!.name), absolute(q.name), 'question spelling kept')
      const diff = difference(q, ours, theirs)
      if (diff === undefined) continue
      const exception = EXCEPTIONS.find(e => e.applies(q, ours, theirs))
      if (exception !== undefined) used.set(exception, (used.get(exception) ?? 0) + 1)
      else unexpected.push(`${q.name} ${q.type}${q.edns ? '' : ' (no EDNS)'}${q.rd ? ' +rd' : ''}: ${diff}`)
    }
    for (const [e, n] of used) t.diagnostic(`${n} × ${e.reason}`)
    assert.equal(compared, 600)
    assert.deepEqual(unexpected, [], `answers unlike named's:\n${unexpected.join('\n')}`)
    assert.deepEqual([...kinds].sort(), ['NODATA', 'NOERROR', 'NXDOMAIN', 'REFUSED', 'SERVFAIL', 'TC', 'YXDOMAIN', 'referral'], 'the queries reach every kind of answer')
    assert.deepEqual(EXCEPTIONS.filter(e => !used.has(e)).map(e => e.reason), [], 'every listed exception is still needed')
    assert.deepEqual(server?.problems, [])
  })
})
