import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { RdataError } from '../../../src/zone/rdata/index.ts'
import { keyName, parseKeyName, splitValueList } from '../../../src/zone/rdata/svcb-params.ts'
import { format, fromHex, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'

const text = (items: Uint8Array[]): string[] => items.map(i => Buffer.from(i).toString('latin1'))

describe('SvcParamKeys (RFC 9460 §2.1, §14.3.2)', () => {
  it('names the registered keys and writes others as keyNNNNN', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 65535].map(keyName),
      ['mandatory', 'alpn', 'no-default-alpn', 'port', 'ipv4hint', 'ech', 'ipv6hint', 'dohpath', 'ohttp', 'key9', 'key65535'])
  })

  it('reads names and keyNNNNN without leading zeros, up to 65535', () => {
    assert.equal(parseKeyName('ech'), 5)
    assert.equal(parseKeyName('key0'), 0)
    assert.equal(parseKeyName('key65535'), 65535)
    for (const bad of ['key65536', 'key01', 'key', 'ALPN', 'key-1', 'foo']) {
      assert.throws(() => parseKeyName(bad), RdataError, bad)
    }
  })
})

describe('value-list (RFC 9460 Appendix A.1)', () => {
  const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'))

  it('splits at commas that are not escaped', () => {
    assert.deepEqual(text(splitValueList(bytes('h2,h3'), 'alpn')), ['h2', 'h3'])
    assert.deepEqual(text(splitValueList(bytes('f\\\\oo\\,bar,h2'), 'alpn')), ['f\\oo,bar', 'h2'])
    assert.deepEqual(text(splitValueList(bytes('a\\b'), 'alpn')), ['ab'])
  })

  it('refuses empty items and a lone final backslash', () => {
    for (const bad of ['', ',h2', 'h2,', 'h2,,h3', 'h2\\']) assert.throws(() => splitValueList(bytes(bad), 'alpn'), RdataError, bad)
  })
})

