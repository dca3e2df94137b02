import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { parseName } from '../../../src/zone/name.ts'
import { DnssecError } from '../../../src/zone/dnssec/errors.ts'
import {
  ALGORITHM_NUMBERS, dnskeyRdata, dsRdata, exportPrivateKey, generateKey, importZoneKey, keyTagOf,
  publicKeyField, publicKeyOf, type AlgorithmName
} from '../../../src/zone/dnssec/keys.ts'
import { formatRdata } from '../../../src/zone/rdata/index.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { bindKeyFileBase, bindKeyFileText, rfc6605Key, rfc8080Pkcs8, runTool, tempDir } from '../../helpers/dnssec-tools.ts'

const b64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'base64'))
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/** A DNSKEY rdata from its presentation parts. */
function dnskey (flags: number, algorithm: number, key: string): Uint8Array {
  return dnskeyRdata({ flags, algorithm, publicKey: b64(key) })
}

const RFC4034_KEY = dnskey(256, 5, `AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/
  2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLU
  Uh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==`)

describe('ALGORITHM_NUMBERS', () => {
  it('numbers the algorithms as IANA does', () => {
    assert.deepEqual(ALGORITHM_NUMBERS, { ECDSAP256SHA256: 13, ED25519: 15, RSASHA256: 8 })
  })
})

describe('keyTagOf and dsRdata (RFC 4034 Appendix B, §5.1.4)', () => {
  it('gives the key tag and the SHA-1 DS of RFC 4034 §5.4', () => {
    assert.equal(keyTagOf(RFC4034_KEY), 60485)
    const ds = dsRdata(parseName('dskey.example.com.'), RFC4034_KEY, 1)
    assert.equal(formatRdata(RRType.DS, ds), '60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118')
  })

  it('gives the SHA-256 DS of RFC 4509 §2.3, whatever the case of the owner', () => {
    const ds = dsRdata(parseName('DSKEY.Example.COM.'), RFC4034_KEY, 2)
    assert.equal(formatRdata(RRType.DS, ds), '60485 5 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A')
  })

  it('derives the DNSKEY, key tag and DS of RFC 6605 §6.1 (ECDSA P-256) from its private key', () => {
    const publicKey = publicKeyField(13, rfc6605Key())
    assert.equal(Buffer.from(publicKey).toString('base64'), 'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==')
    const rdata = dnskeyRdata({ flags: 257, algorithm: 13, publicKey })
    assert.equal(keyTagOf(rdata), 55648)
    assert.equal(hex(dsRdata(parseName('example.net.'), rdata, 2)).slice(8), 'b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17')
  })

  it('derives the DNSKEY, key tag and DS of RFC 8080 §6.1 (Ed25519) from its private key', () => {
    const key = importZoneKey({ role: 'KSK', algorithm: 15, flags: 257, bits: 256, publicKey: b64('l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4='), privateKeyPkcs8: rfc8080Pkcs8() })
    assert.equal(key.keyTag, 3613)
    assert.equal(hex(dsRdata(parseName('example.com.'), dnskeyRdata(key), 2)), '0e1d0f02' + '3aa5ab37efce57f737fc1627013fee07bdf241bd10f3b1964ab55c78e79a304b')
  })

  it('refuses a digest type it does not make', () => {
    assert.throws(() => dsRdata(parseName('example.org.'), RFC4034_KEY, 3 as 1), (e: unknown) => e instanceof DnssecError && e.code === 'DNSSEC_UNSUPPORTED_DIGEST')
  })

  it('takes the modulus bits for algorithm 1 (RFC 4034 Appendix B.1)', () => {
    assert.equal(keyTagOf(Uint8Array.from([1, 0, 3, 1, 1, 3, 0xaa, 0xbb, 0x12, 0x34, 0x56])), 0x1234)
  })
})

