import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { compareIp, formatIp, parseIp, parseIpInto, parseIpv4, parseIpv6 } from '../../src/zone/ip.ts'

const list = (b: Uint8Array | undefined): number[] | undefined => b === undefined ? undefined : [...b]

describe('the address parser', () => {
  it('reads IPv4 dotted quads only in their plain decimal form', () => {
    assert.deepEqual(list(parseIpv4('192.0.2.1')), [192, 0, 2, 1])
    for (const bad of ['', '1.2.3', '1.2.3.4.5', '256.0.0.1', '01.2.3.4', '1..2.3', ' 1.2.3.4', '1.2.3.4 ', '0x1.2.3.4']) {
      assert.equal(parseIpv4(bad), undefined, bad)
    }
  })

  it('reads IPv6 with ::, upper-case hex and a dotted IPv4 tail', () => {
    assert.deepEqual(list(parseIpv6('2001:DB8::1')), [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    assert.deepEqual(list(parseIpv6('::ffff:192.0.2.7')), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 7])
    assert.deepEqual(list(parseIpv6('1:2:3:4:5:6:7::')), [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0])
    for (const bad of ['', '1.2.3.4', ':1', '1:', ':::', '1::2::3', '12345::', '1:2:3:4:5:6:7::8', '::1.2.3', '1.2.3.4::', 'fe80::1%eth0']) {
      assert.equal(parseIpv6(bad), undefined, bad)
    }
  })

  it('takes an IPv6 zone id only when asked to (the listeners do; stored settings and rdata do not)', () => {
    const out = new Uint8Array(16)
    assert.equal(parseIpInto('fe80::1%eth0', out), 0)
    assert.equal(parseIpInto('fe80::1%eth0', out, true), 16)
    assert.deepEqual([...out], [0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    assert.equal(parseIp('fe80::1%eth0'), undefined)
  })

  it('gives 4 or 16 bytes by family, and formats them back (IPv6 in RFC 5952 form)', () => {
    assert.equal(parseIp('192.0.2.1')?.length, 4)
    assert.equal(parseIp('2001:db8::1')?.length, 16)
    assert.equal(formatIp(parseIp('192.0.2.1')!), '192.0.2.1')
    assert.equal(formatIp(parseIp('2001:0DB8:0:0:0:0:0:1')!), '2001:db8::1')
    assert.equal(formatIp(parseIp('::ffff:192.0.2.7')!), '::ffff:192.0.2.7')
  })

  it('orders addresses of one family octet by octet', () => {
    assert.ok(compareIp(parseIp('192.0.2.1')!, parseIp('192.0.2.10')!) < 0)
    assert.ok(compareIp(parseIp('2001:db8::2')!, parseIp('2001:db8::1')!) > 0)
    assert.equal(compareIp(parseIp('::1')!, parseIp('0:0::1')!), 0)
  })
})