describe('SvcParam values', () => {
  it('mandatory: key names, sorted and written by name', () => {
    roundTrip('SVCB', '1 . mandatory=port,key9,alpn alpn=h2 port=1 key9', '000100' + '0000' + '0006' + '000100030009' + '0001' + '0003' + '026832' + '0003' + '0002' + '0001' + '0009' + '0000',
      '1 . mandatory=alpn,port,key9 alpn="h2" port=1 key9')
    refuses('SVCB', '1 . mandatory=alpn,bogus', /"bogus" is not a SvcParamKey/)
    refuses('SVCB', '1 . mandatory=alpn,,port', /empty item/)
  })

  it('alpn: quoted on output, escaping commas, backslashes, quotes and octets outside 0x21-0x7e', () => {
    roundTrip('SVCB', '1 . alpn="a b,c\\"d,\\255"', '000100' + '0001' + '000a' + '03612062' + '0363' + '2264' + '01ff', '1 . alpn="a\\032b,c\\"d,\\255"')
    refuses('SVCB', `1 . alpn=${'a'.repeat(256)}`, /longer than 255 octets/)
    refuses('SVCB', '1 . alpn=h2,', /empty item/)
  })

  it('no-default-alpn and ohttp: no value', () => {
    roundTrip('SVCB', '1 . alpn=h2 no-default-alpn', '000100' + '0001' + '0003' + '026832' + '0002' + '0000', '1 . alpn="h2" no-default-alpn')
    roundTrip('SVCB', '1 . ohttp', '000100' + '0008' + '0000')
    roundTrip('SVCB', '1 . ohttp=""', '000100' + '0008' + '0000', '1 . ohttp')
    refuses('SVCB', '1 . ohttp=1', /ohttp takes no value/)
  })

  it('port: a 16-bit number', () => {
    roundTrip('SVCB', '1 . port="8443"', '000100' + '0003' + '0002' + '20fb', '1 . port=8443')
    refuses('SVCB', '1 . port=65536', /port must be a number from 0 to 65535, got "65536"/)
    refuses('SVCB', '1 . port=-1', /port must be a number/)
  })

  it('ipv4hint and ipv6hint: comma lists of addresses, written bare', () => {
    roundTrip('SVCB', '1 . ipv4hint="192.0.2.1,192.0.2.2"', '000100' + '0004' + '0008' + 'c0000201c0000202', '1 . ipv4hint=192.0.2.1,192.0.2.2')
    roundTrip('SVCB', '1 . ipv6hint=::ffff:192.0.2.1', '000100' + '0006' + '0010' + '00000000000000000000ffffc0000201')
    refuses('SVCB', '1 . ipv4hint=192.0.2.1,,192.0.2.2', /ipv4hint: "" is not an IPv4 address/)
    refuses('SVCB', '1 . ipv4hint=2001:db8::1', /not an IPv4 address/)
    refuses('SVCB', '1 . ipv6hint=192.0.2.1', /not an IPv6 address/)
  })

  it('ech: base64, written bare; an empty value writes the key alone', () => {
    roundTrip('SVCB', '1 . ech="AEj+DQBE"', '000100' + '0005' + '0006' + '0048fe0d0044', '1 . ech=AEj+DQBE')
    roundTrip('SVCB', '1 . ech', '000100' + '0005' + '0000')
    refuses('SVCB', '1 . ech=not*base64', /ech is not valid base64/)
  })

  it('dohpath (RFC 9461 §5): a quoted string, checked by validation', () => {
    roundTrip('SVCB', '1 dns.example.net. alpn=h2 dohpath=/dns-query{?dns}', '0001' + '03646e73076578616d706c65036e657400' + '0001' + '0003' + '026832' + '0007' + '0010' + Buffer.from('/dns-query{?dns}').toString('hex'),
      '1 dns.example.net. alpn="h2" dohpath="/dns-query{?dns}"')
    assert.deepEqual(reasons('SVCB', '1 . alpn=h2 dohpath=/q{?dns}'), [])
    assert.deepEqual(reasons('SVCB', '1 . alpn=h2 dohpath=/q{?x,dns*}'), [])
    assert.deepEqual(reasons('SVCB', '1 . dohpath=dns-query{?dns}'), ['dohpath must be a relative URI template starting with "/" (RFC 9461 §5)'])
    assert.deepEqual(reasons('SVCB', '1 . dohpath=/dns-query'), ['dohpath must contain the "dns" variable, such as "{?dns}" (RFC 9461 §5)'])
    assert.deepEqual(reasons('SVCB', '1 . dohpath=/\\255{?dns}'), ['dohpath is not UTF-8 (RFC 9461 §5)'])
  })

  it('keyNNNNN: the wire value as a quoted string, also for registered keys', () => {
    roundTrip('SVCB', '1 . key3=\\000\\053', '000100' + '0003' + '0002' + '0035', '1 . port=53')
    roundTrip('SVCB', '1 . key65000=""', '000100' + 'fde8' + '0000', '1 . key65000')
    roundTrip('SVCB', '1 . key9="a\\\\b\\"c\\000"', '000100' + '0009' + '0006' + '615c62226300')
    refuses('SVCB', '1 . key3=\\053', /key3: port must be 2 octets/)
    refuses('SVCB', '1 . key0', /key0: mandatory must be a non-empty list/)
    refuses('SVCB', '1 . key1=\\000', /key1: alpn: empty protocol id/)
  })

  it('reports the reserved key 65535', () => {
    assert.deepEqual(reasons('SVCB', '1 . key65535'), ['key65535 is the reserved "Invalid key" (RFC 9460 §14.3.2)'])
  })

  it('refuses a stray quoted string and a key written with an =" and no value token', () => {
    refuses('SVCB', '1 . "alpn=h2"', /expected a SvcParam/)
    refuses('SVCB', '1 . alpn "h2"', /alpn needs at least one protocol id/)
    refuses('SVCB', '1 . bogus=1', /"bogus" is not a SvcParamKey/)
  })

  it('refuses values over 65535 octets', () => {
    refuses('SVCB', `1 . key9="${'a'.repeat(65536)}"`, /key9: value longer than 65535 octets/)
  })

  it('writes the wire form of params that break the mandatory rules unchanged', () => {
    const wire = fromHex('000100' + '0000' + '0002' + '0000')
    assert.equal(format('SVCB', wire), '1 . mandatory=mandatory')
    assert.deepEqual(reasons('SVCB', '1 . mandatory=mandatory'), ['mandatory must not list "mandatory" itself (RFC 9460 §8)'])
    assert.equal(Buffer.from(parse('SVCB', '1 . mandatory=mandatory')).toString('hex'), Buffer.from(wire).toString('hex'))
  })
})
