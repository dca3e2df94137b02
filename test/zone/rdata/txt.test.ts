import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { tokenize } from '../../../src/zone/rdata/index.ts'
import { format, hex, packetDecode, packetRdata, parse, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('TXT (RFC 1035 §3.3.14)', () => {
  it('round-trips one or more character-strings, quoted on output', () => {
    roundTrip('TXT', '"hello world"', '0b68656c6c6f20776f726c64')
    roundTrip('TXT', '"a" "b"', '01610162')
    roundTrip('TXT', 'v=spf1 -all', '06763d73706631042d616c6c', '"v=spf1" "-all"')
    roundTrip('TXT', '""', '00')
    roundTrip('TXT', '"" "a"', '000161')
    roundTrip('TXT', '( "a"\n  "b" ) ; comment', '01610162', '"a" "b"')
  })

  it('splits a 300-octet string into 255 + 45 octets and writes both strings back', () => {
    const text = Array.from({ length: 300 }, (_, i) => String.fromCharCode(0x61 + (i % 26))).join('')
    const wire = parse('TXT', `"${text}"`)
    assert.equal(wire.length, 302)
    assert.equal(wire[0], 255)
    assert.equal(wire[256], 45)
    assert.equal(hex(wire.subarray(1, 256)), Buffer.from(text.slice(0, 255)).toString('hex'))
    assert.equal(hex(wire.subarray(257)), Buffer.from(text.slice(255)).toString('hex'))
    const written = format('TXT', wire)
    assert.equal(written, `"${text.slice(0, 255)}" "${text.slice(255)}"`)
    const strings = tokenize(written).map(t => t.text)
    assert.equal(strings.length, 2)
    assert.equal(strings.join(''), text)
    assert.equal(hex(parse('TXT', written)), hex(wire))
  })

  it('keeps a 255-octet string whole and splits 510 octets into two full strings', () => {
    assert.equal(parse('TXT', `"${'x'.repeat(255)}"`).length, 256)
    const wire = parse('TXT', `"${'x'.repeat(510)}"`)
    assert.deepEqual([wire.length, wire[0], wire[256]], [512, 255, 255])
  })

  it('counts an escape as the one octet it stands for when splitting', () => {
    const wire = parse('TXT', `"${'\\"'.repeat(256)}"`)
    assert.deepEqual([wire.length, wire[0], wire[256]], [258, 255, 1])
  })

  it('reads and writes \\DDD, \\" and \\\\', () => {
    roundTrip('TXT', '"a\\"b" "c\\\\d" "\\001\\255" "é"', '03612262' + '03635c64' + '0201ff' + '02c3a9', '"a\\"b" "c\\\\d" "\\001\\255" "\\195\\169"')
    roundTrip('TXT', '"\\065\\066C"', '03414243', '"ABC"')
    roundTrip('TXT', '"tab\\009;semi"', '09746162093b73656d69', '"tab\\009;semi"')
    roundTrip('TXT', 'a\\ b', '03612062', '"a b"')
  })

  it('refuses bad escapes', () => {
    refuses('TXT', '"\\256"', /\\DDD escape over 255: "\\256"/)
    refuses('TXT', '"\\12a"', /bad \\DDD escape/)
    refuses('TXT', '"\\12"', /bad \\DDD escape/)
    refuses('TXT', '"a\\1"', /bad \\DDD escape/)
    refuses('TXT', 'ab\\', /backslash/)
  })

  it('refuses empty rdata and unterminated strings', () => {
    refuses('TXT', '', /missing text/)
    refuses('TXT', '\\# 0', /does not match the TXT layout: text: at least one string is required/)
    refuses('TXT', '\\# 2 0561', /does not match the TXT layout: rdata too short/)
    assert.throws(() => tokenize('"abc'), /unterminated quoted string/)
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('TXT', '"hello" "world"')
    assert.equal(hex(packetRdata({ type: 'TXT', name: 'example.org', data: ['hello', 'world'] })), hex(wire))
    const data = packetDecode('TXT', wire).data as Buffer[]
    assert.deepEqual(data.map(b => b.toString()), ['hello', 'world'])
  })
})

describe('TXT wire data', () => {
  it('writes rdata with no string in the generic form, not as nothing', () => {
    assert.equal(format('TXT', new Uint8Array(0)), '\\# 0')
    assert.equal(format('TXT', Uint8Array.from([3, 0x61])), '\\# 2 0361')
  })
})
