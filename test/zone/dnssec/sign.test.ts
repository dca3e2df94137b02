import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseName } from '../../../src/zone/name.ts'
import { canonicalRdata, canonicalRdatas } from '../../../src/zone/dnssec/canonical.ts'
import { dnskeyRdata, generateKey, importZoneKey, type AlgorithmName } from '../../../src/zone/dnssec/keys.ts'
import { rrsigLabels, signRrset, verifyRrsig } from '../../../src/zone/dnssec/sign.ts'
import { formatRdata, parseRdata, tokenize } from '../../../src/zone/rdata/index.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { rfc8080Pkcs8 } from '../../helpers/dnssec-tools.ts'

const b64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'base64'))
const origin = parseName('example.org.')
const rdata = (type: number, text: string): Uint8Array => parseRdata(type, tokenize(text), { origin })
const window = { inception: 1_700_000_000, expiration: 1_700_000_000 + 14 * 86400 }
const now = window.inception + 3600

describe('signRrset (RFC 4034 §3.1)', () => {
  it('reproduces the Ed25519 signature of RFC 8080 §6.1 byte for byte', () => {
    const key = importZoneKey({ role: 'KSK', algorithm: 15, flags: 257, bits: 256, publicKey: b64('l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4='), privateKeyPkcs8: rfc8080Pkcs8() })
    const apex = parseName('example.com.')
    const mx = parseRdata(RRType.MX, tokenize('10 mail.example.com.'), { origin: apex })
    const sig = signRrset(apex, apex, RRType.MX, 3600, [mx], key, { inception: 1438207200, expiration: 1440021600 })
    assert.equal(formatRdata(RRType.RRSIG, sig).replace(/ \d{14} \d{14} /, ' T T '),
      'MX 15 2 3600 T T 3613 example.com. oL9krJun7xfBOIWcGHi7mag5/hdZrKWw15jPGrHpjQeRAvTdszaPD+QLs3fx8A4M3e23mRZ9VrbpMngwcrqNAg==')
    const view = new DataView(sig.buffer, sig.byteOffset)
    assert.equal(view.getUint32(8), 1440021600)
    assert.equal(view.getUint32(12), 1438207200)
    assert.ok(verifyRrsig(apex, RRType.MX, 3600, [mx], sig, dnskeyRdata(key), 1439000000))
  })

  it('writes every RRSIG field, the signer in lower case', () => {
    const key = generateKey('ZSK', 'ECDSAP256SHA256')
    const sig = signRrset(parseName('Example.ORG.'), parseName('www.example.org.'), RRType.A, 300, [rdata(RRType.A, '192.0.2.1')], key, window)
    const text = formatRdata(RRType.RRSIG, sig).split(' ')
    assert.deepEqual(text.slice(0, 4), ['A', '13', '3', '300'])
    assert.deepEqual(text.slice(6, 8), [String(key.keyTag), 'example.org.'])
    // RFC 6605 §4: r | s, 32 octets each.
    assert.equal(sig.length - 18 - origin.length, 64)
  })

  it('does not count a leading * in the labels field (RFC 4034 §3.1.3)', () => {
    assert.equal(rrsigLabels(parseName('*.example.org.')), 2)
    assert.equal(rrsigLabels(parseName('*.a.example.org.')), 3)
    assert.equal(rrsigLabels(parseName('a.*.example.org.')), 4)
    assert.equal(rrsigLabels(parseName('.')), 0)
  })

  it('signs the canonical rrset: case, order and duplicates do not change the signature input', () => {
    const key = importZoneKey({ role: 'KSK', algorithm: 15, flags: 257, bits: 256, publicKey: b64('l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4='), privateKeyPkcs8: rfc8080Pkcs8() })
    const owner = parseName('www.example.org.')
    const a = rdata(RRType.MX, '10 Mail.Example.ORG.')
    const b = rdata(RRType.MX, '20 backup.example.org.')
    // Ed25519 is deterministic: the same canonical data gives the same signature.
    const one = signRrset(origin, owner, RRType.MX, 300, [a, b], key, window)
    const two = signRrset(origin, parseName('WWW.example.org.'), RRType.MX, 300, [b, rdata(RRType.MX, '10 mail.example.org.'), b], key, window)
    assert.deepEqual(one, two)
    // TXT keeps its case: different data, a different signature.
    const t1 = signRrset(origin, owner, RRType.TXT, 300, [rdata(RRType.TXT, '"Hello"')], key, window)
    const t2 = signRrset(origin, owner, RRType.TXT, 300, [rdata(RRType.TXT, '"hello"')], key, window)
    assert.notDeepEqual(t1, t2)
  })
})

