import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { inCidr, parseAddress, parseCidr } from '../../../src/dns/server/client-address.ts'

function bytes (text: string): number[] | undefined {
  const out = new Uint8Array(16)
  const length = parseAddress(text, out)
  return length === 0 ? undefined : [...out.subarray(0, length)]
}

describe('parseAddress', () => {
  const cases: Array<[string, number[] | undefined]> = [
    ['127.0.0.1', [127, 0, 0, 1]],
    ['192.0.2.255', [192, 0, 2, 255]],
    ['0.0.0.0', [0, 0, 0, 0]],
    ['::1', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
    ['::', new Array(16).fill(0)],
    ['2001:db8::', [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
    ['2001:DB8:0:1:2:3:4:5', [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5]],
    ['2001:db8::1:0:0:1', [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]],
    ['fe80::1%eth0', [0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
    // IPv4-mapped (a dual-stack socket's view of an IPv4 client) is the IPv4 address.
    ['::ffff:192.0.2.7', [192, 0, 2, 7]],
    ['::ffff:c000:207', [192, 0, 2, 7]],
    ['64:ff9b::192.0.2.7', [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 192, 0, 2, 7]],
    ['', undefined],
    ['1.2.3', undefined],
    ['1.2.3.4.5', undefined],
    ['256.1.1.1', undefined],
    ['01.2.3.4', undefined],
    ['1..2.3', undefined],
    ['localhost', undefined],
    [':1', undefined],
    ['1:', undefined],
    ['1::2::3', undefined],
    ['1:2:3:4:5:6:7:8:9', undefined],
    ['1:2:3:4:5:6:7', undefined],
    ['12345::', undefined],
    ['g::1', undefined],
    ['1:2:3:4:5:6:7::8', undefined]
  ]
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} → ${expected === undefined ? 'not an address' : expected.join('.')}`, () => {
      assert.deepEqual(bytes(text), expected)
    })
  }
})

describe('parseCidr and inCidr', () => {
  const inside = (address: string, range: string): boolean => {
    const out = new Uint8Array(16)
    return inCidr(out, parseAddress(address, out), parseCidr(range)!)
  }

  it('reads ranges and bare addresses, and refuses prefixes longer than the family', () => {
    assert.deepEqual(parseCidr('192.0.2.0/24'), { bytes: Uint8Array.from([192, 0, 2, 0]), bits: 24 })
    assert.equal(parseCidr('::1')?.bits, 128)
    assert.equal(parseCidr('10.0.0.1')?.bits, 32)
    assert.equal(parseCidr('10.0.0.0/33'), undefined)
    assert.equal(parseCidr('::/129'), undefined)
    assert.equal(parseCidr('10.0.0.0/'), undefined)
    assert.equal(parseCidr('10.0.0.0/x'), undefined)
    assert.equal(parseCidr('nothing/8'), undefined)
  })

  it('matches by prefix, bit by bit, within one family', () => {
    assert.equal(inside('127.5.6.7', '127.0.0.0/8'), true)
    assert.equal(inside('128.0.0.1', '127.0.0.0/8'), false)
    assert.equal(inside('192.0.2.130', '192.0.2.128/25'), true)
    assert.equal(inside('192.0.2.127', '192.0.2.128/25'), false)
    assert.equal(inside('::1', '::1/128'), true)
    assert.equal(inside('::2', '::1/128'), false)
    assert.equal(inside('2001:db8:1::5', '2001:db8::/32'), true)
    assert.equal(inside('2001:db9::5', '2001:db8::/32'), false)
    assert.equal(inside('0.0.0.1', '::/0'), false, 'an IPv4 client is not in an IPv6 range')
    assert.equal(inside('::ffff:127.0.0.1', '127.0.0.0/8'), true, 'IPv4-mapped counts as IPv4')
    assert.equal(inside('198.51.100.1', '0.0.0.0/0'), true)
  })
})
