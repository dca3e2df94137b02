import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, fromHex, hex, parse, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const ALG = '086773732d7473696700' // gss-tsig.

describe('TKEY (RFC 2930 §2)', () => {
  it('round-trips in BIND\'s presentation form (as dig 9.18 prints it), times as seconds', () => {
    roundTrip('TKEY', 'gss-tsig. 1700000000 1700003600 3 BADKEY 3 AQID 2 CQk=',
      `${ALG} 6553f100 6553ff10 0003 0011 0003 010203 0002 0909`)
    roundTrip('TKEY', 'gss-tsig. 1700000000 1700003600 3 23 3 AQID 0',
      `${ALG} 6553f100 6553ff10 0003 0017 0003 010203 0000`)
    roundTrip('TKEY', 'gss-tsig. 0 4294967295 65535 NOERROR 0 0', `${ALG} 00000000 ffffffff ffff 0000 0000 0000`)
  })

  it('also reads times as YYYYMMDDHHmmSS, like RRSIG', () => {
    roundTrip('TKEY', 'gss-tsig. 20231114221320 20231114231320 3 RESERVED11 0 0', `${ALG} 6553f100 6553ff10 0003 000b 0000 0000`,
      'gss-tsig. 1700000000 1700003600 3 RESERVED11 0 0')
  })

  it('refuses bad input with a reason', () => {
    refuses('TKEY', 'gss-tsig. 1700000000 1700003600 3 0 3 AQID', /missing other data length/)
    refuses('TKEY', 'gss-tsig. 1700000000 1700003600 3 0 3', /missing key data/)
    refuses('TKEY', 'gss-tsig. 1700000000', /missing expiration/)
    refuses('TKEY', 'gss-tsig. 4294967296 0 3 0 0 0', /inception must be YYYYMMDDHHmmSS or a number of seconds/)
    refuses('TKEY', 'gss-tsig. 0 20230230000000 3 0 0 0', /expiration .* day 30 out of range/)
    refuses('TKEY', 'gss-tsig. 0 0 65536 0 0 0', /mode must be a number from 0 to 65535/)
    refuses('TKEY', 'gss-tsig. 0 0 3 NOPE 0 0', /error must be a number from 0 to 65535 or a mnemonic/)
    refuses('TKEY', 'gss-tsig. 0 0 3 0 2 AQID 0', /key data is 3 octet\(s\) but its length says 2/)
    refuses('TKEY', 'gss-tsig. 0 0 3 0 0 1 !!!!', /other data is not valid base64/)
  })

  it('takes the generic form and refuses truncated generic data', () => {
    const wire = `${ALG}6553f1006553ff1000030011000301020300020909`
    assert.equal(hex(parse('TKEY', `\\# 31 ${wire}`)), wire)
    refuses('TKEY', `\\# 30 ${wire.slice(0, -2)}`, /does not match the TKEY layout/)
    refuses('TKEY', `\\# 21 ${ALG}6553f1006553ff10000300`, /does not match the TKEY layout/)
    assert.equal(format('TKEY', fromHex(`${ALG}6553f100`)), `\\# 14 ${ALG.toUpperCase()}6553F100`)
  })
})
