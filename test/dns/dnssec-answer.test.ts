/**
 * Signed answers on the query path itself (`handleQuery`, no sockets), from zones signed by
 * `dnssec-signzone` (NSEC and NSEC3): with DO clear a signed zone answers exactly as its unsigned
 * text does and carries no RRSIG, NSEC or NSEC3 (unless asked for by type); with DO set the same
 * questions carry them; an answer made too large by its signatures is truncated over UDP (TC)
 * and whole over TCP; the reply cache keeps DO and non-DO replies apart.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { handleQuery, type Client } from '../../src/dns/server/handle-query.ts'
import { decodeMessage, type Message, type WireRecord } from '../../src/dns/wire/message.ts'
import { nameToString } from '../../src/zone/name.ts'
import { formatRdata, typeName } from '../../src/zone/rdata/index.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { doQuery, loadZone, PARENT_ZONE, removeSigned, requireTools, signZone, type AskOptions, type SignedZone } from '../helpers/dnssec-zones.ts'

const skip = requireTools('dnssec-keygen', 'dnssec-signzone')

const UDP: Client = { transport: 'udp', address: '127.0.0.1', port: 5300, family: 'IPv4' }
const TCP: Client = { ...UDP, transport: 'tcp' }
const DNSSEC_TYPES = new Set<number>([RRType.RRSIG, RRType.NSEC, RRType.NSEC3])

const QUESTIONS: [string, string][] = [
  ['example.org.', 'SOA'], ['example.org.', 'NS'], ['example.org.', 'MX'], ['www.example.org.', 'A'], ['c1.example.org.', 'AAAA'],
  ['nothing.example.org.', 'A'], ['x.a.b.c.example.org.', 'A'], ['web.example.org.', 'TXT'], ['b.c.example.org.', 'A'],
  ['x.wild.example.org.', 'A'], ['x.wild.example.org.', 'MX'], ['x.cwild.example.org.', 'A'], ['host.secure.example.org.', 'A'],
  ['host.insecure.example.org.', 'A'], ['secure.example.org.', 'DS'], ['insecure.example.org.', 'DS'], ['x.old.example.org.', 'A'], ['many.example.org.', 'A']
]

const show = (r: WireRecord): string => `${nameToString(r.name)} ${r.ttl} ${typeName(r.type)} ${formatRdata(r.type, r.rdata)}`
const sections = (m: Message): string => JSON.stringify([m.rcode, m.aa, m.tc, m.answers.map(show), m.authority.map(show), m.additional.map(show)])
const dnssecRecords = (m: Message): WireRecord[] => [...m.answers, ...m.authority, ...m.additional].filter(r => DNSSEC_TYPES.has(r.type))

/** The key tag of a DNSKEY (RFC 4034 Appendix B). */
function keyTag (rdata: Uint8Array): number {
  let sum = 0
  for (let i = 0; i < rdata.length; i++) sum += (i & 1) === 1 ? rdata[i]! : rdata[i]! << 8
  return (sum + ((sum >> 16) & 0xffff)) & 0xffff
}

function answer (index: ZoneIndex, name: string, type: string, opts: AskOptions & { client?: Client } = {}): Message {
  const reply = handleQuery(doQuery(name, type, opts), opts.client ?? UDP, { index })
  assert.ok(reply !== undefined)
  return decodeMessage(reply)
}

