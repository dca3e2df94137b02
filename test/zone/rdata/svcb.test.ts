import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { wireProblem } from '../../../src/zone/rdata/index.ts'
import { format, fromHex, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'

const FOO_COM = '03666f6f076578616d706c6503636f6d00' // foo.example.com.
const FOO_ORG = '03666f6f076578616d706c65036f726700' // foo.example.org.

// The test vectors of RFC 9460 Appendix D.
describe('SVCB (RFC 9460 §2.2, Appendix D)', () => {
  it('D.1: AliasMode', () => {
    roundTrip('SVCB', '0 foo.example.com.', '0000' + FOO_COM)
  })

  it('D.2: ServiceMode without params, with a port, with generic keys', () => {
    roundTrip('SVCB', '1 .', '000100')
    roundTrip('SVCB', '16 foo.example.com. port=53', '0010' + FOO_COM + '0003' + '0002' + '0035')
    roundTrip('SVCB', '1 foo.example.com. key667=hello', '0001' + FOO_COM + '029b' + '0005' + '68656c6c6f', '1 foo.example.com. key667="hello"')
    roundTrip('SVCB', '1 foo.example.com. key667="hello\\210qoo"', '0001' + FOO_COM + '029b' + '0009' + '68656c6c6fd2716f6f')
  })

  it('D.2: IPv6 hints, written in RFC 5952 form', () => {
    roundTrip('SVCB', '1 foo.example.com. ipv6hint="2001:db8::1,2001:db8::53:1"',
      '0001' + FOO_COM + '0006' + '0020' + '20010db8000000000000000000000001' + '20010db8000000000000000000530001',
      '1 foo.example.com. ipv6hint=2001:db8::1,2001:db8::53:1')
    roundTrip('SVCB', '1 example.com. ipv6hint="2001:db8:122:344::192.0.2.33"',
      '0001' + '076578616d706c6503636f6d00' + '0006' + '0010' + '20010db80122034400000000c0000221',
      '1 example.com. ipv6hint=2001:db8:122:344::c000:221')
  })

  it('D.2: params in any order are sorted by key; mandatory lists its keys sorted', () => {
    roundTrip('SVCB', '16 foo.example.org. (alpn=h2,h3-19 mandatory=ipv4hint,alpn ipv4hint=192.0.2.1)',
      '0010' + FOO_ORG + '0000' + '0004' + '00010004' + '0001' + '0009' + '026832' + '0568332d3139' + '0004' + '0004' + 'c0000201',
      '16 foo.example.org. mandatory=alpn,ipv4hint alpn="h2,h3-19" ipv4hint=192.0.2.1')
  })

  it('D.2: alpn value-list escapes, quoted and unquoted', () => {
    const wire = '0010' + FOO_ORG + '0001' + '000c' + '08665c6f6f2c626172' + '026832'
    roundTrip('SVCB', '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"', wire)
    roundTrip('SVCB', '16 foo.example.org. alpn=f\\\\\\092oo\\092,bar,h2', wire, '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"')
  })

  it('D.3: refuses a repeated key and missing or unexpected values', () => {
    refuses('SVCB', '1 foo.example.com. key123=abc key123=def', /SvcParam key123 appears more than once/)
    refuses('SVCB', '1 foo.example.com. mandatory', /mandatory needs at least one key/)
    refuses('SVCB', '1 foo.example.com. alpn', /alpn needs at least one protocol id/)
    refuses('SVCB', '1 foo.example.com. port', /port must be a number from 0 to 65535, got ""/)
    refuses('SVCB', '1 foo.example.com. ipv4hint', /ipv4hint needs at least one IPv4 address/)
    refuses('SVCB', '1 foo.example.com. ipv6hint', /ipv6hint needs at least one IPv6 address/)
    refuses('SVCB', '1 foo.example.com. no-default-alpn=abc', /no-default-alpn takes no value, got "abc"/)
    refuses('SVCB', '1 foo.example.com. ( mandatory=key123,key123 key123=abc)', /mandatory lists key123 twice/)
  })

  it('D.3: reports a mandatory key that is missing or is mandatory itself', () => {
    assert.deepEqual(reasons('SVCB', '1 foo.example.com. mandatory=key123'), ['mandatory lists key123, which is not present (RFC 9460 §8)'])
    assert.deepEqual(reasons('SVCB', '1 foo.example.com. mandatory=mandatory'), ['mandatory must not list "mandatory" itself (RFC 9460 §8)'])
    assert.deepEqual(reasons('SVCB', '1 foo.example.com. mandatory=alpn,port alpn=h2 port=1'), [])
  })

  it('reports params in AliasMode', () => {
    assert.deepEqual(reasons('SVCB', '0 foo.example.com.'), [])
    assert.deepEqual(reasons('SVCB', '0 foo.example.com. port=53'), ['AliasMode (priority 0) must not have SvcParams (RFC 9460 §2.4.2)'])
  })

  it('refuses a bad priority or target', () => {
    refuses('SVCB', '65536 .', /priority must be a number from 0 to 65535/)
    refuses('SVCB', '1', /missing target/)
    refuses('SVCB', '1 a..b', /target: empty label/)
  })

  it('completes a relative target with the origin', () => {
    roundTrip('SVCB', '1 svc', '0001' + '03737663076578616d706c65036f726700', '1 svc.example.org.')
  })

  it('checks the wire layout: keys in increasing order, lengths inside the rdata', () => {
    assert.equal(wireProblem(64, fromHex('0001' + '00' + '0003' + '0002' + '0035')), undefined)
    assert.match(wireProblem(64, fromHex('0001' + '00' + '0004' + '0004' + 'c0000201' + '0003' + '0002' + '0035')) ?? '', /port out of order or repeated/)
    assert.match(wireProblem(64, fromHex('0001' + '00' + '0003' + '0002' + '0035' + '0003' + '0002' + '0035')) ?? '', /out of order or repeated/)
    assert.match(wireProblem(64, fromHex('0001' + '00' + '0003' + '0003' + '0035')) ?? '', /too short/)
    assert.match(wireProblem(64, fromHex('0001' + '00' + '0003' + '0001' + '35')) ?? '', /port: port must be 2 octets/)
    assert.match(wireProblem(64, fromHex('0001' + '00' + '00')) ?? '', /too short/)
    assert.match(wireProblem(64, fromHex('0001')) ?? '', /name runs past the end/)
    assert.equal(format('SVCB', fromHex('0001' + '00' + '0003' + '0001' + '35')), '\\# 8 00010000030001' + '35')
  })

  it('is written in the generic form when the wire data is malformed', () => {
    assert.equal(format('SVCB', fromHex('000100000000')), '\\# 6 000100000000')
  })
})
