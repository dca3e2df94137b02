import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, fromHex, hex, parse, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const ALG = '0b686d61632d73686132353600' // hmac-sha256.

describe('TSIG (RFC 8945 §4.2)', () => {
  it('round-trips in BIND\'s presentation form (as dig 9.18 prints it)', () => {
    roundTrip('TSIG', 'hmac-sha256. 1700000000 300 4 AQIDBA== 47438 RESERVED11 6 AABlU/EA',
      `${ALG} 00006553f100 012c 0004 01020304 b94e 000b 0006 00006553f100`)
    roundTrip('TSIG', 'hmac-sha256. 1700000000 300 32 WGE4GGQC0I7R9oguNPgzi5XegUEReHWiZow2goGyE2Q= 53367 NOERROR 0',
      `${ALG} 00006553f100 012c 0020 586138186402d08ed1f6882e34f8338b95de8141117875a2668c368281b21364 d077 0000 0000`)
  })

  it('leaves out an empty MAC and other data, and writes errors as BIND names them', () => {
    roundTrip('TSIG', 'hmac-sha256. 0 300 0 1 BADSIG 0', `${ALG} 000000000000 012c 0000 0001 0010 0000`)
    roundTrip('TSIG', 'hmac-sha256. 281474976710655 65535 0 65535 23 0', `${ALG} ffffffffffff ffff 0000 ffff 0017 0000`)
    const errors: Array<[string, string]> = [
      ['0', 'NOERROR'], ['badkey', 'BADKEY'], ['18', 'BADTIME'], ['BADMODE', 'BADMODE'], ['20', 'BADNAME'],
      ['21', 'BADALG'], ['22', 'BADTRUNC'], ['10', 'NOTZONE'], ['15', 'RESERVED15'], ['300', '300']
    ]
    for (const [input, output] of errors) {
      assert.equal(format('TSIG', parse('TSIG', `hmac-sha256. 0 300 0 1 ${input} 0`)), `hmac-sha256. 0 300 0 1 ${output} 0`)
    }
  })

  it('reads a MAC split into pieces up to its length', () => {
    roundTrip('TSIG', 'hmac-md5.sig-alg.reg.int. 1 2 6 AQID BAUG 3 4 0',
      '08686d61632d6d6435077369672d616c670372656703696e7400 000000000001 0002 0006 010203040506 0003 0004 0000',
      'hmac-md5.sig-alg.reg.int. 1 2 6 AQIDBAUG 3 NOTIMP 0')
  })

  it('refuses bad input with a reason', () => {
    refuses('TSIG', 'hmac-sha256. 0 300 4', /missing MAC/)
    refuses('TSIG', 'hmac-sha256. 0 300 4 AQIDBA==', /missing original ID/)
    refuses('TSIG', 'hmac-sha256. 0 300 4 AQIDBA== 1 0', /missing other data length/)
    refuses('TSIG', 'hmac-sha256. 0 300 4 AQIDBA== 1 0 2', /missing other data/)
    refuses('TSIG', 'hmac-sha256. 281474976710656 300 0 1 0 0', /time signed must be a number from 0 to 281474976710655/)
    refuses('TSIG', 'hmac-sha256. 0 65536 0 1 0 0', /fudge must be a number from 0 to 65535/)
    refuses('TSIG', 'hmac-sha256. 0 300 3 AQIDBA== 1 0 0', /MAC is 4 octet\(s\) but its length says 3/)
    refuses('TSIG', 'hmac-sha256. 0 300 4 AQI* 1 0 0', /MAC is not valid base64/)
    refuses('TSIG', 'hmac-sha256. 0 300 0 1 BADCOOKIE 0', /error must be a number from 0 to 65535 or a mnemonic/)
    refuses('TSIG', 'hmac-sha256. 0 300 0 1 65536 0', /error must be a number from 0 to 65535/)
    refuses('TSIG', 'hmac-sha256. 0 300 0 1 0 0 AAAA', /unexpected "AAAA" after the last field/)
  })

  it('takes the generic form and refuses truncated generic data', () => {
    const wire = `${ALG}000000000000012c0000000100100000`
    assert.equal(hex(parse('TSIG', `\\# 29 ${wire}`)), wire)
    refuses('TSIG', `\\# 27 ${wire.slice(0, -4)}`, /does not match the TSIG layout/)
    refuses('TSIG', `\\# 29 ${ALG}000000000000012c0005000100100000`, /does not match the TSIG layout/)
    assert.equal(format('TSIG', fromHex(ALG)), `\\# 13 ${ALG.toUpperCase()}`)
  })
})
