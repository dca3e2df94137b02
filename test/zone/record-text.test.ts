import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseName } from '../../src/zone/name.ts'
import { RdataError } from '../../src/zone/rdata/index.ts'
import { rdataToRecordText, recordTextToRdata } from '../../src/zone/record-text.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { fromHex, hex, parse } from '../helpers/rdata.ts'

const origin = parseName('example.org.')
const toWire = (type: number, text: string): Uint8Array => recordTextToRdata(type, text, origin)
/** The character-strings of TXT rdata, decoded as UTF-8. */
function strings (rdata: Uint8Array): string[] {
  const out: string[] = []
  for (let p = 0; p < rdata.length; p += 1 + rdata[p]!) out.push(Buffer.from(rdata.subarray(p + 1, p + 1 + rdata[p]!)).toString('utf8'))
  return out
}

const DKIM = 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' + 'x'.repeat(300 - 62)

describe('record text of TXT and SPF', () => {
  it('takes the text literally: spaces, ";", quotes and backslashes are part of it', () => {
    for (const type of [RRType.TXT, RRType.SPF]) {
      for (const text of ['v=DMARC1; p=reject; rua=mailto:d@example.org', 'another value', 'v=spf1 include:_spf.example.net ~all', 'say "hi" \\ back\\slash', '"quoted"', '( not grouped )', 'tab\there', 'café ☃ 😀']) {
        const wire = toWire(type, text)
        assert.deepEqual(strings(wire), [text], text)
        assert.equal(rdataToRecordText(type, wire), text, text)
      }
    }
  })

  it('splits text over 255 octets into 255-octet strings and joins them back', () => {
    assert.equal(DKIM.length, 300)
    const wire = toWire(RRType.TXT, DKIM)
    assert.deepEqual(strings(wire).map(s => s.length), [255, 45])
    assert.equal(rdataToRecordText(RRType.TXT, wire), DKIM)
    assert.deepEqual(strings(toWire(RRType.TXT, 'x'.repeat(255))).map(s => s.length), [255])
    assert.deepEqual(strings(toWire(RRType.TXT, 'é'.repeat(200))).length, 2, '400 octets of UTF-8')
    assert.equal(rdataToRecordText(RRType.TXT, toWire(RRType.TXT, 'é'.repeat(200))), 'é'.repeat(200), 'a character split between strings reads back whole')
  })

  it('makes an empty text one empty string', () => {
    assert.equal(hex(toWire(RRType.TXT, '')), '00')
    assert.equal(rdataToRecordText(RRType.TXT, fromHex('00')), '')
  })

  it('reads several strings as their concatenation (as UltraDNS shows them)', () => {
    assert.equal(rdataToRecordText(RRType.TXT, parse('TXT', '"a b" "c;d"')), 'a bc;d')
    assert.equal(rdataToRecordText(RRType.SPF, parse('SPF', '"v=spf1 " "-all"')), 'v=spf1 -all')
  })

  it('gives the generic form for octets that are not UTF-8, and takes it back exactly', () => {
    const wire = parse('TXT', '"\\255" "ok"')
    const text = rdataToRecordText(RRType.TXT, wire)
    assert.equal(text, '\\# 5 01FF026F6B')
    assert.equal(hex(toWire(RRType.TXT, text)), hex(wire))
  })

  it('gives the generic form for a text that itself starts with "\\# ", so it is not mistaken on the way back', () => {
    const wire = parse('TXT', '"\\\\# 0"')
    const text = rdataToRecordText(RRType.TXT, wire)
    assert.equal(text, '\\# 5 045C232030')
    assert.equal(hex(toWire(RRType.TXT, text)), hex(wire))
    assert.equal(rdataToRecordText(RRType.TXT, parse('TXT', '"\\\\#x"')), '\\#x', 'not the generic form: kept as text')
  })

  it('keeps a UTF-8 byte order mark', () => {
    assert.equal(rdataToRecordText(RRType.TXT, toWire(RRType.TXT, '\uFEFFx')), '\uFEFFx')
  })

  it('refuses a lone surrogate and text too long for one record', () => {
    assert.throws(() => toWire(RRType.TXT, 'a\uD800b'), RdataError)
    assert.throws(() => toWire(RRType.TXT, 'x'.repeat(65280)), RdataError)
    assert.equal(toWire(RRType.TXT, 'x'.repeat(65000)).length, 65000 + 255)
  })
})

describe('record text of other types', () => {
  it('is presentation format read as one value: ";" and parentheses are characters, never a comment', () => {
    assert.equal(rdataToRecordText(RRType.CAA, toWire(RRType.CAA, '0 issue "ca.example; account=1"')), '0 issue "ca.example; account=1"')
    assert.equal(rdataToRecordText(RRType.HINFO, toWire(RRType.HINFO, 'Intel;x86 (Linux)')), '"Intel;x86" "(Linux)"')
    assert.throws(() => toWire(RRType.MX, '10 mail.example.org. ; comment'), RdataError)
  })
})