describe('canonicalRdata (RFC 4034 §6.2, RFC 6840 §5.1)', () => {
  it('lower-cases the names of the listed types only', () => {
    const cases: Array<[number, string, string]> = [
      [RRType.CNAME, 'Target.Example.ORG.', 'target.example.org.'],
      [RRType.SOA, 'NS1.example.org. Host.Example.org. 1 2 3 4 5', 'ns1.example.org. host.example.org. 1 2 3 4 5'],
      [RRType.SRV, '0 5 443 WWW.example.org.', '0 5 443 www.example.org.'],
      [RRType.NAPTR, '1 2 "S" "SIP+D2U" "" _SIP._udp.Example.org.', '1 2 "S" "SIP+D2U" "" _sip._udp.example.org.'],
      [RRType.RP, 'Mbox.example.org. TXT.example.org.', 'mbox.example.org. txt.example.org.'],
      [RRType.A6, '64 ::1:2:3:4 Prefix.Example.org.', '64 ::1:2:3:4 prefix.example.org.']
    ]
    for (const [type, input, expected] of cases) {
      assert.equal(formatRdata(type, canonicalRdata(type, rdata(type, input))), expected)
    }
    // NSEC's next name keeps its case (RFC 6840 §5.1); so do SVCB targets and TXT.
    const nsec = rdata(RRType.NSEC, 'Next.Example.org. A RRSIG NSEC')
    assert.deepEqual(canonicalRdata(RRType.NSEC, nsec), nsec)
    const svcb = rdata(RRType.SVCB, '1 Target.example.org.')
    assert.deepEqual(canonicalRdata(RRType.SVCB, svcb), svcb)
  })

  it('lower-cases names of the listed types that have no rdata module (MB, MINFO, RT, PX)', () => {
    const name = parseName('Mail.Example.ORG.')
    const lower = parseName('mail.example.org.')
    assert.deepEqual(canonicalRdata(RRType.MB, name), lower)
    assert.deepEqual(canonicalRdata(RRType.MINFO, Uint8Array.from([...name, ...name])), Uint8Array.from([...lower, ...lower]))
    assert.deepEqual(canonicalRdata(RRType.RT, Uint8Array.from([0, 1, ...name])), Uint8Array.from([0, 1, ...lower]))
    assert.deepEqual(canonicalRdata(RRType.PX, Uint8Array.from([0, 1, ...name, ...name])), Uint8Array.from([0, 1, ...lower, ...lower]))
  })

  it('leaves rdata that does not fit its layout as it is', () => {
    const bad = Uint8Array.from([5, 0x41, 0x42])
    assert.deepEqual(canonicalRdata(RRType.CNAME, bad), bad)
  })

  it('sorts rdatas as octet strings and removes duplicates (RFC 4034 §6.3)', () => {
    const out = canonicalRdatas(RRType.A, [Uint8Array.from([192, 0, 2, 2]), Uint8Array.from([10, 0, 0, 1]), Uint8Array.from([192, 0, 2, 2])])
    assert.deepEqual(out.map(r => [...r]), [[10, 0, 0, 1], [192, 0, 2, 2]])
    const short = canonicalRdatas(RRType.TXT, [Uint8Array.from([2, 0x61, 0x62]), Uint8Array.from([1, 0x61])])
    assert.deepEqual(short.map(r => [...r]), [[1, 0x61], [2, 0x61, 0x62]])
  })
})

