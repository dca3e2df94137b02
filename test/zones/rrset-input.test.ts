import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isZonalError } from '../../src/errors/catalog.ts'
import { nameToString, parseName } from '../../src/zone/name.ts'
import { ownerFrom, rdataFrom, rrtypeFrom, ttlFrom, writableRrtype } from '../../src/zones/rrset-input.ts'

const origin = parseName('example.org.')
const owner = (text: string): string => nameToString(ownerFrom(text, origin))

describe('ownerFrom', () => {
  it('takes @, relative, absolute, and absolute without the dot when it ends in the zone', () => {
    assert.equal(owner('@'), 'example.org.')
    assert.equal(owner('www'), 'www.example.org.')
    assert.equal(owner('www.example.org.'), 'www.example.org.')
    assert.equal(owner('www.example.org'), 'www.example.org.')
    assert.equal(owner('example.org'), 'example.org.')
    assert.equal(owner('www.example.org.example.org.'), 'www.example.org.example.org.')
    assert.equal(owner('0%2F26'), '0/26.example.org.')
  })

  it('refuses names outside the zone and names that do not parse (53005)', () => {
    assert.throws(() => ownerFrom('www.example.net.', origin), err => isZonalError(err, 'INVALID_INPUT'))
    assert.throws(() => ownerFrom('a..b', origin), err => isZonalError(err, 'INVALID_INPUT'))
  })
})

describe('rrtypeFrom and writableRrtype', () => {
  it('take names, numbers, TYPEnnn and "A (1)"; writes refuse meta types', () => {
    assert.deepEqual(['A', 'aaaa', '15', 'TYPE16', 'CAA (257)', 'ANY'].map(rrtypeFrom), [1, 28, 15, 16, 257, 255])
    for (const bad of ['BOGUS', 'A (2)', '0', '70000']) assert.throws(() => rrtypeFrom(bad), err => isZonalError(err, 'INVALID_INPUT'), bad)
    for (const meta of ['ANY', 'AXFR', 'OPT', 'TSIG', '200']) assert.throws(() => writableRrtype(meta), err => isZonalError(err, 'INVALID_INPUT'), meta)
    assert.equal(writableRrtype('TYPE65280'), 65280)
  })
})

describe('ttlFrom', () => {
  it('takes 0 to 2147483647 (RFC 2181 §8) as a number or digits', () => {
    assert.deepEqual([0, 2147483647, '300'].map(ttlFrom), [0, 2147483647, 300])
    for (const bad of [-1, 2147483648, 1.5, 'soon', null, true]) assert.throws(() => ttlFrom(bad), err => isZonalError(err, 'INVALID_INPUT'), String(bad))
  })
})

describe('rdataFrom', () => {
  it('parses each value into wire form and its canonical text, relative names completed', () => {
    const mx = rdataFrom(15, ['10 mail', '20   MX.example.net.'], origin)
    assert.deepEqual(mx.text, ['10 mail.example.org.', '20 MX.example.net.'])
    assert.deepEqual(rdataFrom(1, '192.0.2.1', origin).text, ['192.0.2.1'])
  })

  it('reports every bad value with its index, and duplicates as 450001', () => {
    assert.throws(() => rdataFrom(1, ['192.0.2.1', 'x', 'y'], origin), (err: unknown) => {
      assert.ok(isZonalError(err, 'INVALID_INPUT'))
      assert.deepEqual(err.details, ['Invalid input: rdata[1]: address must be an IPv4 address, got "x"', 'Invalid input: rdata[2]: address must be an IPv4 address, got "y"'])
      return true
    })
    assert.throws(() => rdataFrom(1, ['192.0.2.1', ' 192.0.2.1 '], origin), err => isZonalError(err, 'RRSET_DUPLICATE_RDATA'))
    assert.throws(() => rdataFrom(1, {}, origin), err => isZonalError(err, 'INVALID_INPUT'))
  })
})