describe('generateKey', () => {
  const cases: Array<[AlgorithmName, number, number, number]> = [['ECDSAP256SHA256', 13, 64, 256], ['ED25519', 15, 32, 256], ['RSASHA256', 8, 4 + 256, 2048]]
  for (const [name, number, keyLength, bits] of cases) {
    it(`makes ${name} keys with their DNSKEY fields`, () => {
      const ksk = generateKey('KSK', name)
      const zsk = generateKey('ZSK', name)
      assert.equal(ksk.algorithm, number)
      assert.equal(ksk.flags, 257)
      assert.equal(zsk.flags, 256)
      assert.equal(ksk.bits, bits)
      assert.equal(ksk.publicKey.length, keyLength)
      assert.equal(ksk.keyTag, keyTagOf(dnskeyRdata(ksk)))
      assert.notDeepEqual(ksk.publicKey, zsk.publicKey)
      // The DNSKEY field reads back into the same public key.
      assert.deepEqual(publicKeyField(number, publicKeyOf(dnskeyRdata(ksk))), ksk.publicKey)
    })
  }

  it('writes the RSA exponent 65537 first (RFC 3110 §2)', () => {
    const key = generateKey('ZSK', 'RSASHA256', 1024)
    assert.equal(key.bits, 1024)
    assert.equal(hex(key.publicKey.subarray(0, 4)), '03010001')
    assert.equal(key.publicKey.length, 4 + 128)
  })

  it('refuses RSA sizes outside 1024 to 4096 bits', () => {
    for (const bits of [512, 1023, 4097, 2048.5]) {
      assert.throws(() => generateKey('ZSK', 'RSASHA256', bits), (e: unknown) => e instanceof DnssecError && e.code === 'DNSSEC_BAD_KEY_SIZE')
    }
  })
})

describe('exportPrivateKey and importZoneKey', () => {
  for (const name of ['ECDSAP256SHA256', 'ED25519', 'RSASHA256'] as const) {
    it(`round-trips ${name} keys through PKCS#8`, () => {
      const key = generateKey('KSK', name, name === 'RSASHA256' ? 1024 : undefined)
      const pkcs8 = exportPrivateKey(key)
      assert.equal(pkcs8[0], 0x30)
      const back = importZoneKey({ role: key.role, algorithm: key.algorithm, flags: key.flags, bits: key.bits, publicKey: key.publicKey, privateKeyPkcs8: pkcs8 })
      assert.deepEqual(back.publicKey, key.publicKey)
      assert.equal(back.keyTag, key.keyTag)
      assert.equal(back.role, 'KSK')
    })
  }

  it('refuses a private key that does not match the public key, or is not PKCS#8', () => {
    const a = generateKey('ZSK', 'ECDSAP256SHA256')
    const b = generateKey('ZSK', 'ECDSAP256SHA256')
    const base = { role: 'ZSK' as const, algorithm: 13, flags: 256, bits: 256, publicKey: a.publicKey }
    assert.throws(() => importZoneKey({ ...base, privateKeyPkcs8: exportPrivateKey(b) }), (e: unknown) => e instanceof DnssecError && e.code === 'DNSSEC_BAD_KEY')
    assert.throws(() => importZoneKey({ ...base, privateKeyPkcs8: new Uint8Array([1, 2, 3]) }), (e: unknown) => e instanceof DnssecError && e.code === 'DNSSEC_BAD_KEY')
    assert.throws(() => importZoneKey({ ...base, algorithm: 15, privateKeyPkcs8: exportPrivateKey(a) }), (e: unknown) => e instanceof DnssecError && e.code === 'DNSSEC_BAD_KEY')
    assert.throws(() => importZoneKey({ ...base, algorithm: 7, privateKeyPkcs8: exportPrivateKey(a) }), (e: unknown) => e instanceof DnssecError && e.code === 'DNSSEC_UNSUPPORTED_ALGORITHM')
  })
})

describe('DS against BIND dnssec-dsfromkey', () => {
  it('matches BIND for each algorithm and digest type, key tag included', () => {
    const origin = parseName('Example.ORG.')
    const { dir, remove } = tempDir('zonal-dsfromkey-')
    try {
      for (const name of ['ECDSAP256SHA256', 'ED25519', 'RSASHA256'] as const) {
        const key = generateKey('KSK', name)
        const file = join(dir, bindKeyFileBase(origin, key) + '.key')
        writeFileSync(file, bindKeyFileText(origin, key))
        for (const [flag, digest] of [['-1', 1], ['-2', 2], ['-aSHA-384', 4]] as const) {
          const r = runTool('dnssec-dsfromkey', [flag, file])
          assert.equal(r.status, 0, r.stderr)
          const fields = r.stdout.trim().split(/\s+/)
          // "<owner> IN DS <tag> <alg> <digest type> <digest…>"
          assert.equal(fields[2], 'DS', r.stdout)
          const theirs = fields.slice(3, 6).join(' ') + ' ' + fields.slice(6).join('').toUpperCase()
          assert.equal(formatRdata(RRType.DS, dsRdata(origin, dnskeyRdata(key), digest)), theirs, `${name} digest ${digest}`)
          assert.equal(Number(fields[3]), key.keyTag)
        }
      }
    } finally {
      remove()
    }
  })
})