describe('verifyRrsig (RFC 4035 §5.3)', () => {
  it('accepts the ECDSA P-256 signature of RFC 6605 §6.1', () => {
    const key = dnskeyRdata({ flags: 257, algorithm: 13, publicKey: b64('GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==') })
    const apex = parseName('example.net.')
    const sig = parseRdata(RRType.RRSIG, tokenize('A 13 3 3600 20100909100439 20100812100439 55648 example.net. qx6wLYqmh+l9oCKTN6qIc+bw6ya+KJ8oMz0YP107epXAyGmt+3SNruPFKG7tZoLBLlUzGGus7ZwmwWep666VCw=='), { origin: apex })
    const a = Uint8Array.from([192, 0, 2, 1])
    const www = parseName('www.example.net.')
    assert.ok(verifyRrsig(www, RRType.A, 3600, [a], sig, key, 1_283_000_000))
    assert.ok(!verifyRrsig(www, RRType.A, 3600, [Uint8Array.from([192, 0, 2, 2])], sig, key, 1_283_000_000))
    assert.ok(!verifyRrsig(www, RRType.A, 3600, [a], sig, key, 1_290_000_000), 'expired')
  })

  for (const name of ['ECDSAP256SHA256', 'ED25519', 'RSASHA256'] as const satisfies readonly AlgorithmName[]) {
    it(`verifies ${name} signatures it made and refuses any change`, () => {
      const key = generateKey('ZSK', name, name === 'RSASHA256' ? 1024 : undefined)
      const other = generateKey('ZSK', name, name === 'RSASHA256' ? 1024 : undefined)
      const owner = parseName('www.example.org.')
      const rdatas = [rdata(RRType.A, '192.0.2.1'), rdata(RRType.A, '192.0.2.2')]
      const sig = signRrset(origin, owner, RRType.A, 300, rdatas, key, window)
      const dnskey = dnskeyRdata(key)
      assert.ok(verifyRrsig(owner, RRType.A, 300, rdatas, sig, dnskey, now))
      assert.ok(verifyRrsig(owner, RRType.A, 200, [...rdatas].reverse(), sig, dnskey, now), 'lower TTL, other order')
      assert.ok(!verifyRrsig(owner, RRType.A, 300, rdatas.slice(1), sig, dnskey, now), 'rrset changed')
      assert.ok(!verifyRrsig(owner, RRType.AAAA, 300, rdatas, sig, dnskey, now), 'other type')
      assert.ok(!verifyRrsig(parseName('ftp.example.org.'), RRType.A, 300, rdatas, sig, dnskey, now), 'other owner')
      assert.ok(!verifyRrsig(owner, RRType.A, 301, rdatas, sig, dnskey, now), 'TTL above the original TTL')
      assert.ok(!verifyRrsig(owner, RRType.A, 300, rdatas, sig, dnskeyRdata(other), now), 'other key')
      assert.ok(!verifyRrsig(owner, RRType.A, 300, rdatas, sig, dnskey, window.inception - 1), 'before inception')
      assert.ok(!verifyRrsig(owner, RRType.A, 300, rdatas, sig, dnskey, window.expiration + 1), 'after expiration')
      const corrupt = sig.slice()
      corrupt[corrupt.length - 5]! ^= 0x01
      assert.ok(!verifyRrsig(owner, RRType.A, 300, rdatas, corrupt, dnskey, now), 'signature corrupted')
      const notZoneKey = dnskey.slice()
      notZoneKey[0] = 0
      assert.ok(!verifyRrsig(owner, RRType.A, 300, rdatas, sig, notZoneKey, now), 'not a zone key')
      assert.ok(!verifyRrsig(owner, RRType.A, 300, rdatas, sig.subarray(0, 10), dnskey, now), 'truncated RRSIG')
    })
  }

  it('verifies a wildcard signature for a name it expands to (RFC 4035 §5.3.2)', () => {
    const key = generateKey('ZSK', 'ED25519')
    const rdatas = [rdata(RRType.A, '192.0.2.9')]
    const sig = signRrset(origin, parseName('*.example.org.'), RRType.A, 300, rdatas, key, window)
    assert.equal(sig[3], 2)
    assert.ok(verifyRrsig(parseName('*.example.org.'), RRType.A, 300, rdatas, sig, dnskeyRdata(key), now))
    assert.ok(verifyRrsig(parseName('a.b.example.org.'), RRType.A, 300, rdatas, sig, dnskeyRdata(key), now))
    assert.ok(!verifyRrsig(parseName('a.b.example.net.'), RRType.A, 300, rdatas, sig, dnskeyRdata(key), now))
  })

  it('takes times modulo 2^32 in serial number arithmetic (RFC 4034 §3.1.5)', () => {
    const key = generateKey('ZSK', 'ED25519')
    const late = { inception: 2 ** 32 - 100, expiration: 2 ** 32 + 1000 }
    const rdatas = [rdata(RRType.A, '192.0.2.9')]
    const owner = parseName('x.example.org.')
    const sig = signRrset(origin, owner, RRType.A, 300, rdatas, key, late)
    assert.ok(verifyRrsig(owner, RRType.A, 300, rdatas, sig, dnskeyRdata(key), 2 ** 32 + 10))
    assert.ok(!verifyRrsig(owner, RRType.A, 300, rdatas, sig, dnskeyRdata(key), 2 ** 32 + 2000))
  })
})