for (const signing of ['nsec', 'nsec3'] as const) {
  describe(`signed answers on the query path (${signing})`, { skip }, () => {
    let zone: SignedZone
    let signed: ZoneIndex
    let unsigned: ZoneIndex

    before(async () => {
      zone = await signZone('example.org.', PARENT_ZONE, signing)
      signed = new ZoneIndex()
      signed.set(loadZone('example.org.', zone.text))
      unsigned = new ZoneIndex()
      unsigned.set(loadZone('example.org.', PARENT_ZONE))
    })

    after(() => removeSigned(zone))

    it('answers DO-clear questions exactly as the unsigned zone does, with no DNSSEC records', () => {
      for (const [name, type] of QUESTIONS) {
        for (const udpSize of [0, 1232]) {
          const ours = answer(signed, name, type, { dnssecOk: false, udpSize })
          assert.deepEqual(dnssecRecords(ours), [], `${name} ${type}`)
          assert.equal(sections(ours), sections(answer(unsigned, name, type, { dnssecOk: false, udpSize })), `${name} ${type}`)
        }
      }
    })

    it('adds the signatures and denials to the same questions with DO set', () => {
      for (const [name, type] of QUESTIONS) {
        const m = answer(signed, name, type, { client: TCP })
        const hasSignature = dnssecRecords(m).some(r => r.type === RRType.RRSIG)
        // A referral to an unsigned child is proven insecure with an NSEC or NSEC3 and its RRSIG.
        assert.ok(hasSignature, `${name} ${type} has an RRSIG`)
        const denied = m.rcode === 3 || m.answers.length === 0
        if (denied) assert.ok(m.authority.some(r => r.type === (signing === 'nsec' ? RRType.NSEC : RRType.NSEC3)), `${name} ${type} carries its denial`)
      }
    })

    it('signs additional addresses from the zone but never glue (RFC 4035 §3.1.1, §3.1.4)', () => {
      const mx = answer(signed, 'example.org.', 'MX', { client: TCP })
      const covered = (r: WireRecord): string => typeName((r.rdata[0]! << 8) | r.rdata[1]!)
      assert.deepEqual(mx.additional.map(r => r.type === RRType.RRSIG ? `RRSIG ${covered(r)}` : typeName(r.type)), ['A', 'RRSIG A', 'AAAA', 'RRSIG AAAA'])
      const referral = answer(signed, 'host.insecure.example.org.', 'A', { client: TCP })
      assert.equal(referral.aa, false)
      assert.deepEqual(referral.additional.map(r => typeName(r.type)), ['A'])
      assert.deepEqual(referral.authority.map(r => r.type === RRType.RRSIG ? `RRSIG ${covered(r)}` : typeName(r.type)),
        signing === 'nsec' ? ['NS', 'NSEC', 'RRSIG NSEC'] : ['NS', 'NSEC3', 'RRSIG NSEC3'])
      const secure = answer(signed, 'host.deleg.example.org.', 'A', { client: TCP })
      assert.deepEqual(secure.authority.map(r => r.type === RRType.RRSIG ? `RRSIG ${covered(r)}` : typeName(r.type)), ['NS', 'DS', 'RRSIG DS'])
    })

    it('answers questions for DNSSEC types by name whatever DO says (as BIND does)', () => {
      for (const dnssecOk of [false, true]) {
        const m = answer(signed, 'web.example.org.', 'RRSIG', { dnssecOk })
        assert.deepEqual([...new Set(m.answers.map(r => r.type))], [RRType.RRSIG])
        // Each signature with its rrset's TTL; with NSEC3 the name's NSEC3 lives at its hash.
        const covered = signing === 'nsec' ? ['A 300', 'AAAA 3600', 'NSEC 300'] : ['A 300', 'AAAA 3600']
        assert.deepEqual(m.answers.map(r => `${typeName((r.rdata[0]! << 8) | r.rdata[1]!)} ${r.ttl}`).sort(), covered)
        const key = answer(signed, 'example.org.', 'DNSKEY', { dnssecOk })
        assert.equal(key.answers.filter(r => r.type === RRType.DNSKEY).length, 2)
        // RFC 4035 §3.1.1: the DNSKEY rrset with its signatures (dnssec-signzone makes one by each
        // key), the KSK's (flags 257) among them: the one a validator starting from the KSK checks.
        const ksk = key.answers.find(r => r.type === RRType.DNSKEY && ((r.rdata[0]! << 8) | r.rdata[1]!) === 257)!
        const tags = key.answers.filter(r => r.type === RRType.RRSIG).map(r => (r.rdata[16]! << 8) | r.rdata[17]!)
        assert.equal(tags.includes(keyTag(ksk.rdata)), dnssecOk)
        if (!dnssecOk) assert.deepEqual(tags, [])
      }
    })

    it('truncates over UDP an answer its signatures make too large, and answers it whole over TCP', () => {
      // 40 A records fit in 700 octets; their RRSIG does not fit with them.
      const plain = answer(signed, 'many.example.org.', 'A', { dnssecOk: false, udpSize: 700 })
      assert.equal(plain.tc, false)
      assert.equal(plain.answers.length, 40)
      const cut = answer(signed, 'many.example.org.', 'A', { udpSize: 700 })
      assert.equal(cut.tc, true)
      const many = answer(signed, 'many.example.org.', 'A', { udpSize: 700, client: TCP })
      assert.equal(many.tc, false)
      assert.deepEqual(many.answers.map(r => r.type).sort(), [...Array<number>(40).fill(RRType.A), RRType.RRSIG])
      // A denial too large for 512 octets: TC set (what fits is kept, RFC 2181 §9), whole over TCP.
      const missing = `${'z'.repeat(60)}.nothing.example.org.`
      const nxTcp = handleQuery(doQuery(missing, 'A'), TCP, { index: signed })!
      assert.ok(nxTcp.length > 512, `${nxTcp.length} octets over TCP`)
      const nx = answer(signed, missing, 'A', { udpSize: 512 })
      assert.equal(nx.tc, true)
      const whole = decodeMessage(nxTcp)
      assert.equal(whole.tc, false)
      assert.equal(whole.rcode, 3)
      assert.ok(whole.authority.some(r => r.type === (signing === 'nsec' ? RRType.NSEC : RRType.NSEC3)))
    })

    it('keeps DO and non-DO replies apart in the reply cache', () => {
      const index = new ZoneIndex()
      index.set(loadZone('example.org.', zone.text))
      const first = answer(index, 'www.example.org.', 'A', { dnssecOk: false })
      const signedReply = answer(index, 'www.example.org.', 'A', { dnssecOk: true })
      const hitsBefore = index.replies.hits
      const again = answer(index, 'www.example.org.', 'A', { dnssecOk: false })
      const signedAgain = answer(index, 'www.example.org.', 'A', { dnssecOk: true })
      assert.equal(index.replies.hits, hitsBefore + 2, 'both answered from the cache')
      assert.deepEqual(dnssecRecords(first), [])
      assert.deepEqual(dnssecRecords(again), [])
      assert.ok(dnssecRecords(signedReply).length > 0)
      assert.equal(sections(signedAgain), sections(signedReply))
      assert.equal(sections(again), sections(first))
    })
  })
}
