import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import dnsPacket from 'dns-packet'
import { RRType } from '../../../src/zone/rrtype.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { readName } from '../../../src/dns/wire/read-name.ts'
import { MessageWriter, Section } from '../../../src/dns/wire/writer.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { WireError } from '../../../src/zone/rdata/bytes.ts'
import { formatRdata, parseRdata, tokenize } from '../../../src/zone/rdata/index.ts'

const origin = parseName('example.org.')
const rd = (type: number, text: string) => parseRdata(type, tokenize(text), { origin })
const header = { id: 0x1234, qr: true, opcode: 0, aa: true, tc: false, rd: true, ra: false, ad: false, cd: false, rcode: 0 }

function response (maxSize = 512): MessageWriter {
  const w = new MessageWriter(maxSize)
  w.header(header)
  w.question({ name: parseName('www.example.org.'), type: RRType.MX, class: 1 })
  return w
}

describe('dns wire: names', () => {
  it('reads compressed names and refuses forward pointers and loops', () => {
    // "example.org." at 0, then "www" + pointer to 0 at 13.
    const msg = new Uint8Array([7, ...Buffer.from('example'), 3, ...Buffer.from('org'), 0, 3, ...Buffer.from('www'), 0xc0, 0])
    assert.equal(nameToString(readName(msg, 13).name), 'www.example.org.')
    assert.equal(readName(msg, 13).next, msg.length)
    assert.throws(() => readName(new Uint8Array([0xc0, 0]), 0), WireError)
    assert.throws(() => readName(new Uint8Array([1, 0x61, 0xc0, 2]), 0), WireError)
    assert.throws(() => readName(new Uint8Array([1, 0x61, 0xc0, 0]), 0), WireError)
    assert.throws(() => readName(new Uint8Array([5, 0x61]), 0), WireError)
    assert.throws(() => readName(new Uint8Array([0x40, 0]), 0), WireError)
  })
})

