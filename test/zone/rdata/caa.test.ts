import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { validateRdata, wireProblem } from '../../../src/zone/rdata/index.ts'
import { format, fromHex, hex, packetDecode, packetRdata, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('CAA (RFC 8659 §4.1)', () => {
  it('round-trips flags, tag and value, the value always quoted', () => {
    roundTrip('CAA', '0 issue "letsencrypt.org"', '00056973737565' + '6c657473656e63727970742e6f7267')
    roundTrip('CAA', '0 issue ";"', '000569737375653b')
    roundTrip('CAA', '0 issue ""', '00056973737565')
    roundTrip('CAA', '0 iodef "mailto:security@example.org"', '0005696f646566' + Buffer.from('mailto:security@example.org').toString('hex'))
    roundTrip('CAA', '0 issue letsencrypt.org', '00056973737565' + '6c657473656e63727970742e6f7267', '0 issue "letsencrypt.org"')
    roundTrip('CAA', '128 tbs "Unknown"', '8003746273' + '556e6b6e6f776e')
    roundTrip('CAA', '0 issue "ca.example.net; account=230123"', '00056973737565' + Buffer.from('ca.example.net; account=230123').toString('hex'))
  })

  it('escapes quotes, backslashes and octets outside printable ASCII as BIND does', () => {
    roundTrip('CAA', '0 issuewild "a\\"b\\\\c é\\010"', '0009697373756577696c64' + '6122625c6320c3a90a', '0 issuewild "a\\"b\\\\c \\195\\169\\010"')
  })

  it('keeps the case of the tag', () => {
    roundTrip('CAA', '0 ISSUE "x"', '00054953535545' + '78')
  })

  it('refuses bad flags and tags', () => {
    refuses('CAA', '256 issue "x"', /flags must be a number from 0 to 255, got 256/)
    refuses('CAA', '0 is-sue "x"', /tag must be 1-255 letters or digits, got "is-sue"/)
    refuses('CAA', '0 "" "x"', /tag must be 1-255 letters or digits/)
    refuses('CAA', '0 issue', /missing value/)
    refuses('CAA', '0 issue "a" "b"', /unexpected "b"/)
  })

  it('refuses wire data whose tag is empty or not letters and digits', () => {
    assert.match(wireProblem(257, fromHex('0000')) ?? '', /tag is empty/)
    assert.match(wireProblem(257, fromHex('00026120')) ?? '', /tag must be letters and digits/)
    assert.equal(format('CAA', fromHex('000261207878')), '\\# 6 000261207878')
  })

  it('gives validate reasons for undefined flags and a critical unknown tag', () => {
    assert.deepEqual(reasons('CAA', '0 issue "ca.example.net"'), [])
    assert.deepEqual(reasons('CAA', '128 issue "ca.example.net"'), [])
    assert.deepEqual(reasons('CAA', '128 tbs "Unknown"'), ['critical flag on unknown tag "tbs" makes CAs refuse issuance'])
    assert.deepEqual(reasons('CAA', '1 issue "x"'), ['flags 1: only the critical bit (128) is defined'])
    assert.deepEqual(reasons('CAA', '129 Future "x"'), ['flags 129: only the critical bit (128) is defined', 'critical flag on unknown tag "future" makes CAs refuse issuance'])
    assert.deepEqual(reasons('CAA', '0 ISSUEWILD "x"'), [])
    assert.deepEqual(validateRdata(257, fromHex('00')), ['rdata too short: need 1 more octet(s)'])
  })

  it('matches dns-packet both ways', () => {
    const wire = parse('CAA', '0 issue "letsencrypt.org"')
    assert.equal(hex(packetRdata({ type: 'CAA', name: 'example.org', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } })), hex(wire))
    assert.deepEqual(packetDecode('CAA', wire).data, { flags: 0, tag: 'issue', value: 'letsencrypt.org', issuerCritical: false })
    const critical = parse('CAA', '128 iodef "mailto:a@example.org"')
    assert.equal(hex(packetRdata({ type: 'CAA', name: 'example.org', data: { flags: 128, tag: 'iodef', value: 'mailto:a@example.org' } })), hex(critical))
  })
})