describe('dns wire: messages', () => {
  it('writes a response with name compression that dns-packet and our decoder read back', () => {
    const w = response()
    assert.ok(w.record(Section.Answer, { name: parseName('www.example.org.'), type: RRType.MX, class: 1, ttl: 300, rdata: rd(RRType.MX, '10 mail.example.org.') }))
    assert.ok(w.record(Section.Authority, { name: origin, type: RRType.NS, class: 1, ttl: 3600, rdata: rd(RRType.NS, 'ns1.example.org.') }))
    assert.ok(w.record(Section.Additional, { name: parseName('mail.example.org.'), type: RRType.A, class: 1, ttl: 300, rdata: rd(RRType.A, '192.0.2.25') }))
    assert.ok(w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: true, options: [] }))
    const bytes = w.finish()
    // Without compression the owner names alone would take 3 × 17 octets more.
    assert.ok(bytes.length < 130, `compressed size ${bytes.length}`)
    const theirs = dnsPacket.decode(Buffer.from(bytes))
    assert.equal(theirs.id, 0x1234)
    assert.deepEqual(theirs.answers?.map(a => [a.name, a.type, (a as { data: unknown }).data]), [['www.example.org', 'MX', { preference: 10, exchange: 'mail.example.org' }]])
    assert.equal((theirs.authorities?.[0] as { data: string }).data, 'ns1.example.org')
    const ours = decodeMessage(bytes)
    assert.equal(ours.aa, true)
    assert.equal(ours.questions.length, 1)
    assert.equal(formatRdata(RRType.MX, ours.answers[0]!.rdata), '10 mail.example.org.')
    assert.equal(nameToString(ours.additional[0]!.name), 'mail.example.org.')
    assert.equal(ours.edns?.udpSize, 1232)
    assert.equal(ours.edns?.dnssecOk, true)
  })

  it('points later names at names inside rdata that is itself never compressed (DNAME, RFC 6672 §2.5)', () => {
    const target = `${'a'.repeat(60)}.${'b'.repeat(60)}.example.org.`
    const w = new MessageWriter(512)
    w.header(header)
    w.question({ name: parseName('x.old.example.org.'), type: RRType.A, class: 1 })
    const dname = rd(RRType.DNAME, target)
    assert.ok(w.record(Section.Answer, { name: parseName('old.example.org.'), type: RRType.DNAME, class: 1, ttl: 300, rdata: dname }))
    const before = w.size
    assert.ok(w.record(Section.Answer, { name: parseName('x.old.example.org.'), type: RRType.CNAME, class: 1, ttl: 300, rdata: parseName(`x.${target}`) }))
    // Owner: a pointer (2); type, class, TTL, length (10); rdata: "x" (2) and a pointer into the DNAME (2).
    assert.equal(w.size - before, 16)
    const bytes = w.finish()
    const dnameAt = bytes.indexOf(60, 12 + 'x.old.example.org.'.length + 1 + 4)
    assert.ok(dnameAt > 0)
    // The DNAME's own rdata is written out in full.
    assert.deepEqual(bytes.subarray(dnameAt, dnameAt + dname.length), dname)
    const ours = decodeMessage(bytes)
    assert.equal(formatRdata(RRType.DNAME, ours.answers[0]!.rdata), target)
    assert.equal(formatRdata(RRType.CNAME, ours.answers[1]!.rdata), `x.${target}`)
    const theirs = dnsPacket.decode(Buffer.from(bytes))
    assert.equal((theirs.answers?.[1] as { data: string }).data, `x.${target}`.replace(/\.$/, ''))
  })

  it('copies rdata that does not follow its type\'s layout as it is, instead of throwing', () => {
    const w = response()
    const broken = new Uint8Array([0, 10, 4, 0x6d, 0x61]) // MX: a preference, then a name cut short
    assert.ok(w.record(Section.Answer, { name: parseName('www.example.org.'), type: RRType.MX, class: 1, ttl: 300, rdata: broken }))
    assert.ok(w.record(Section.Answer, { name: parseName('www.example.org.'), type: RRType.TXT, class: 1, ttl: 300, rdata: rd(RRType.TXT, '"after"') }))
    const bytes = w.finish()
    const at = bytes.indexOf(0x6d, 12 + 17 + 4)
    assert.deepEqual(bytes.subarray(at - 3, at + 2), broken)
    assert.equal(bytes[7], 2, 'two answers')
  })

  it('refuses a record that does not fit, leaving the message intact', () => {
    const w = response(100)
    const txt = { name: parseName('www.example.org.'), type: RRType.TXT, class: 1, ttl: 300, rdata: rd(RRType.TXT, `"${'x'.repeat(120)}"`) }
    assert.equal(w.record(Section.Answer, txt), false)
    w.truncated()
    const msg = decodeMessage(w.finish())
    assert.equal(msg.tc, true)
    assert.equal(msg.answers.length, 0)
    assert.equal(msg.questions.length, 1)
  })

  it('decodes what dns-packet encodes, and refuses malformed messages', () => {
    const q = dnsPacket.encode({ type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name: 'Www.Example.org' }] })
    const m = decodeMessage(new Uint8Array(q))
    assert.equal(m.id, 7)
    assert.equal(m.rd, true)
    assert.equal(nameToString(m.questions[0]!.name), 'Www.Example.org.')
    assert.throws(() => decodeMessage(new Uint8Array(q).subarray(0, q.length - 1)), WireError)
    assert.throws(() => decodeMessage(new Uint8Array([...q, 0])), WireError)
    assert.throws(() => decodeMessage(new Uint8Array(5)), WireError)
  })

  it('never throws anything but WireError on random and mutated packets', () => {
    let seed = 1
    const rand = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed }
    const base = response()
    base.record(Section.Answer, { name: parseName('www.example.org.'), type: RRType.MX, class: 1, ttl: 300, rdata: rd(RRType.MX, '10 mail.example.org.') })
    const good = base.finish()
    for (let i = 0; i < 5000; i++) {
      const msg = i % 2 === 0 ? Uint8Array.from({ length: rand() % 80 }, () => rand() & 0xff) : Uint8Array.from(good)
      if (i % 2 === 1) for (let k = 0; k < 1 + rand() % 4; k++) msg[rand() % msg.length] = rand() & 0xff
      try {
        decodeMessage(msg)
      } catch (err) {
        if (!(err instanceof WireError)) throw err
      }
    }
  })
})
